import { request, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HISTORY_PATHS } from "../../src/contract/history.ts";
import { SERIES_CHUNK_BUCKETS } from "../history/history-repo.ts";
import { createPartitions, fillMinutes } from "../test-support/history-test-data.ts";
import { createTestServer, type TestClient, type TestServer } from "../test-support/test-server.ts";

/**
 * A year of minute rollups for one MCU (525 600 rows, ~80 MB of CSV) exported through the real
 * HTTP server over a socket: the export must hold memory flat (it is read from the database in
 * chunks and written as the client reads), stop querying while the client does not read, and
 * stop for good when the client goes away.
 *
 * "Flat" is measured as what stays alive: the garbage collector runs at each sample, so the heap
 * it leaves is what the export holds, and that must stay far below the size of the CSV sent so
 * far (building the file, or the rows, in memory would hold several times that).
 */

const NOW = Date.parse("2026-06-01T00:00:00Z");
const DAY = 86_400_000;
const FROM = NOW - 365 * DAY;
const ROWS = 365 * 1440;
const MB = 1024 * 1024;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let server: TestServer;
let a: TestClient;
let mcuId: number;
let base: string;
let seriesQueries = 0;

beforeAll(async () => {
  // Minute rollups kept for 400 days: a year is read at 60 s from the minute table.
  server = await createTestServer({ startAt: NOW, config: { historyMinuteRetentionDays: 400 } });
  a = await server.signUp();
  const farm = (await a.post("/api/farms", { name: "Year Farm", location: "Byblos", client_id: a.clientId })).json();
  mcuId = (await a.post("/api/mcus", { name: "Room Y", ...(await a.mcuDevice()), farm_id: farm.farm_id, status: "active" })).json().mcu_id;
  await createPartitions(server.db, FROM, NOW);
  await fillMinutes(server.db, mcuId, FROM, NOW);
  // Exports read through the database's background lane.
  const bulk = server.db.background;
  const query = bulk.query.bind(bulk);
  bulk.query = ((text: string, params?: readonly unknown[]) => {
    if (/from reading_minutes/.test(text)) seriesQueries++;
    return query(text, params);
  }) as typeof query;
  await server.app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
}, 300_000);
afterAll(() => server?.close());

const url = () => `${base}${HISTORY_PATHS.mcuHistoryCsv(mcuId)}?from=${new Date(FROM).toISOString()}&to=${new Date(NOW).toISOString()}`;

