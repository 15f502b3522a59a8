/**
 * Device ingest benchmark. Every part runs as in production, each in its own process:
 * server nodes (`server/main.ts`), simulated fleets (`server/simulator/cli.ts`), and this process
 * as the fleet owner's browser: one socket counting the readings it receives and a
 * `GET /api/clients/me` every 100 ms. Two setups:
 *
 *   embedded  one node: PGlite in its data folder, the embedded MQTT broker;
 *   cluster   two nodes behind Mosquitto (shared subscription), Redis (Socket.IO adapter) and
 *             PostgreSQL; the socket and the requests go to node A, devices are split by Mosquitto.
 *
 *   npm run bench -- [--setups embedded,cluster] [--rates 2500,5000,10000,15000,20000] [--hz 5] [--seconds 20] [--qos 0|1]
 *
 * --qos 1: the devices publish telemetry at QoS 1 (each acknowledged by the broker; through
 * Mosquitto, by the node once its reading is out).
 * The cluster setup needs Mosquitto, REDIS_URL and DATABASE_URL (a PostgreSQL role that may
 * create databases: the bench makes its own and drops it). Per level (rate = MCUs x Hz) it waits
 * for the whole fleet to connect and `--warmup` seconds, measures `--seconds`, then stops the
 * fleet and waits for the last readings: "delivered" compares every reading the simulators sent
 * with what the socket received over the whole run. Per node it reads `GET /api/metrics` (totals
 * since the node started) at both ends of the window and compares the reads: CPU per ingested
 * message (the process, every thread), event-loop delay p50/p99 over the window, RSS, frames
 * skipped for a slow socket. It also measures the simulators' CPU and the machine's:
 * when the machine is busy, the limit is the machine (2 cores here), not the server.
 *
 * Prints a table and writes bench/results/gateway-load.json.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import pg from "pg";
import { Redis } from "ioredis";
import { io } from "socket.io-client";
import { createPasswordHasher } from "../server/auth/password.ts";
import { clientsRepo } from "../server/db/clients-repo.ts";
import { openPglite, openPostgres, type Database } from "../server/db/database.ts";
import { farmsRepo } from "../server/db/farms-repo.ts";
import { mcusRepo } from "../server/db/mcus-repo.ts";
import { migrate } from "../server/db/migrate.ts";
import { mosquittoAvailable, startMosquitto, type MosquittoProcess } from "../server/test-support/mosquitto-process.ts";
import { provisionDevices, randomMac } from "../server/devices/provisioning.ts";
import { freePort } from "../server/test-support/free-port.ts";
import { metricsWindow, type NodeMetrics } from "../server/metrics.ts";
import { startServer, type ServerProcess } from "../tests/support/server-process.ts";

const { values } = parseArgs({
  options: {
    setups: { type: "string", default: "embedded,cluster" },
    rates: { type: "string", default: "2500,5000,10000,15000,20000" },
    hz: { type: "string", default: "5" },
    seconds: { type: "string", default: "20" },
    warmup: { type: "string", default: "5" },
    qos: { type: "string", default: "0" },
    out: { type: "string", default: "bench/results/gateway-load.json" },
    /** Writes each server node's CPU profiles (V8 .cpuprofile, every thread) into this folder. */
    "profile-dir": { type: "string" },
    /** Extra Node options for the server nodes, comma-separated (e.g. --max-semi-space-size=64). */
    "node-args": { type: "string" },
  },
});
const hz = Number(values.hz);
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
const rates = values.rates!.split(",").map(Number);
const setups = values.setups!.split(",") as ("embedded" | "cluster")[];
if (values.qos !== "0" && values.qos !== "1") throw new Error("--qos must be 0 or 1");
if (rates.some((r) => !(r > 0)) || !(hz > 0) || setups.some((s) => s !== "embedded" && s !== "cluster")) throw new Error("bad arguments: see the usage at the top of bench/gateway-load.ts");
const maxMcus = Math.ceil(Math.max(...rates) / hz);
/** One simulator process per this many messages a second (the simulator is one Node process too). */
const PER_SIMULATOR = 7_500;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const OWNER = { username: "bench_owner", email: "bench@example.com", password: "spores-and-caps" };

// ---- measuring processes and the machine from outside ----

