/**
 * Reading history, read side: the history API's answer times on a month of minute
 * rollups. It generates 30 days of minute rollups (one row per MCU and minute, the metrics as
 * columns, plausible values) and their hourly rollups for 200 MCUs into PGlite (in a temp folder,
 * in its thread, as `npm start` runs it) and, when DATABASE_URL is set, for 2 000 MCUs into
 * PostgreSQL (a database of its own, dropped after unless --keep). One more MCU gets a whole year
 * of minutes, for the CSV export. Then, through the real HTTP routes (the app of `buildApp` with a
 * signed-in session), it times:
 *
 *   - one MCU, 24 h and 30 d, every metric (resolution chosen by the server: 60 s, 1800 s);
 *   - a farm of 50 MCUs on one metric, 24 h and 7 d (60 s, 600 s);
 *   - CSV exports over a real socket: 30 days and a year of one MCU at 60 s, with the process's
 *     RSS sampled every 20 ms (the database thread included) against its RSS before.
 *
 * Each query runs --runs times after two warm-up runs, each time on another MCU or farm (median
 * and p95). The app keeps minute rollups 400 days here, so that the year is exported at 60 s
 * (with the default 30 days, a year is answered from hourly rollups).
 *
 *   npm run bench:history -- [--mcus 200] [--pg-mcus 2000] [--days 30] [--farm 50] [--runs 15] [--keep]
 *
 * Prints a table and writes bench/results/history.json.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { buildApp } from "../server/app.ts";
import { createPasswordHasher } from "../server/auth/password.ts";
import { openPostgres, type Database } from "../server/db/database.ts";
import { openPgliteThread } from "../server/db/pglite-thread.ts";
import { migrate } from "../server/db/migrate.ts";
import { createPartitions, partitionsBetween } from "../server/history/partitions.ts";
import { recomputeHours } from "../server/history/rollups-repo.ts";
import { DEFAULT_SESSION } from "../server/http/session.ts";
import { cookieOf, registration } from "../server/test-support/test-server.ts";
import { HISTORY_METRICS, HISTORY_PATHS } from "../src/contract/history.ts";

const { values } = parseArgs({
  options: {
    mcus: { type: "string", default: "200" },
    "pg-mcus": { type: "string", default: "2000" },
    days: { type: "string", default: "30" },
    farm: { type: "string", default: "50" },
    runs: { type: "string", default: "15" },
    "csv-runs": { type: "string", default: "3" },
    /** Keep the PGlite folder and the PostgreSQL database (and reuse them when the sizes match). */
    keep: { type: "boolean", default: false },
    "pglite-dir": { type: "string" },
    out: { type: "string", default: "bench/results/history.json" },
  },
});
const days = Number(values.days);
const farmSize = Number(values.farm);
const runs = Number(values.runs);
const csvRuns = Number(values["csv-runs"]);

