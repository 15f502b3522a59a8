/**
 * Gateway load benchmark: a simulated fleet (a separate process, `npm run simulate`) reports over
 * real MQTT to the server's embedded broker while one signed-in socket receives the owner's live
 * data. Measures the server's event-loop delay (p50/p99/max), ingest rate and what the socket got,
 * against an idle baseline measured in the same run.
 *
 *   npm run bench -- [--scenarios 100x1,500x1] [--seconds 20]
 *
 * Prints a table and writes bench/results/gateway-load.json.
 */
import { spawn } from "node:child_process";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir, cpus } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { io } from "socket.io-client";
import { createPasswordHasher } from "../server/auth/password.ts";
import { openPglite } from "../server/db/database.ts";
import { farmsRepo } from "../server/db/farms-repo.ts";
import { mcusRepo } from "../server/db/mcus-repo.ts";
import { migrate } from "../server/db/migrate.ts";
import { provisionDevices, randomMac } from "../server/devices/provisioning.ts";
import { DEFAULT_SESSION } from "../server/http/session.ts";
import { startSystem } from "../server/system.ts";
import { cookieOf, registration } from "../server/test-support.ts";

const { values } = parseArgs({ options: { scenarios: { type: "string", default: "100x1,500x1" }, seconds: { type: "string", default: "20" } } });
const scenarios = values.scenarios!.split(",").map((s) => {
  const [n, hz] = s.split("x").map(Number);
  if (!Number.isInteger(n) || !(hz! > 0)) throw new Error(`bad scenario ${s}: use MCUSxHZ, e.g. 500x1`);
  return { mcus: n!, hz: hz! };
});
const seconds = Number(values.seconds);
const maxMcus = Math.max(...scenarios.map((s) => s.mcus));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** monitorEventLoopDelay samples every RESOLUTION ms and counts that interval in each value: subtract it. */
const RESOLUTION = 10;

const db = await openPglite();
await migrate(db);
const system = await startSystem({
  db,
  hasher: createPasswordHasher({ log2N: 10 }),
  http: { host: "127.0.0.1", port: 0, allowedOrigins: [], session: DEFAULT_SESSION },
  mqtt: { mode: "embedded", host: "127.0.0.1", port: 0 },
});

// One client owns the whole fleet: the worst case for its socket.
const reg = registration();
await system.app.inject({ method: "POST", url: "/api/clients", payload: reg });
const login = await system.app.inject({ method: "POST", url: "/api/clients/login", payload: { username: reg.username, password: reg.password } });
const cookie = cookieOf(login);
const clientId = login.json().client.client_id as number;
const devices = await provisionDevices(db, Array.from({ length: maxMcus }, () => ({ mac: randomMac(), kind: "mcu" as const, type: null })));
await db.transaction(async (tx) => {
  const farm = await farmsRepo(tx).create(clientId, "Bench farm", "Loopback");
  for (const [i, d] of devices.entries()) await mcusRepo(tx).create(clientId, { name: `Bench ${i}`, mac: d.mac, claim_code: d.claimCode!, farm_id: farm.farm_id }, new Date());
});
const dir = await mkdtemp(join(tmpdir(), "bench-fleet-"));
const fleetFile = join(dir, "fleet.json");
await writeFile(fleetFile, JSON.stringify(devices.map((d) => ({ mac: d.mac, key: d.key }))));

const socket = io(system.url, { transports: ["websocket"], extraHeaders: { cookie }, reconnection: false });
await new Promise<void>((resolve, reject) => {
  socket.once("connect", resolve);
  socket.once("connect_error", reject);
});
let socketMessages = 0;
let socketReadings = 0;
socket.on("realtimeData", () => {
  socketMessages++;
  socketReadings++;
});
socket.on("realtimeBatch", (b: { data: unknown[] }) => {
  socketMessages++;
  socketReadings += b.data.length;
});
socket.on("deviceStatusUpdate", () => socketMessages++);
socket.emit("authenticateUser", clientId);
await new Promise((r) => socket.once("authenticated", r));

interface Row {
  scenario: string;
  mcus: number;
  hz: number;
  loopP50Ms: number;
  loopP99Ms: number;
  loopMaxMs: number;
  ingestPerSec: number;
  socketMsgsPerSec: number;
  socketReadingsPerSec: number;
  /** CPU of this process (server, plus the one socket client) per ingested message. */
  cpuUsPerMsg: number;
  dropped: number;
}

async function measure(label: string, mcus: number, hz: number, during: () => Promise<void>): Promise<Row> {
  const h = monitorEventLoopDelay({ resolution: RESOLUTION });
  const t0 = system.gateway.stats();
  const m0 = socketMessages;
  const r0 = socketReadings;
  const c0 = process.cpuUsage();
  h.enable();
  const started = Date.now();
  await during();
  h.disable();
  const secs = (Date.now() - started) / 1000;
  const cpu = process.cpuUsage(c0);
  const t1 = system.gateway.stats();
  const d = (s: typeof t0) => s.dropped.invalid + s.dropped.tooLarge + s.dropped.unknownDevice;
  return {
    scenario: label,
    mcus,
    hz,
    loopP50Ms: +Math.max(0, h.percentile(50) / 1e6 - RESOLUTION).toFixed(2),
    loopP99Ms: +Math.max(0, h.percentile(99) / 1e6 - RESOLUTION).toFixed(2),
    loopMaxMs: +Math.max(0, h.max / 1e6 - RESOLUTION).toFixed(2),
    ingestPerSec: +((t1.telemetry - t0.telemetry) / secs).toFixed(1),
    socketMsgsPerSec: +((socketMessages - m0) / secs).toFixed(1),
    socketReadingsPerSec: +((socketReadings - r0) / secs).toFixed(1),
    cpuUsPerMsg: t1.telemetry > t0.telemetry ? +((cpu.user + cpu.system) / (t1.telemetry - t0.telemetry)).toFixed(1) : 0,
    dropped: d(t1) - d(t0),
  };
}

const rows: Row[] = [];
rows.push(await measure("idle baseline", 0, 0, () => sleep(seconds * 1000)));

for (const s of scenarios) {
  const child = spawn(process.execPath, ["--import", "tsx", "server/simulator/cli.ts", "--fleet", fleetFile, "--mcus", String(s.mcus), "--hz", String(s.hz), "--url", system.mqttUrl], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  child.stdout!.resume();
  // Wait until the whole fleet is connected and reporting, then measure steady state.
  const deadline = Date.now() + 120_000;
  while (system.broker!.connectedDevices() < s.mcus) {
    if (Date.now() > deadline) throw new Error(`only ${system.broker!.connectedDevices()} of ${s.mcus} devices connected`);
    await sleep(200);
  }
  await sleep(3000);
  rows.push(await measure(`${s.mcus} MCUs at ${s.hz} Hz`, s.mcus, s.hz, () => sleep(seconds * 1000)));
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
  while (system.broker!.connectedDevices() > 0) await sleep(100);
  await sleep(1000);
}

console.table(rows);
const baseline = rows[0]!;
for (const r of rows.slice(1)) {
  console.log(`${r.scenario}: event-loop delay p99 ${r.loopP99Ms} ms (idle ${baseline.loopP99Ms} ms), goal < 50 ms: ${r.loopP99Ms < 50 ? "met" : "NOT met"}`);
}
await mkdir("bench/results", { recursive: true });
await writeFile(
  "bench/results/gateway-load.json",
  JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: cpus().length, seconds, rows }, null, 2),
);
console.log("wrote bench/results/gateway-load.json");

socket.close();
await system.close();
await db.close();
await rm(dir, { recursive: true, force: true });
process.exit(0);