const TICK_US = 1e6 / 100; // USER_HZ
/** CPU time (user + system) in a /proc stat file: a process's, or one thread's (`/proc/PID/task/TID/stat`). */
async function cpuUsOf(statFile: string): Promise<number> {
  const stat = await readFile(statFile, "utf8").catch(() => "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_US; // utime, stime
}
const processCpuUs = (pid: number) => cpuUsOf(`/proc/${pid}/stat`);
/** The main thread's id is the process id. */
const mainThreadCpuUs = (pid: number) => cpuUsOf(`/proc/${pid}/task/${pid}/stat`);
async function machineTicks(): Promise<{ busy: number; total: number }> {
  const [cpu] = (await readFile("/proc/stat", "utf8")).split("\n");
  const t = cpu!.split(/\s+/).slice(1).map(Number);
  const total = t.reduce((a, b) => a + b, 0);
  return { busy: total - t[3]! - t[4]!, total };
}
function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

// ---- the fleet's owner and devices, written straight into the database ----

async function seed(db: Database): Promise<{ mac: string; key: string }[]> {
  await migrate(db);
  const hasher = createPasswordHasher({ log2N: 10 });
  const client = await clientsRepo(db).create({ ...OWNER, passwordHash: await hasher.hash(OWNER.password), mobile: "+961 3 123-456", country: "LB", address: "Loopback" });
  const devices = await provisionDevices(db, Array.from({ length: maxMcus }, () => ({ mac: randomMac(), kind: "mcu" as const, type: null })));
  await db.transaction(async (tx) => {
    const farm = await farmsRepo(tx).create(client.client_id, "Bench farm", "Loopback");
    for (const [i, d] of devices.entries()) await mcusRepo(tx).create(client.client_id, { name: `Bench ${i}`, mac: d.mac, claim_code: d.claimCode!, farm_id: farm.farm_id }, new Date());
  });
  return devices.map((d) => ({ mac: d.mac, key: d.key }));
}

interface Setup {
  name: "embedded" | "cluster";
  nodes: ServerProcess[];
  mqttUrl: string;
  fleetFile: string;
  close(): Promise<void>;
}

const work = await mkdtemp(join(tmpdir(), "bench-gateway-"));
const nodeArgs = [...(values["profile-dir"] ? ["--cpu-prof", `--cpu-prof-dir=${values["profile-dir"]}`] : []), ...(values["node-args"]?.split(",") ?? [])];
const serverEnv = { DEMO: "0", SCRYPT_LOG2N: "10", LOG_LEVEL: "warn", STATIC_DIR: join(work, "no-app"), MAX_CONNECTIONS_PER_ADDRESS: "0" };

async function embedded(): Promise<Setup> {
  const dataDir = join(work, "data");
  const db = await openPglite(dataDir);
  const devices = await seed(db);
  await db.close();
  const fleetFile = join(work, "fleet-embedded.json");
  await writeFile(fleetFile, JSON.stringify(devices));
  const mqttPort = await freePort();
  // (Nothing of the cluster's environment: this node has its own database, broker and sockets.)
  const node = await startServer({ ...serverEnv, DATABASE_URL: "", REDIS_URL: "", MQTT_URL: "", DATA_DIR: dataDir, MQTT_PORT: String(mqttPort), MQTT_HOST: "127.0.0.1" }, { nodeArgs });
  return {
    name: "embedded",
    nodes: [node],
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    fleetFile,
    async close() {
      await node.stop();
    },
  };
}

async function cluster(): Promise<Setup | string> {
  const admin = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!admin || !redisUrl || !mosquittoAvailable()) return "needs DATABASE_URL, REDIS_URL and Mosquitto";
  const dbName = `bench_${process.pid}`;
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  await adminClient.query(`create database ${dbName}`);
  const url = new URL(admin);
  url.pathname = `/${dbName}`;
  const db = await openPostgres(url.href);
  const devices = await seed(db);
  await db.close();
  const fleetFile = join(work, "fleet-cluster.json");
  await writeFile(fleetFile, JSON.stringify(devices));
  const mosquitto: MosquittoProcess = await startMosquitto({ devices });
  const stream = `bench-${process.pid}:socket.io`;
  const env = {
    ...serverEnv,
    DATABASE_URL: url.href,
    MQTT_URL: mosquitto.url,
    MQTT_USERNAME: mosquitto.gateway.username,
    MQTT_PASSWORD: mosquitto.gateway.password,
    REDIS_URL: redisUrl,
    REDIS_SOCKET_STREAM: stream,
  };
  const nodes = [await startServer(env, { nodeArgs }), await startServer(env, { nodeArgs })];
  return {
    name: "cluster",
    nodes,
    mqttUrl: mosquitto.url,
    fleetFile,
    async close() {
      for (const n of nodes) await n.stop();
      await mosquitto.stop();
      await adminClient.query(`drop database if exists ${dbName} with (force)`);
      await adminClient.end();
      const redis = new Redis(redisUrl);
      await redis.del(stream);
      redis.disconnect();
    },
  };
}