function open(): Promise<{ res: IncomingMessage; abort(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(url(), { headers: { cookie: a.cookie } }, (res) => resolve({ res, abort: () => req.destroy() }));
    req.on("error", reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("CSV export of a year of minute rollups", () => {
  it("streams every row with memory held flat, and stops querying while the client does not read", async () => {
    const chunkQueries = Math.ceil(ROWS / SERIES_CHUNK_BUCKETS);
    gc();
    const baseline = process.memoryUsage();
    const samples: { bytes: number; heap: number; rss: number }[] = [];
    const { res } = await open();
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-length"]).toBeUndefined();

    let bytes = 0;
    let lines = 0;
    let head = "";
    let tail = "";
    let nextSample = 4 * MB;
    type Pause = { before: number; stalledAt: number; stalled: boolean };
    let paused: Pause | undefined;
    await new Promise<void>((resolve, reject) => {
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        if (head.length < 300) head += chunk.toString("utf8", 0, 300);
        tail = (tail + chunk.toString("latin1", Math.max(0, chunk.length - 400))).slice(-400);
        if (bytes >= nextSample) {
          nextSample += 4 * MB;
          gc();
          const m = process.memoryUsage();
          samples.push({ bytes, heap: m.heapUsed - baseline.heapUsed, rss: m.rss - baseline.rss });
        }
        // A slow reader: at 8 MB the client stops reading until the server has stopped querying
        // for 1.5 s (or 30 s have passed), then reads on.
        if (!paused && bytes >= 8 * MB) {
          res.pause();
          const state: Pause = (paused = { before: seriesQueries, stalledAt: seriesQueries, stalled: false });
          void (async () => {
            const start = Date.now();
            let since = Date.now();
            while (Date.now() - start < 30_000 && !state.stalled) {
              await sleep(250);
              if (seriesQueries !== state.stalledAt) [state.stalledAt, since] = [seriesQueries, Date.now()];
              else state.stalled = Date.now() - since >= 1500;
            }
            res.resume();
          })();
        }
      });
      res.on("end", resolve);
      res.on("error", reject);
    });

    expect(head.startsWith("\uFEFFtime,temperature_min,temperature_avg,temperature_max,temperature_count,humidity_min,")).toBe(true);
    expect(lines).toBe(ROWS + 1);
    expect(tail).toMatch(/\r\n2026-05-31T23:59:00Z,[^\r\n]*\r\n$/);
    expect(bytes).toBeGreaterThan(60 * MB);

    // Backpressure: while the client read nothing, the server stopped asking the database before
    // the export was done. It first fills the socket's kernel buffers (here up to 32 MB received
    // and 4 MB sent on loopback, net.ipv4.tcp_rmem/tcp_wmem: under 40 MB, in chunks of
    // SERIES_CHUNK_BUCKETS lines of ~150 bytes), outside this process's memory, then waits.
    expect(paused!.stalled).toBe(true);
    expect(paused!.stalledAt).toBeLessThan(chunkQueries);
    expect((paused!.stalledAt - paused!.before) * SERIES_CHUNK_BUCKETS * 150).toBeLessThanOrEqual(45 * MB);

    // What stays alive never grows with the bytes sent: bounded by a few chunks, not the file.
    const maxHeap = Math.max(...samples.map((s) => s.heap));
    const lastQuarter = samples.filter((s) => s.bytes > bytes * 0.75);
    const firstQuarter = samples.filter((s) => s.bytes <= bytes * 0.25);
    console.log(
      `CSV ${(bytes / MB).toFixed(1)} MB, ${samples.length} samples; live heap growth max ${(maxHeap / MB).toFixed(1)} MB; ` +
        `RSS growth max ${(Math.max(...samples.map((s) => s.rss)) / MB).toFixed(1)} MB; queries ${seriesQueries}, ${paused!.stalledAt - paused!.before} of them while the client paused`,
    );
    expect(samples.length).toBeGreaterThan(10);
    expect(maxHeap).toBeLessThan(24 * MB);
    // The process as a whole (its database's memory included, for PGlite) grows by less than the file.
    expect(Math.max(...samples.map((s) => s.rss))).toBeLessThan(Math.min(80 * MB, bytes / 2));
    expect(Math.max(...lastQuarter.map((s) => s.heap))).toBeLessThan(Math.max(...firstQuarter.map((s) => s.heap)) + 8 * MB);
    expect(seriesQueries).toBe(chunkQueries);
  }, 300_000);

  it("stops querying when the client goes away mid-download", async () => {
    const before = seriesQueries;
    const { res, abort } = await open();
    expect(res.statusCode).toBe(200);
    let bytes = 0;
    await new Promise<void>((resolve) => {
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes >= 2 * MB) {
          abort();
          resolve();
        }
      });
      res.on("error", () => undefined);
    });
    await sleep(500);
    const settled = seriesQueries;
    await sleep(1500);
    expect(seriesQueries).toBe(settled);
    // 2 MB is a few percent of the chunks a full export runs; the loopback's socket buffers (several
    // MB once auto-tuned) let the server run a few more ahead before backpressure stops it, more on
    // a loaded machine: far fewer than the whole export is what matters.
    const wholeExport = Math.ceil((365 * 1440) / SERIES_CHUNK_BUCKETS);
    expect(settled - before).toBeLessThanOrEqual(Math.ceil(wholeExport * 0.06));

    // The server is fine after it: the next export runs whole.
    const next = await server.app.inject({ method: "GET", url: `${HISTORY_PATHS.mcuHistoryCsv(mcuId)}?from=${new Date(NOW - DAY).toISOString()}&to=${new Date(NOW).toISOString()}`, headers: { cookie: a.cookie } });
    expect(next.body.split("\r\n")).toHaveLength(1440 + 2);
  }, 60_000);
});
