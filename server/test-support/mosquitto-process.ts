import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createConnection } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { dynsecConfig } from "../devices/mosquitto-dynsec.ts";
import { freePort } from "./free-port.ts";

export const MOSQUITTO_BIN = process.env.MOSQUITTO_BIN ?? "/usr/sbin/mosquitto";
const DYNSEC_PLUGINS = ["/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so", "/usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so", "/usr/lib/mosquitto_dynamic_security.so"];

export const mosquittoAvailable = () => existsSync(MOSQUITTO_BIN) && DYNSEC_PLUGINS.some((p) => existsSync(p));

export interface MosquittoProcess {
  url: string;
  admin: { username: string; password: string };
  gateway: { username: string; password: string };
  stop(): Promise<void>;
}


/** Starts Debian's Mosquitto on a loopback port with the dynamic-security plugin (tests, CI, bench), knowing `devices`. */
export async function startMosquitto(options: { devices?: { mac: string; key: string }[] } = {}): Promise<MosquittoProcess> {
  const dir = await mkdtemp(join(tmpdir(), "mosquitto-"));
  const port = await freePort();
  const admin = { username: "dynsec-admin", password: "admin-secret" };
  const gateway = { username: "gateway", password: "gateway-secret" };
  await writeFile(join(dir, "dynsec.json"), JSON.stringify(dynsecConfig({ admin, gateway, devices: options.devices }), null, 2));
  const plugin = DYNSEC_PLUGINS.find((p) => existsSync(p))!;
  await writeFile(
    join(dir, "mosquitto.conf"),
    // Run as this user: as root Mosquitto would switch to "mosquitto", who cannot read this private folder.
    [`user ${userInfo().username}`, `listener ${port} 127.0.0.1`, "allow_anonymous false", "persistence false", `plugin ${plugin}`, `plugin_opt_config_file ${join(dir, "dynsec.json")}`, "log_dest stdout", ""].join("\n"),
  );
  const child: ChildProcess = spawn(MOSQUITTO_BIN, ["-c", join(dir, "mosquitto.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited: ${out}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = createConnection({ port, host: "127.0.0.1" }, () => {
        s.destroy();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error(`mosquitto did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `mqtt://127.0.0.1:${port}`,
    admin,
    gateway,
    async stop() {
      if (child.exitCode === null) {
        await new Promise<void>((resolve) => {
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        });
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