// ---- one level ----

interface Simulator {
  child: ChildProcess;
  sent: number;
  connected: number;
  final: Promise<number>;
}

function startSimulator(setup: Setup, offset: number, mcus: number): Simulator {
  const child = spawn(process.execPath, ["--import", "tsx", "server/simulator/cli.ts", "--fleet", setup.fleetFile, "--offset", String(offset), "--mcus", String(mcus), "--hz", String(hz), "--url", setup.mqttUrl, "--qos", values.qos!, "--stats"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const sim = { child, sent: 0, connected: 0 } as Simulator;
  sim.final = new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const m = JSON.parse(line) as { sent: number; connected?: number; final?: boolean };
      sim.sent = m.sent;
      sim.connected = m.connected ?? sim.connected;
      if (m.final) resolve(m.sent);
    });
    child.once("exit", (code) => reject(new Error(`simulator exited with ${code} before its final count`)));
  });
  return sim;
}

async function metricsOf(node: ServerProcess): Promise<NodeMetrics> {
  const res = await fetch(`${node.url}/api/metrics`);
  if (!res.ok) throw new Error(`metrics of ${node.url}: ${res.status}`);
  return (await res.json()) as NodeMetrics;
}

export interface Row {
  setup: string;
  targetPerSec: number;
  mcus: number;
  hz: number;
  sentPerSec: number;
  ingestedPerSec: number;
  deliveredPerSec: number;
  /** Readings the socket received / readings the simulators sent, over the whole run. */
  deliveredPct: number;
  /** Readings the gateway(s) took / readings the simulators sent, over the whole run (what is missing here never reached a node). */
  ingestedPct: number;
  /** Per node (A, B): the process (every thread), */
  cpuUsPerMsg: number[];
  /** its main thread (the event loop: sockets, broker, gateway) alone, */
  mainThreadUsPerMsg: number[];
  loopP50Ms: number[];
  loopP99Ms: number[];
  rssMiB: number[];
  shedFrames: number[];
  /**
   * The same over the whole run (the fleet's connect and stop too): a level after the first brings
   * back online MCUs the level before took offline, and each one's "back online" notification
   * reaches the owner's socket before its readings, a burst that can leave the socket behind.
   */
  shedFramesRun: number[];
  apiP99Ms: number;
  /** The same requests as node A measured them (arrival to answer), p99. */
  apiServerP99Ms: number | null;
  apiErrors: number;
  /** Simulator processes' CPU, % of one core (all of them). */
  simulatorCpuPct: number;
  /** The simulators' CPU per message sent: one simulator process (one core at most) sends at most 1e6 / this a second. */
  simulatorUsPerMsg: number;
  /** The whole machine's CPU, % of all its cores. */
  machineBusyPct: number;
}

