/**
 * The live dashboard's main-thread cost in a real browser, ours against a naive main-thread client
 * (bench/naive/), in the same run. Headless Debian Chromium driven by Playwright; the real server
 * in this process serves both clients from one origin.
 *
 *   npm run bench:browser -- [--levels 25,100,500,2000,5000] [--seconds 60] [--warmup 10] [--runs 2]
 *                            [--hz 5] [--probes 4] [--viewport 3840x2160] [--sim-level 500]
 *                            [--clients ours,naive] [--static-dir DIR] [--no-mcu-page]
 *                            [--page dashboard|wall] [--wall-rotate 0] [--languages en,ar]
 *
 * --page wall measures our wall view (/wall) instead of our dashboard, beside the same
 * naive dashboard (every card mounted) at the same viewport; the probes then lead the wall's first
 * page (fleet-seed.ts probesFirstOnWall). --wall-rotate N turns its pages every N s (0: they stay,
 * and the probes stay on screen).
 *
 * Feeds: "replay" (every level): readings generated here and handed straight to the realtime layer
 * on one timer, so the page's cost is measured apart from MQTT ingest. "simulator" (one level,
 * --sim-level, 0 to skip): the simulated fleet (`npm run simulate`, its own process) over real
 * MQTT, with the probes as MQTT devices in this process.
 *
 * Per level, client and run (order alternating): a fresh browser context signed in as the level's
 * client, the dashboard loaded (time to the first card and until every card in the viewport shows
 * its values), a warm-up, then one window: main-thread busy ms/s (CDP Performance TaskDuration),
 * long tasks, rAF fps and % of frames over 33 ms, probe event-to-paint p50/p95, JS heap after a
 * forced GC at both ends, DOM elements. For our app also /mcu: time to the first card and fps of a
 * scripted scroll. Prints a table and a summary (ours/naive), writes bench/results/browser-<date>.json.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright";
import { createPasswordHasher } from "../../server/auth/password.ts";
import { openPglite } from "../../server/db/database.ts";
import { migrate } from "../../server/db/migrate.ts";
import { DEFAULT_SESSION } from "../../server/http/session.ts";
import { startSystem } from "../../server/system.ts";
import { buildStatic } from "./builds.ts";
import { probesFirstOnWall, seedFleet, signIn, storeLatestReadings, type SeededFleet } from "./fleet-seed.ts";
import { measureClient, type ClientKind, type PageRun } from "./measure.ts";
import { startMqttProbes } from "./mqtt-probes.ts";
import { startReplayFeed } from "./replay-feed.ts";
import { checkGoals, checkWallGoals, printRows, printSummary, summarize, type Row } from "./report.ts";

const { values } = parseArgs({
  options: {
    levels: { type: "string", default: "25,100,500,2000,5000" },
    seconds: { type: "string", default: "60" },
    warmup: { type: "string", default: "10" },
    runs: { type: "string", default: "2" },
    hz: { type: "string", default: "5" },
    probes: { type: "string", default: "4" },
    viewport: { type: "string", default: "3840x2160" },
    "sim-level": { type: "string", default: "500" },
    clients: { type: "string", default: "ours,naive" },
    "static-dir": { type: "string" },
    "no-mcu-page": { type: "boolean", default: false },
    page: { type: "string", default: "dashboard" },
    "wall-rotate": { type: "string", default: "0" },
    languages: { type: "string", default: "en" },
    out: { type: "string" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}
const positive = (name: string, raw: string | undefined) => {
  const n = Number(raw);
  if (!(n > 0)) fail(`--${name} must be a positive number (was "${raw}")`);
  return n;
};
const levels = values.levels!.split(",").map((s) => positive("levels", s));
const seconds = positive("seconds", values.seconds);
const warmupSec = Number(values.warmup);
if (!(warmupSec >= 0)) fail(`--warmup must be 0 or more seconds (was "${values.warmup}")`);
const runs = positive("runs", values.runs);
const hz = positive("hz", values.hz);
const probes = positive("probes", values.probes);
const simLevel = Number(values["sim-level"]);
const clients = values.clients!.split(",") as ClientKind[];
/** Our app is measured in each of these languages (the first screen's texts are one more download), the naive client in English. */
const languages = values.languages!.split(",");
if (languages.some((l) => !["en", "fr", "ar"].includes(l))) fail("--languages is a list of en, fr and ar");
if (clients.some((c) => c !== "ours" && c !== "naive")) fail("--clients is a list of ours and naive");
const [vw, vh] = values.viewport!.split("x").map(Number);
if (!(vw! > 0 && vh! > 0)) fail("--viewport must be WIDTHxHEIGHT, e.g. 3840x2160");
const viewport = { width: vw!, height: vh! };
if (levels.some((n) => n < probes)) fail(`every level needs at least --probes (${probes}) MCUs`);
const page = values.page as "dashboard" | "wall";
if (page !== "dashboard" && page !== "wall") fail("--page is dashboard or wall");
const wallRotate = Number(values["wall-rotate"]);
if (!(Number.isInteger(wallRotate) && (wallRotate === 0 || (wallRotate >= 5 && wallRotate <= 3600)))) fail("--wall-rotate is 0 or whole seconds from 5 to 3600");

