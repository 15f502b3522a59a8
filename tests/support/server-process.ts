import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../../server/test-support/free-port.ts";

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `server/main.ts` as a user would (`npm start` without the build), on loopback; on `port`
 * when given (a restart keeps the address the browser has open), otherwise on a free one.
 */
export async function startServer(env: Record<string, string>, options: { port?: number; nodeArgs?: string[] } = {}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  // Each test server counts its own sign-in limits (a Redis the suite has is for the tests that share one on purpose).
  const { REDIS_URL: _shared, ...inherited } = process.env;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), "--import", "tsx", "server/main.ts"], {
    env: { ...inherited, HOST: "127.0.0.1", PORT: String(port), MQTT_PORT: "0", SCRYPT_LOG2N: "10", LOGIN_ATTEMPTS_PER_MINUTE: "100000", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    if (out.includes("Mushroom farm is running")) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    output: () => out,
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill("SIGTERM");
      });
    },
  };
}