async function level(setup: Setup, rate: number, owner: { cookie: string }): Promise<Row> {
  const mcus = Math.round(rate / hz);
  const a = setup.nodes[0]!;

  // The owner's socket on node A, counting readings.
  const socket = io(a.url, { transports: ["websocket"], extraHeaders: { cookie: owner.cookie }, reconnection: false, forceNew: true });
  let readings = 0;
  socket.on("realtimeData", () => readings++);
  socket.on("realtimeBatch", (b: { data: unknown[] }) => (readings += b.data.length));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  const clientId = ((await (await fetch(`${a.url}/api/clients/me`, { headers: { cookie: owner.cookie } })).json()) as { client_id: number }).client_id;
  const authenticated = new Promise((r) => socket.once("authenticated", r));
  socket.emit("authenticateUser", clientId);
  await authenticated;

  const before = await Promise.all(setup.nodes.map(metricsOf));
  const ingestedBefore = before.reduce((n, m) => n + m.gateway.telemetry, 0);
  const count = Math.ceil(rate / PER_SIMULATOR);
  const sims: Simulator[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.floor((mcus * i) / count);
    sims.push(startSimulator(setup, from, Math.floor((mcus * (i + 1)) / count) - from));
  }
  const deadline = Date.now() + 300_000;
  while (sims.reduce((n, s) => n + s.connected, 0) < mcus) {
    if (Date.now() > deadline) throw new Error(`${setup.name} ${rate}/s: only ${sims.reduce((n, s) => n + s.connected, 0)} of ${mcus} devices connected`);
    await sleep(250);
  }
  await sleep(warmup * 1000);

  // The window.
  const poller = spawn(process.execPath, ["--import", "tsx", "bench/api-poller.ts", a.url, owner.cookie], { stdio: ["ignore", "pipe", "inherit"] });
  let pollerOut = "";
  poller.stdout!.on("data", (d: Buffer) => (pollerOut += d));
  const pollerDone = new Promise<{ latenciesMs: number[]; errors: number }>((resolve) => poller.once("exit", () => resolve(JSON.parse(pollerOut))));
  const m0 = await Promise.all(setup.nodes.map(metricsOf));
  const s0 = sims.reduce((n, s) => n + s.sent, 0);
  const r0 = readings;
  const c0 = await Promise.all(sims.map((s) => processCpuUs(s.child.pid!)));
  const main0 = await Promise.all(setup.nodes.map((n) => mainThreadCpuUs(n.child.pid!)));
  const k0 = await machineTicks();
  const started = performance.now();
  await sleep(seconds * 1000);
  const m1 = await Promise.all(setup.nodes.map(metricsOf));
  const secs = (performance.now() - started) / 1000;
  const s1 = sims.reduce((n, s) => n + s.sent, 0);
  const r1 = readings;
  const c1 = await Promise.all(sims.map((s) => processCpuUs(s.child.pid!)));
  const main1 = await Promise.all(setup.nodes.map((n) => mainThreadCpuUs(n.child.pid!)));
  const k1 = await machineTicks();
  poller.kill("SIGTERM");
  const { latenciesMs: latencies, errors: apiErrors } = await pollerDone;

  // Stop the fleet, let the last readings through, and compare the totals.
  for (const s of sims) s.child.kill("SIGTERM");
  const sent = (await Promise.all(sims.map((s) => s.final))).reduce((a, b) => a + b, 0);
  let last = -1;
  for (let i = 0; i < 40 && readings !== last; i++) {
    last = readings;
    await sleep(500);
  }
  socket.close();
  const after = await Promise.all(setup.nodes.map(metricsOf));
  const ingestedAll = after.reduce((n, m) => n + m.gateway.telemetry, 0) - ingestedBefore;

  await sleep(2000);

  latencies.sort((x, y) => x - y);
  const per = (f: (before: NodeMetrics, after: NodeMetrics, i: number) => number) => m1.map((after, i) => +f(m0[i]!, after, i).toFixed(1));
  const windows = m1.map((after, i) => metricsWindow(m0[i]!, after));
  const ingested = m1.reduce((n, m, i) => n + m.gateway.telemetry - m0[i]!.gateway.telemetry, 0);
  return {
    setup: setup.name,
    targetPerSec: rate,
    mcus,
    hz,
    sentPerSec: Math.round((s1 - s0) / secs),
    ingestedPerSec: Math.round(ingested / secs),
    deliveredPerSec: Math.round((r1 - r0) / secs),
    deliveredPct: +((100 * readings) / sent).toFixed(3),
    ingestedPct: +((100 * ingestedAll) / sent).toFixed(3),
    cpuUsPerMsg: per((b, x) => (x.cpuUs - b.cpuUs) / Math.max(1, x.gateway.telemetry - b.gateway.telemetry)),
    mainThreadUsPerMsg: per((b, x, i) => (main1[i]! - main0[i]!) / Math.max(1, x.gateway.telemetry - b.gateway.telemetry)),
    loopP50Ms: per((_, _x, i) => windows[i]!.loop.p50Ms),
    loopP99Ms: per((_, _x, i) => windows[i]!.loop.p99Ms),
    rssMiB: per((_, x) => x.rssBytes / 2 ** 20),
    shedFrames: per((b, x) => x.sockets.shedFrames - b.sockets.shedFrames),
    shedFramesRun: after.map((x, i) => x.sockets.shedFrames - before[i]!.sockets.shedFrames),
    apiP99Ms: +percentile(latencies, 99).toFixed(1),
    apiServerP99Ms: windows[0]!.http.p99Ms,
    apiErrors,
    simulatorCpuPct: +((100 * c1.reduce((n, c, i) => n + c - c0[i]!, 0)) / (secs * 1e6)).toFixed(0),
    simulatorUsPerMsg: +(c1.reduce((n, c, i) => n + c - c0[i]!, 0) / Math.max(1, s1 - s0)).toFixed(1),
    machineBusyPct: +((100 * (k1.busy - k0.busy)) / (k1.total - k0.total)).toFixed(0),
  };
}