const DAY = 86_400_000;
/** The app's clock: the data ends here. */
const NOW = Date.parse("2026-06-01T00:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();
const MiB = 2 ** 20;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const median = (xs: number[]) => pct(xs, 50);

interface Seeded {
  cookie: string;
  mcuIds: number[];
  farmIds: number[];
  yearMcuId: number;
}

interface Result {
  query: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
  maxMs: number;
  /** Points per series (JSON) or data lines (CSV). */
  size: number;
  bytes: number;
  rssBeforeMiB?: number;
  rssPeakMiB?: number;
}

/** Plausible minute rollups for a batch of MCUs: daily cycles with a phase per MCU, noise, 12 samples a minute. */
function fillMinutesSql(): string {
  const wave = (base: number, amp: number, noise: number) =>
    `(${base} + ${amp} * sin(extract(epoch from g) / 86400.0 * 2 * pi() + m.id * 0.37) + ${noise} * (random() - 0.5))`;
  const metric = (base: number, amp: number, noise: number, spread: number) => {
    const v = wave(base, amp, noise);
    return `${v}::real - ${spread}, ${v}::real, ${v}::real + ${spread}, 12`;
  };
  return `insert into reading_minutes (mcu_id, bucket, ${HISTORY_METRICS.map((m) => `${m}_min, ${m}_avg, ${m}_max, ${m}_n`).join(", ")})
    select m.id, g, ${[metric(18, 2, 0.4, 0.3), metric(88, 5, 2, 1.5), metric(16, 1, 0.2, 0.1), metric(950, 250, 60, 40), metric(45, 8, 2, 0.5), metric(80, 10, 1, 0.2)].join(", ")}
    from unnest($1::int[]) as m(id) cross join generate_series($2::timestamptz, $3::timestamptz - interval '1 minute', interval '1 minute') g`;
}

async function fill(db: Database, ids: number[], fromMs: number, toMs: number, label: string): Promise<void> {
  const batch = Math.max(1, Math.floor(200_000 / ((toMs - fromMs) / 60_000)));
  const t0 = performance.now();
  for (let i = 0; i < ids.length; i += batch) {
    const part = ids.slice(i, i + batch);
    await db.query(fillMinutesSql(), [part, iso(fromMs), iso(toMs)]);
    // The hourly rollups, as the history writer builds them.
    for (let h = fromMs; h < toMs; h += 7 * DAY) await recomputeHours(db, part, h, Math.min(h + 7 * DAY, toMs));
    const done = Math.min(ids.length, i + batch);
    process.stdout.write(`\r  ${label}: ${done}/${ids.length} MCUs, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  process.stdout.write("\n");
}

/** A client with farms of `farmSize` MCUs, 30 days of rollups for each, and one MCU with a year. */
async function seed(db: Database, app: Awaited<ReturnType<typeof buildApp>>, mcuCount: number): Promise<Seeded> {
  const reg = registration();
  const created = await app.inject({ method: "POST", url: "/api/clients", payload: reg });
  if (created.statusCode !== 201) throw new Error(`register: ${created.body}`);
  const login = await app.inject({ method: "POST", url: "/api/clients/login", payload: { username: reg.username, password: reg.password } });
  const cookie = cookieOf(login);
  const clientId = login.json().client.client_id as number;

  const farmCount = Math.ceil(mcuCount / farmSize) + 1;
  const farms = await db.query<{ farm_id: number }>(
    "insert into farms (client_id, name, location) select $1, 'Farm ' || i, 'Bench' from generate_series(1, $2::int) i returning farm_id",
    [clientId, farmCount],
  );
  const farmIds = farms.map((f) => f.farm_id);
  const macs = Array.from({ length: mcuCount + 1 }, (_, i) => `02:00:${[(i >> 24) & 255, (i >> 16) & 255, (i >> 8) & 255, i & 255].map((b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":")}`);
  await db.query("insert into device_inventory (mac, kind, claimed_by, claimed_at) select mac, 'mcu', $2, now() from unnest($1::text[]) mac", [macs, clientId]);
  // The last MCU, alone on the last farm, holds the year.
  const mcus = await db.query<{ mcu_id: number }>(
    `insert into mcus (client_id, farm_id, name, mac)
     select $1, ($2::int[])[case when i = $4 then array_length($2::int[], 1) else i / $5 + 1 end], 'Room ' || i, ($3::text[])[i + 1]
     from generate_series(0, $4::int) i order by i returning mcu_id`,
    [clientId, farmIds, macs, mcuCount, farmSize],
  );
  const mcuIds = mcus.slice(0, mcuCount).map((m) => m.mcu_id);
  const yearMcuId = mcus[mcuCount]!.mcu_id;

  const from = NOW - days * DAY;
  const yearFrom = NOW - 365 * DAY;
  await createPartitions(db, [
    ...partitionsBetween("reading_minutes", yearFrom, NOW - 1),
    ...partitionsBetween("reading_hours", yearFrom, NOW - 1),
    ...partitionsBetween("device_state_events", yearFrom, NOW - 1),
  ]);
  await fill(db, mcuIds, from, NOW, `${days} days of minutes`);
  await fill(db, [yearMcuId], yearFrom, NOW, "a year of minutes");
  await db.query("create table bench_meta (cookie text, mcu_ids int[], farm_ids int[], year_mcu_id int, mcus int, days int)");
  await db.query("insert into bench_meta values ($1, $2, $3, $4, $5, $6)", [cookie, mcuIds, farmIds.slice(0, -1), yearMcuId, mcuCount, days]);
  return { cookie, mcuIds, farmIds: farmIds.slice(0, -1), yearMcuId };
}

/** What a kept database was seeded with, if it matches this run's sizes. */
async function seededBefore(db: Database, mcuCount: number): Promise<Seeded | undefined> {
  const [meta] = await db.query<{ cookie: string; mcu_ids: number[]; farm_ids: number[]; year_mcu_id: number; mcus: number; days: number }>("select * from bench_meta").catch(() => []);
  if (!meta || meta.mcus !== mcuCount || meta.days !== days) return undefined;
  return { cookie: meta.cookie, mcuIds: meta.mcu_ids, farmIds: meta.farm_ids, yearMcuId: meta.year_mcu_id };
}

/** `n` runs of `once` after two warm-up runs, each given a run number. */
async function timed(query: string, n: number, once: (run: number) => Promise<{ size: number; bytes: number }>): Promise<Result> {
  for (let w = 0; w < 2; w++) await once(1000 + w);
  const ms: number[] = [];
  let last = { size: 0, bytes: 0 };
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    last = await once(i);
    ms.push(performance.now() - t0);
  }
  return { query, runs: n, medianMs: median(ms), p95Ms: pct(ms, 95), minMs: Math.min(...ms), maxMs: Math.max(...ms), size: last.size, bytes: last.bytes };
}

/** A CSV export over a socket: its bytes and lines, and the process's RSS sampled while it runs. */
function download(url: string, cookie: string): Promise<{ bytes: number; lines: number; rssPeak: number }> {
  return new Promise((resolve, reject) => {
    let rssPeak = process.memoryUsage().rss;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
    const req = request(url, { headers: { cookie } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
      let bytes = 0;
      let lines = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on("end", () => {
        clearInterval(sampler);
        resolve({ bytes, lines: lines - 1, rssPeak: Math.max(rssPeak, process.memoryUsage().rss) });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

async function measure(backend: string, db: Database, mcuCount: number): Promise<Record<string, unknown>> {
  const app = await buildApp({
    db,
    hasher: createPasswordHasher({ log2N: 10 }),
    now: () => new Date(NOW),
    config: { allowedOrigins: [], session: { ...DEFAULT_SESSION, idleMs: 365 * DAY, absoluteMs: 365 * DAY }, historyMinuteRetentionDays: 400 },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const t0 = performance.now();
  const seeded = (await seededBefore(db, mcuCount)) ?? (await seed(db, app, mcuCount));
  const seedSeconds = (performance.now() - t0) / 1000;
  if (db.kind === "postgres") await db.query("analyze");
  const [counts] = await db.query<{ minutes: string; hours: string }>(
    "select (select count(*) from reading_minutes)::text as minutes, (select count(*) from reading_hours)::text as hours",
  );
  const { minutes, hours } = counts!;
  console.log(`${backend}: ${mcuCount} MCUs, ${Number(minutes).toLocaleString("en-US")} minute rows, ${Number(hours).toLocaleString("en-US")} hourly rows (seeded in ${seedSeconds.toFixed(0)} s)`);

  const { cookie, mcuIds, farmIds, yearMcuId } = seeded;
  // The machine's load while measuring: on a shared machine, other work inflates every figure.
  const loadBefore = loadavg()[0]!;
  const pick = <T>(xs: T[], run: number) => xs[(run * 7919) % xs.length]!;
  async function getJson(url: string) {
    const res = await app.inject({ method: "GET", url, headers: { cookie } });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return { body: res.json(), bytes: res.rawPayload.length };
  }
  const range = (spanMs: number) => `from=${iso(NOW - spanMs)}&to=${iso(NOW)}`;
  const results: Result[] = [];
  for (const [label, span] of [
    ["MCU 24 h, every metric", DAY],
    ["MCU 30 d, every metric", 30 * DAY],
  ] as const) {
    results.push(
      await timed(label, runs, async (run) => {
        const { body, bytes } = await getJson(`${HISTORY_PATHS.mcuHistory(pick(mcuIds, run))}?${range(span)}`);
        return { size: body.t.length, bytes };
      }),
    );
  }
  for (const [label, span] of [
    [`farm of ${farmSize} MCUs 24 h, temperature`, DAY],
    [`farm of ${farmSize} MCUs 7 d, temperature`, 7 * DAY],
  ] as const) {
    results.push(
      await timed(label, runs, async (run) => {
        const { body, bytes } = await getJson(`${HISTORY_PATHS.farmHistory(pick(farmIds, run))}?metric=temperature&${range(span)}`);
        if (body.mcus.length !== Math.min(farmSize, mcuCount)) throw new Error(`farm of ${body.mcus.length} MCUs`);
        return { size: body.t.length, bytes };
      }),
    );
  }
  for (const [label, span, mcu] of [
    [`CSV ${days} d of 1 MCU at 60 s`, days * DAY, (run: number) => pick(mcuIds, run)],
    ["CSV 1 year of 1 MCU at 60 s", 365 * DAY, () => yearMcuId],
  ] as const) {
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const r = await timed(label, csvRuns, async (run) => {
      const got = await download(`${base}${HISTORY_PATHS.mcuHistoryCsv(mcu(run))}?${range(span)}`, cookie);
      rssPeak = Math.max(rssPeak, got.rssPeak);
      if (got.lines !== span / 60_000) throw new Error(`${label}: ${got.lines} lines`);
      return { size: got.lines, bytes: got.bytes };
    });
    results.push({ ...r, rssBeforeMiB: rssBefore / MiB, rssPeakMiB: rssPeak / MiB });
  }
  await app.close();
  const load = [loadBefore, loadavg()[0]!].map((x) => Number(x.toFixed(2)));
  console.log(`${backend}: load average ${load.join(" -> ")} on ${cpus().length} CPUs while measuring`);
  return { backend, mcus: mcuCount, days, minuteRows: Number(minutes), hourRows: Number(hours), seedSeconds, loadAverage: load, results };
}

const backends: Record<string, unknown>[] = [];

// ---- PGlite, in its thread, in a folder ----
{
  const dir = values["pglite-dir"] ?? (await mkdtemp(join(tmpdir(), "mf-history-bench-")));
  const db = await openPgliteThread(dir);
  try {
    await migrate(db);
    backends.push(await measure("PGlite", db, Number(values.mcus)));
  } finally {
    await db.close();
    if (!values.keep && !values["pglite-dir"]) await rm(dir, { recursive: true, force: true });
  }
}

// ---- PostgreSQL ----
const adminUrl = process.env.DATABASE_URL;
if (adminUrl) {
  const dbName = "mf_history_bench";
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const exists = (await admin.query("select 1 from pg_database where datname = $1", [dbName])).rowCount! > 0;
  if (!exists) await admin.query(`create database ${dbName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const db = await openPostgres(url.toString(), { max: 4 });
  try {
    await migrate(db);
    backends.push(await measure("PostgreSQL", db, Number(values["pg-mcus"])));
  } finally {
    await db.close();
    if (!values.keep) await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

const table = backends.flatMap((b) =>
  (b.results as Result[]).map((r) => ({
    backend: `${b.backend} (${b.mcus} MCUs)`,
    query: r.query,
    "median ms": r.medianMs.toFixed(1),
    "p95 ms": r.p95Ms.toFixed(1),
    "min ms": r.minMs.toFixed(1),
    "points / lines": r.size,
    "MB sent": (r.bytes / 1e6).toFixed(2),
    "RSS before → peak MiB": r.rssPeakMiB === undefined ? "" : `${r.rssBeforeMiB!.toFixed(0)} → ${r.rssPeakMiB.toFixed(0)}`,
  })),
);
console.table(table);
await mkdir("bench/results", { recursive: true });
await writeFile(values.out!, JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: cpus().length, now: iso(NOW), backends }, null, 2));
console.log(`wrote ${values.out}`);
process.exit(0);