const log = (m: string) => console.error(m);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const REPO = resolve(import.meta.dirname, "../..");

const work = await mkdtemp(join(tmpdir(), "bench-browser-"));
const staticDir = values["static-dir"] ? resolve(values["static-dir"]) : join(work, "static");
await buildStatic(staticDir, log);

const db = await openPglite();
await migrate(db);
const system = await startSystem({
  db,
  hasher: createPasswordHasher({ log2N: 10 }),
  http: { host: "127.0.0.1", port: 0, allowedOrigins: [], session: DEFAULT_SESSION, staticDir },
  mqtt: { mode: "embedded", host: "127.0.0.1", port: 0 },
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
log(`server ${system.url}, Chromium ${browser.version()}, viewport ${viewport.width}x${viewport.height}, our page ${page === "wall" ? `/wall (pages turning every ${wallRotate || "-"} s)` : "/dashboard"}`);

const rows: Row[] = [];
/** The simulator process, killed on the way out whatever happens. */
let simulator: ChildProcess | undefined;

async function measureLevel(fleet: SeededFleet, level: number, levelIndex: number, feed: "replay" | "simulator", beforeEach: () => Promise<void>, feedSent: () => number) {
  for (let run = 1; run <= runs; run++) {
    const order = (run + levelIndex) % 2 === 1 ? clients : [...clients].reverse();
    for (const [kind, language] of order.flatMap((k) => (k === "ours" ? languages : ["en"]).map((l) => [k, l] as const))) {
      await beforeEach();
      const { sid, client } = await signIn(system.app, fleet);
      const sent0 = feedSent();
      const t0 = Date.now();
      const wall = page === "wall" && kind === "ours";
      log(`${level} MCUs, ${feed}, ${kind}${wall ? " (wall)" : ""}${language === "en" ? "" : ` in ${language}`}, run ${run}/${runs} …`);
      // The server shares this process: its event-loop delay is part of every reading's latency.
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      let result: PageRun;
      try {
        result = await measureClient({
          browser,
          origin: system.url,
          kind,
          sid,
          client,
          // The wall mounts one screen of tiles: it has loaded once every tile on it shows its values.
          expectedCards: wall ? 1 : level,
          probeNames: fleet.probeNames,
          viewport,
          path: wall ? `/wall?rotate=${wallRotate}` : "/dashboard",
          warmupSec,
          seconds,
          mcuPage: kind === "ours" && page === "dashboard" && !values["no-mcu-page"],
          language: kind === "ours" ? language : undefined,
          log,
        });
      } catch (err) {
        log(`  failed: ${(err as Error).message}`);
        continue;
      } finally {
        loop.disable();
      }
      log(`  server (this process) event-loop delay p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(0)} ms`);
      const row: Row = {
        page,
        mcus: level,
        feed,
        client: kind,
        language,
        run,
        feedReadingsPerSec: Math.round((feedSent() - sent0) / ((Date.now() - t0) / 1000)),
        ...result,
      };
      rows.push(row);
      printRows([row], rows.length === 1);
    }
  }
}

let failure: string | undefined;
try {
  for (const [levelIndex, level] of levels.entries()) {
    log(`seeding ${level} MCUs …`);
    const fleet = await seedFleet(system.app, db, level, probes, String(level));
    if (page === "wall") await probesFirstOnWall(db, fleet);
    const macs = fleet.mcus.map((m) => m.mac);
    const probeMacs = new Set(fleet.mcus.slice(0, probes).map((m) => m.mac));

    const replay = startReplayFeed({ macs, probeMacs, hz, send: (mac, reading) => system.realtime.reading(fleet.clientId, mac, reading) });
    await sleep(2000);
    await measureLevel(fleet, level, levelIndex, "replay", () => storeLatestReadings(db, replay.latest, new Date()), replay.sent);
    replay.stop();

    if (level === simLevel) {
      const fleetFile = join(work, `fleet-${level}.json`);
      const simulated = fleet.mcus.slice(probes);
      await writeFile(fleetFile, JSON.stringify(simulated.map((m) => ({ mac: m.mac, key: m.key }))));
      log(`starting the simulator: ${simulated.length} MCUs at ${hz} Hz over MQTT, ${probes} MQTT probes …`);
      const child: ChildProcess = (simulator = spawn(
        process.execPath,
        ["--import", "tsx", "server/simulator/cli.ts", "--fleet", fleetFile, "--hz", String(hz), "--url", system.mqttUrl],
        { cwd: REPO, stdio: ["ignore", "ignore", "inherit"] },
      ));
      const mqttProbes = await startMqttProbes(system.mqttUrl, fleet.mcus.slice(0, probes), hz);
      const deadline = Date.now() + 180_000;
      while (system.broker!.connectedDevices() < level) {
        if (Date.now() > deadline) throw new Error(`only ${system.broker!.connectedDevices()} of ${level} devices connected`);
        await sleep(250);
      }
      await sleep(3000);
      const sent = () => system.gateway.stats().telemetry;
      await measureLevel(fleet, level, levelIndex, "simulator", async () => system.readings.flush(), sent);
      await mqttProbes.stop();
      await new Promise<void>((done) => {
        child.once("exit", () => done());
        child.kill("SIGTERM");
      });
      simulator = undefined;
    }
  }
} catch (err) {
  failure = (err as Error).stack ?? String(err);
  log(`bench stopped: ${failure}`);
} finally {
  if (simulator && simulator.exitCode === null) simulator.kill("SIGTERM");
  await browser.close();
  await system.close();
  await db.close();
  await rm(work, { recursive: true, force: true });
}

const summary = summarize(rows);
printSummary(summary);
const goals = page === "wall" ? checkWallGoals(rows, summary) : checkGoals(rows, summary);
console.log(page === "wall" ? "\nGoals of the wall view (ours):" : "\nGoals of the dashboard (ours):");
for (const g of goals) console.log(`  ${g.status === "met" ? "met    " : g.status === "not met" ? "NOT met" : "n/a    "}  ${g.goal}${g.detail ? `: ${g.detail}` : ""}`);

const stamp = new Date().toISOString().replace(/:/g, "-").replace(/\..*/, "");
const out = values.out ?? join(REPO, "bench/results", `browser-${page === "wall" ? "wall-" : ""}${stamp}.json`);
await mkdir(join(out, ".."), { recursive: true });
await writeFile(
  out,
  JSON.stringify(
    {
      at: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      options: { page, wallRotate, levels, seconds, warmupSec, runs, hz, probes, viewport, simLevel, clients, mcuPage: page === "dashboard" && !values["no-mcu-page"] },
      rows,
      summary,
      goals,
      ...(failure ? { failure } : {}),
    },
    null,
    2,
  ),
);
console.log(`\nwrote ${out}`);
process.exit(failure ? 1 : 0);
