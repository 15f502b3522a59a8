import { Agent, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS } from "../../src/contract/api-paths.ts";
import { HISTORY_PATHS } from "../../src/contract/history.ts";
import { createPartitions, fillMinutes } from "../test-support/history-test-data.ts";
import type { PlainDatabase } from "../db/database.ts";
import { createTestServer, onPostgres, type TestClient, type TestServerOptions } from "../test-support/test-server.ts";

/**
 * One client's CSV exports against another client's everyday requests, through the real HTTP
 * server with the database in its own thread (as `npm start` runs it). The exports' database
 * work queues behind every other query and comes in chunks of a few milliseconds, so a query of
 * the other client's farm list shares the database with at most the one chunk already running,
 * not with every export's; and a node streams only so many exports at once, per client and in
 * all. (How long the farm list then takes is measured by `npm run bench:attacks`: a time measured
 * here would be the other test files' load as much as the exports'.)
 */

const NOW = Date.parse("2026-06-01T00:00:00Z");
const DAY = 86_400_000;
const FROM = NOW - 60 * DAY;

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  bytes: number;
  ms: number;
}

function get(base: string, path: string, cookie: string, o: { keepBody?: boolean } = {}): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(base + path, { agent, headers: { cookie } }, (res) => {
      let body = "";
      let bytes = 0;
      res.on("data", (d: Buffer) => {
        bytes += d.length;
        if (o.keepBody !== false) body += d;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, bytes, ms: performance.now() - t0 }));
      res.on("error", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, bytes, ms: performance.now() - t0 }));
    });
    req.on("error", reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

/** What the database runs, as it runs it: for each query of a farm list, how many export chunks ran beside it. */
function databaseWatch() {
  let chunksRunning = 0;
  const open = new Set<{ chunks: number }>();
  const beside: number[] = [];
  /** The most export chunks running at one moment. */
  const peak = { chunks: 0 };
  const belowLane = (db: PlainDatabase): PlainDatabase => ({
    ...db,
    async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
      const chunk = /string_agg\(concat_ws/.test(text);
      const farmList = !chunk && /from farms/.test(text);
      const mine = { chunks: chunksRunning };
      if (chunk) {
        chunksRunning++;
        peak.chunks = Math.max(peak.chunks, chunksRunning);
        for (const q of open) q.chunks++;
      }
      if (farmList) open.add(mine);
      try {
        return await db.query<T>(text, params);
      } finally {
        if (chunk) chunksRunning--;
        if (farmList) {
          open.delete(mine);
          beside.push(mine.chunks);
        }
      }
    },
  });
  return { belowLane, beside, peak };
}

async function setup(config: TestServerOptions["config"], watch?: ReturnType<typeof databaseWatch>) {
  const server = await createTestServer({ startAt: NOW, thread: true, belowLane: watch?.belowLane, config: { historyMinuteRetentionDays: 400, ...config } });
  const owner = await server.signUp();
  const farm = (await owner.post(API_PATHS.farms, { name: "Export Farm", location: "Byblos", client_id: owner.clientId })).json();
  const mcuId = (await owner.post(API_PATHS.mcus, { name: "Room E", ...(await owner.mcuDevice()), farm_id: farm.farm_id, status: "active" })).json().mcu_id as number;
  await createPartitions(server.db, FROM, NOW);
  await fillMinutes(server.db, mcuId, FROM, NOW);
  await server.app.listen({ host: "127.0.0.1", port: 0 });
  const base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  const exportPath = `${HISTORY_PATHS.mcuHistoryCsv(mcuId)}?from=${new Date(FROM).toISOString()}&to=${new Date(NOW).toISOString()}`;
  return { server, owner, base, exportPath };
}

describe("CSV exports beside other clients' requests", () => {
  let s: Awaited<ReturnType<typeof setup>>;
  let other: TestClient;
  const watch = databaseWatch();

  beforeAll(async () => {
    s = await setup({ exports: { perClient: 16, perNode: 16 } }, watch);
    other = await s.server.signUp();
    await other.post(API_PATHS.farms, { name: "Neighbour Farm", location: "Zahle", client_id: other.clientId });
  }, 120_000);
  afterAll(async () => {
    await s?.server.close();
  });

  /** The other client's farm list, asked every 10 ms for `ms` (or until `until` settles), one at a time. */
  async function poll(o: { count?: number; until?: Promise<unknown> }): Promise<number[]> {
    const times: number[] = [];
    let done = false;
    void o.until?.finally(() => (done = true));
    const deadline = Date.now() + 60_000;
    while (!done && Date.now() < deadline && (o.count === undefined || times.length < o.count)) {
      const a = await get(s.base, API_PATHS.farmsOfClient(other.clientId), other.cookie);
      expect(a.status).toBe(200);
      times.push(a.ms);
      await sleep(10);
    }
    return times;
  }

  it("runs another client's farm list beside at most the one export chunk already running, while 16 exports stream", async () => {
    await poll({ count: 40 }); // warm-up
    const quietBefore = await poll({ count: 100 });
    watch.beside.length = 0;

    let rows = 0;
    const exports = Promise.all(
      Array.from({ length: 16 }, async () => {
        const a = await get(s.base, s.exportPath, s.owner.cookie, { keepBody: false });
        expect(a.status).toBe(200);
        rows += a.bytes;
        return a;
      }),
    );
    const loaded = await poll({ until: exports });
    const beside = [...watch.beside];
    const answers = await exports;
    const lane = s.server.db.backgroundStats();

    console.log(
      `farm list p50 ${pct(quietBefore, 0.5).toFixed(2)} ms quiet, ${pct(loaded, 0.5).toFixed(2)} ms during 16 exports (${loaded.length} requests); ` +
        `export chunks beside each of its queries: p50 ${pct(beside, 0.5)}, p90 ${pct(beside, 0.9)}, max ${Math.max(...beside)}; ` +
        `exports ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms, ${(rows / 2 ** 20).toFixed(0)} MB; lane ${lane.ran} chunks (${lane.forced} forced)`,
    );
    // Every export finished, in full: 60 days of minutes each.
    for (const a of answers) expect(a.bytes).toBe(answers[0]!.bytes);
    expect(beside.length).toBeGreaterThanOrEqual(30);
    // The 16 exports' chunks run one at a time whatever the database (measured without the lane:
    // 32 at once beside each farm-list query, which then took 222 ms against 2.7 quiet).
    expect(watch.peak.chunks).toBe(1);
    if (!onPostgres) {
      // PGlite runs one query at a time: a chunk also waits for the other client's query, which
      // so shares the database with at most the one chunk running when it came; a second only
      // when the lane had to force one through after 250 ms of others' queries. (PostgreSQL runs
      // them side by side: there a chunk does not wait, and a long farm-list query may see
      // several short chunks pass, one after another.)
      expect(pct(beside, 0.9)).toBeLessThanOrEqual(1);
      expect(Math.max(...beside)).toBeLessThanOrEqual(2);
    }
  }, 120_000);
});

describe("export limits", () => {
  let s: Awaited<ReturnType<typeof setup>>;

  beforeAll(async () => {
    s = await setup({ exports: { perClient: 2, perNode: 3 } });
  }, 120_000);
  afterAll(async () => {
    await s?.server.close();
  });

  /** An export that stays open until the returned release is called: the client reads none of it, so the server's stream waits on a full socket. */
  function held(client: TestClient, path = s.exportPath): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const req = request(s.base + path, { agent: false, headers: { cookie: client.cookie } }, (res) => {
        res.pause();
        resolve(() => req.destroy());
      });
      req.on("error", (err) => (req.destroyed ? undefined : reject(err)));
      req.end();
    });
  }

  it("refuses a client's third export at once with 429 and Retry-After, and takes it again once one has ended", async () => {
    const first = await held(s.owner);
    const second = await held(s.owner);
    const third = await get(s.base, s.exportPath, s.owner.cookie);
    expect(third.status).toBe(429);
    expect(third.headers["retry-after"]).toBe("10");
    expect(JSON.parse(third.body)).toEqual({ code: "RATE_LIMITED", message: "You already have 2 exports running. Try again in 10 seconds.", reason: "exports_running", params: { count: 2, retry_seconds: 10 } });

    first();
    // The slot comes back when the response closes (the client went away).
    let again: Answer | undefined;
    for (let i = 0; i < 50 && again?.status !== 200; i++) {
      await sleep(20);
      again = await get(s.base, s.exportPath, s.owner.cookie, { keepBody: false });
    }
    expect(again?.status).toBe(200);
    second();
  }, 60_000);

  it("refuses an export when the node streams as many as it may, whoever asks", async () => {
    const others = [await s.server.signUp()];
    // The owner holds two of the node's three slots, another client the third with its own MCU's export.
    const releases = [await held(s.owner), await held(s.owner)];
    const farm = (await others[0]!.post(API_PATHS.farms, { name: "F", location: "L", client_id: others[0]!.clientId })).json();
    const mcuId = (await others[0]!.post(API_PATHS.mcus, { name: "R", ...(await others[0]!.mcuDevice()), farm_id: farm.farm_id, status: "active" })).json().mcu_id as number;
    await fillMinutes(s.server.db, mcuId, FROM, NOW);
    const path = `${HISTORY_PATHS.mcuHistoryCsv(mcuId)}?from=${new Date(FROM).toISOString()}&to=${new Date(NOW).toISOString()}`;
    const abort = await held(others[0]!, path);
    const refused = await get(s.base, path, others[0]!.cookie);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).message).toBe("The server is busy with other exports. Try again in 10 seconds.");
    abort();
    for (const r of releases) r();
  }, 60_000);
});
