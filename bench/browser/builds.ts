import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import react from "@vitejs/plugin-react";
import UnoCSS from "unocss/vite";
import { build } from "vite";

const REPO = resolve(import.meta.dirname, "../..");

function run(command: string, args: string[]): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(command, args, { cwd: REPO, stdio: ["ignore", "ignore", "inherit"] });
    child.once("error", fail);
    child.once("exit", (code) => (code === 0 ? ok() : fail(new Error(`${command} ${args.join(" ")} exited with ${code}`))));
  });
}

/**
 * The static dir the server serves: our app (a production build, as `npm run build` makes it, but
 * into `dir`, never into dist/) and the naive client under /naive/, from the same origin so it
 * shares the session cookie. An existing dir holding both is reused as is (--static-dir).
 */
export async function buildStatic(dir: string, log: (m: string) => void): Promise<void> {
  if (existsSync(join(dir, "index.html")) && existsSync(join(dir, "naive", "index.html"))) {
    log(`reusing the builds in ${dir}`);
    return;
  }
  log(`building the app into ${dir} …`);
  await run(process.execPath, [join(REPO, "node_modules/vite/bin/vite.js"), "build", "--outDir", dir, "--emptyOutDir", "--logLevel", "warn"]);
  log("building the naive client …");
  await build({
    configFile: false,
    root: join(REPO, "bench/naive"),
    base: "/naive/",
    logLevel: "warn",
    // The app's UnoCSS config: the naive card's classes give the same CSS rules as the app's.
    plugins: [UnoCSS(join(REPO, "uno.config.ts")), react()],
    build: { outDir: join(dir, "naive"), emptyOutDir: true, target: "es2022", sourcemap: false },
  });
}