// ---- the sweep ----

const rows: Row[] = [];
const skipped: Record<string, string> = {};
try {
  for (const name of setups) {
    const setup = name === "embedded" ? await embedded() : await cluster();
    if (typeof setup === "string") {
      skipped[name] = setup;
      console.log(`${name}: skipped (${setup})`);
      continue;
    }
    try {
      const login = await fetch(`${setup.nodes[0]!.url}/api/clients/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: OWNER.username, password: OWNER.password }) });
      if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
      const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      for (const rate of rates) {
        const row = await level(setup, rate, { cookie });
        rows.push(row);
        console.log(`${row.setup} ${row.targetPerSec}/s: sent ${row.sentPerSec}/s, ingested ${row.ingestedPct}%, delivered ${row.deliveredPct}% (frames shed ${row.shedFramesRun.join(" / ")}), CPU ${row.cpuUsPerMsg.join(" / ")} µs/msg, loop p99 ${row.loopP99Ms.join(" / ")} ms, API p99 ${row.apiP99Ms} ms, machine ${row.machineBusyPct}%`);
      }
    } finally {
      await setup.close();
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

const fmt = (xs: number[]) => xs.join(" / ");
console.table(
  rows.map((r) => ({
    setup: values.qos === "1" ? `${r.setup} (QoS 1)` : r.setup,
    "target/s": r.targetPerSec,
    MCUs: r.mcus,
    "sent/s": r.sentPerSec,
    "ingested/s": r.ingestedPerSec,
    "delivered/s": r.deliveredPerSec,
    "ingested %": r.ingestedPct,
    "delivered %": r.deliveredPct,
    "CPU µs/msg": fmt(r.cpuUsPerMsg),
    "main thread": fmt(r.mainThreadUsPerMsg),
    "loop p50 ms": fmt(r.loopP50Ms),
    "loop p99 ms": fmt(r.loopP99Ms),
    "API p99 ms": r.apiP99Ms,
    "server's p99": r.apiServerP99Ms,
    "RSS MiB": fmt(r.rssMiB.map(Math.round)),
    shed: fmt(r.shedFrames),
    "shed (run)": fmt(r.shedFramesRun),
    "sim CPU %": r.simulatorCpuPct,
    "sim µs/msg": r.simulatorUsPerMsg,
    "machine %": r.machineBusyPct,
  })),
);
for (const r of rows) {
  const limit = r.sentPerSec < 0.95 * r.targetPerSec ? "the simulators could not send the target rate" : r.machineBusyPct >= 90 ? "the machine's CPU is used up" : "";
  if (limit) console.log(`${r.setup} ${r.targetPerSec}/s: ${limit} (machine ${r.machineBusyPct}%, simulators ${r.simulatorCpuPct}% of a core)`);
}
// The simulator's own ceiling: what one process could send with a core to itself, from its CPU per message.
const simUs = rows.map((r) => r.simulatorUsPerMsg).filter((x) => x > 0);
if (simUs.length > 0) {
  const worst = Math.max(...simUs);
  console.log(`simulator: ${Math.min(...simUs)}-${worst} µs of CPU per message sent: one simulator process tops out near ${Math.round(1e6 / worst / 100) * 100} messages/s (the bench runs one per ${PER_SIMULATOR}); the machine's ${cpus().length} cores are shared by the simulators, the broker, Redis, PostgreSQL and the server nodes`);
}
await mkdir("bench/results", { recursive: true });
await writeFile(values.out!, JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: cpus().length, hz, qos: Number(values.qos), seconds, warmup, skipped, rows }, null, 2));
console.log(`wrote ${values.out}`);
process.exit(0);
