/**
 * Builds the app into dist/ unless dist/ was built from the inputs there are now. `npm start` runs
 * it before the server: the build takes a minute on a small machine, a start with the app up to
 * date a second or two. The inputs are what Vite reads (the app's sources, its static files, the
 * build's configuration, the exact dependencies, .env files and VITE_* variables); their SHA-256 is
 * kept in dist/ beside the build, written only once the build has succeeded, so a build that
 * failed or was cut short is made again at the next start.
 *
 *   tsx scripts/build-if-stale.ts           build if the inputs changed
 *   tsx scripts/build-if-stale.ts --force   build anyway
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");
/** Named for what it holds; Vite empties dist/ at each build, so it never outlives the build it describes. */
const STAMP = join(DIST, ".build-inputs.sha256");
const INPUTS = ["src", "public", "index.html", "vite.config.ts", "uno.config.ts", "tsconfig.json", "tsconfig.base.json", "package-lock.json", ".env", ".env.local", ".env.production", ".env.production.local"];

/** The input files, as paths from the repository's root with forward slashes, sorted: the same list on every machine. */
function inputFiles(): string[] {
  const files: string[] = [];
  for (const input of INPUTS) {
    const path = join(ROOT, input);
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) if (entry.isFile()) files.push(join(entry.parentPath, entry.name));
    } else {
      files.push(path);
    }
  }
  return files.map((f) => relative(ROOT, f).split(sep).join("/")).sort();
}

export function inputsHash(): string {
  const hash = createHash("sha256");
  for (const file of inputFiles()) {
    const content = readFileSync(join(ROOT, file));
    hash.update(`${file}\0${content.length}\0`).update(content);
  }
  for (const [name, value] of Object.entries(process.env).filter(([n]) => n.startsWith("VITE_")).sort(([a], [b]) => a.localeCompare(b))) {
    hash.update(`env ${name}=${value}\0`);
  }
  return hash.digest("hex");
}

const force = process.argv.includes("--force");
const want = inputsHash();
const have = existsSync(STAMP) ? readFileSync(STAMP, "utf8").trim() : undefined;
if (!force && have === want && existsSync(join(DIST, "index.html"))) {
  console.log("The app in dist/ is up to date.");
} else {
  console.log(have === undefined ? "Building the app into dist/ (about a minute)…" : "The app's sources changed: building it again (about a minute)…");
  const started = Date.now();
  rmSync(STAMP, { force: true });
  // Warnings and errors only: the asset table and the plugins' timings say nothing to someone starting the server.
  // Imported only now: loading Vite takes longer than the whole check.
  const { build } = await import("vite");
  await build({ root: ROOT, logLevel: "warn" });
  writeFileSync(STAMP, `${want}\n`);
  console.log(`Built in ${Math.round((Date.now() - started) / 1000)} s.`);
}
