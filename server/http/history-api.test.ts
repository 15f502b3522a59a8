import { type } from "arktype";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_REASONS } from "../../src/contract/error-reasons.ts";
import { commandLog, farmHistory, HISTORY_PATHS, mcuHistory, RESOLUTIONS, stateTimeline, type CommandLogEntry } from "../../src/contract/history.ts";
import { UTF8_BOM } from "../history/csv.ts";
import { createPartitions, insertCommand, insertEvent, insertRollup, type Agg } from "../test-support/history-test-data.ts";
import { createTestServer, type TestClient, type TestServer } from "../test-support/test-server.ts";

/**
 * The history API: one MCU's series, a farm's comparison, the state timeline and the
 * command log, as JSON and as CSV. Rows go straight into the history tables; the clock stands at
 * 2026-06-01 10:30 UTC, so hourly rollups are read up to 09:00 and minute rollups after.
 */

const NOW = Date.parse("2026-06-01T10:30:00Z");
const DAY = 86_400_000;

let server: TestServer;
let a: TestClient;
let b: TestClient;
let farmA: { farm_id: number; name: string };
let farmB: { farm_id: number };
let roomA: { mcu_id: number; mac: string; name: string };
let roomB: { mcu_id: number; mac: string; name: string };
let spare: { mcu_id: number; mac: string; name: string };
let roomOfB: { mcu_id: number; mac: string };

const agg = (min: number, avg: number, max: number, n: number): Agg => ({ min, avg, max, n });

async function created<T>(res: Promise<LightMyRequestResponse>): Promise<T> {
  const r = await res;
  if (r.statusCode !== 201) throw new Error(`${r.statusCode} ${r.body}`);
  return r.json() as T;
}

async function addMcu(c: TestClient, farmId: number, name: string) {
  return created<{ mcu_id: number; mac: string; name: string }>(c.post("/api/mcus", { name, ...(await c.mcuDevice()), farm_id: farmId, status: "active" }));
}

const qs = (query: Record<string, string | undefined>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) p.append(k, v);
  const s = p.toString();
  return s ? `?${s}` : "";
};

function ok(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
  return res.json();
}

/** A body valid against a contract schema. */
function valid<T>(schema: (data: unknown) => T | type.errors, body: unknown): T {
  const out = schema(body);
  if (out instanceof type.errors) throw new Error(`answer breaks the contract: ${out.summary}`);
  return out;
}

/** CSV lines without the BOM and the trailing line end. */
function csvLines(res: LightMyRequestResponse): string[] {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
  expect(res.body.startsWith(UTF8_BOM)).toBe(true);
  expect(res.body.endsWith("\r\n")).toBe(true);
  return res.body.slice(1, -2).split("\r\n");
}

beforeAll(async () => {
  server = await createTestServer({ startAt: NOW });
  a = await server.signUp();
  b = await server.signUp();
  farmA = await created(a.post("/api/farms", { name: "Oyster House", location: "Byblos", client_id: a.clientId }));
  farmB = await created(b.post("/api/farms", { name: "B's cellar", location: "Tyre", client_id: b.clientId }));
  roomA = await addMcu(a, farmA.farm_id, "Room A");
  roomB = await addMcu(a, farmA.farm_id, 'Room "B", east');
  spare = await addMcu(a, farmA.farm_id, "=Spare");
  roomOfB = await addMcu(b, farmB.farm_id, "B's room");
  await createPartitions(server.db, NOW - 60 * DAY, NOW + DAY);

  const db = server.db;
  const m = (mcu: number, at: string, metrics: Parameters<typeof insertRollup>[4]) => insertRollup(db, "reading_minutes", mcu, at, metrics);
  const h = (mcu: number, at: string, metrics: Parameters<typeof insertRollup>[4]) => insertRollup(db, "reading_hours", mcu, at, metrics);

  // 2026-05-30: minute rollups folded into 5-minute buckets.
  await m(roomA.mcu_id, "2026-05-30T12:00:00Z", { temperature: agg(19, 20, 21, 2), co2: agg(900, 950, 1000, 2) });
  await m(roomA.mcu_id, "2026-05-30T12:01:00Z", { temperature: agg(18.5, 21, 23, 6) });
  await m(roomA.mcu_id, "2026-05-30T12:04:00Z", { co2: agg(800, 850, 900, 4) });
  await m(roomA.mcu_id, "2026-05-30T12:05:00Z", { temperature: agg(17, 17.5, 18, 4) });
  await m(roomA.mcu_id, "2026-05-30T12:10:00Z", { co2: agg(700, 700, 700, 1) });
  await m(roomA.mcu_id, "2026-05-30T12:20:00Z", { temperature: agg(20, 20, 20, 1) });
  await m(roomB.mcu_id, "2026-05-30T12:00:00Z", { temperature: agg(25, 25, 25, 1) });
  await m(roomB.mcu_id, "2026-05-30T12:10:00Z", { temperature: agg(26, 26, 26, 1) });
  await m(roomOfB.mcu_id, "2026-05-30T12:00:00Z", { temperature: agg(99, 99, 99, 9) });

  // 2026-05-29: hourly rollups folded into 2-hour buckets; a minute row of the same hours is not counted again.
  await h(roomA.mcu_id, "2026-05-29T02:00:00Z", { temperature: agg(15, 20, 25, 60) });
  await h(roomA.mcu_id, "2026-05-29T03:00:00Z", { temperature: agg(16, 23, 30, 30) });
  await h(roomA.mcu_id, "2026-05-29T05:00:00Z", { temperature: agg(14, 18, 19, 10) });
  await m(roomA.mcu_id, "2026-05-29T02:30:00Z", { temperature: agg(15, 20, 25, 60) });

  // 2026-06-01: hours 07:00 and 08:00 are built; 09:00 holds a partial row the job wrote mid-hour;
  // minutes run from 08:00 to 10:29 (now is 10:30).
  await h(roomA.mcu_id, "2026-06-01T07:00:00Z", { temperature: agg(10, 12, 14, 60) });
  await h(roomA.mcu_id, "2026-06-01T08:00:00Z", { temperature: agg(11, 13, 15, 60) });
  await h(roomA.mcu_id, "2026-06-01T09:00:00Z", { temperature: agg(1, 1, 1, 10) });
  await db.query(
    `insert into reading_minutes (mcu_id, bucket, temperature_min, temperature_avg, temperature_max, temperature_n)
     select $1, g, v, v, v, n from (
       select g, case when g < '2026-06-01T09:00:00Z' then 13 when g < '2026-06-01T10:00:00Z' then 20 else 22 end as v,
              case when g < '2026-06-01T10:00:00Z' then 1 else 2 end as n
       from generate_series('2026-06-01T08:00:00Z'::timestamptz, '2026-06-01T10:29:00Z', interval '1 minute') g) s`,
    [roomA.mcu_id],
  );

  // 2026-04-20: beyond minute retention (30 days): the hourly rollup answers; the stray minute row is not read.
  await h(roomA.mcu_id, "2026-04-20T05:00:00Z", { temperature: agg(5, 6, 7, 60) });
  await m(roomA.mcu_id, "2026-04-20T05:10:00Z", { temperature: agg(100, 100, 100, 1) });
});
afterAll(() => server?.close());

const temperature = (body: { series: Record<string, { min: unknown[]; avg: unknown[]; max: unknown[]; count: unknown[] }> }) => body.series.temperature!;
const isoTimes = (t: number[]) => t.map((x) => new Date(x).toISOString().slice(0, 16));

describe("GET /api/mcus/:mcu_id/history", () => {
  const get = (query: Record<string, string | undefined>, mcuId = roomA.mcu_id) => a.get(`${HISTORY_PATHS.mcuHistory(mcuId)}${qs(query)}`);

  it("folds minute rollups into 5-minute buckets: min of mins, max of maxes, count-weighted mean, and omits empty buckets", async () => {
    const body = valid(mcuHistory, ok(await get({ from: "2026-05-30T12:00:00Z", to: "2026-05-30T12:30:00Z", metrics: "temperature,co2", resolution: "300" })));
    expect(body).toMatchObject({ mcu_id: roomA.mcu_id, from: "2026-05-30T12:00:00.000Z", to: "2026-05-30T12:30:00.000Z", resolution: 300 });
    expect(Object.keys(body.series).sort()).toEqual(["co2", "temperature"]);
    expect(isoTimes(body.t)).toEqual(["2026-05-30T12:00", "2026-05-30T12:05", "2026-05-30T12:10", "2026-05-30T12:20"]);
    expect(body.series.temperature).toEqual({ min: [18.5, 17, null, 20], avg: [20.75, 17.5, null, 20], max: [23, 18, null, 20], count: [8, 4, 0, 1] });
    const co2 = body.series.co2!;
    expect(co2.min).toEqual([800, null, 700, null]);
    expect(co2.max).toEqual([1000, null, 700, null]);
    expect(co2.count).toEqual([6, 0, 1, 0]);
    expect(co2.avg[0]).toBeCloseTo((950 * 2 + 850 * 4) / 6, 3);
    expect(co2.avg.slice(1)).toEqual([null, 700, null]);
  });

  it("lists only buckets with a sample of a metric asked for", async () => {
    const body = valid(mcuHistory, ok(await get({ from: "2026-05-30T12:00:00Z", to: "2026-05-30T12:30:00Z", metrics: "temperature", resolution: "300" })));
    expect(isoTimes(body.t)).toEqual(["2026-05-30T12:00", "2026-05-30T12:05", "2026-05-30T12:20"]);
    expect(Object.keys(body.series)).toEqual(["temperature"]);
  });

  it("at 60 s answers the minute rollups as they are, every metric by default", async () => {
    const body = valid(mcuHistory, ok(await get({ from: "2026-05-30T12:00:00Z", to: "2026-05-30T12:30:00Z", resolution: "60" })));
    expect(isoTimes(body.t)).toEqual(["2026-05-30T12:00", "2026-05-30T12:01", "2026-05-30T12:04", "2026-05-30T12:05", "2026-05-30T12:10", "2026-05-30T12:20"]);
    expect(Object.keys(body.series)).toEqual(["temperature", "humidity", "soil_temperature", "co2", "soil_moisture", "battery"]);
    expect(temperature(body).avg).toEqual([20, 21, null, 17.5, null, 20]);
    expect(body.series.humidity!.count).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it("folds hourly rollups into 2-hour buckets and does not count the minutes of those hours again", async () => {
    const body = valid(mcuHistory, ok(await get({ from: "2026-05-29T00:00:00Z", to: "2026-05-29T08:00:00Z", metrics: "temperature", resolution: "7200" })));
    expect(isoTimes(body.t)).toEqual(["2026-05-29T02:00", "2026-05-29T04:00"]);
    expect(temperature(body)).toEqual({ min: [15, 14], avg: [21, 18], max: [30, 19], count: [90, 10] });
  });

  it("takes the hours the hourly job has not built yet (the last complete one and the current one) from the minutes", async () => {
    const body = valid(mcuHistory, ok(await get({ from: "2026-06-01T07:00:00Z", to: "2026-06-01T10:30:00Z", metrics: "temperature", resolution: "3600" })));
    expect(isoTimes(body.t)).toEqual(["2026-06-01T07:00", "2026-06-01T08:00", "2026-06-01T09:00", "2026-06-01T10:00"]);
    // 09:00's partial hourly row (10 samples) is ignored: its 60 minutes answer.
    expect(temperature(body)).toEqual({ min: [10, 11, 20, 22], avg: [12, 13, 20, 22], max: [14, 15, 20, 22], count: [60, 60, 60, 60] });
  });

  it("a day's bucket joins the built hours and the minutes since", async () => {
    const body = valid(mcuHistory, ok(await get({ from: "2026-06-01T00:00:00Z", to: "2026-06-02T00:00:00Z", metrics: "temperature", resolution: "86400" })));
    expect(isoTimes(body.t)).toEqual(["2026-06-01T00:00"]);
    expect(temperature(body)).toEqual({ min: [10], avg: [16.75], max: [22], count: [240] });
  });

  it("chooses a resolution that keeps the series within 2 000 points, and an hour once that gives 500", async () => {
    const cases: [number, number][] = [
      [3_600_000, 60],
      [DAY, 60],
      [7 * DAY, 600],
      [14 * DAY, 900],
      [20 * DAY, 900],
      [21 * DAY, 3600],
      [30 * DAY, 3600],
      [365 * DAY, 21_600],
    ];
    for (const [span, resolution] of cases) {
      const body = valid(mcuHistory, ok(await get({ from: new Date(NOW - span).toISOString(), to: new Date(NOW).toISOString(), metrics: "temperature" })));
      expect(body.resolution, `span ${span}`).toBe(resolution);
      expect(body.t.length).toBeLessThanOrEqual(2000);
    }
    const day = valid(mcuHistory, ok(await get({ from: new Date(NOW - DAY).toISOString(), to: new Date(NOW).toISOString(), metrics: "temperature" })));
    // 150 minutes of 2026-06-01 plus 2026-05-31's nothing: the minute rollups, one point each.
    expect(day.t).toHaveLength(150);
    expect(new Set(temperature(day).avg)).toEqual(new Set([13, 20, 22]));
  });

  it("reads a range older than the minute retention from the hourly rollups, at an hour at least", async () => {
    for (const resolution of [undefined, "60"]) {
      const body = valid(mcuHistory, ok(await get({ from: "2026-04-20T00:00:00Z", to: "2026-04-21T00:00:00Z", metrics: "temperature", resolution })));
      expect(body.resolution).toBe(3600);
      expect(isoTimes(body.t)).toEqual(["2026-04-20T05:00"]);
      expect(temperature(body)).toEqual({ min: [5], avg: [6], max: [7], count: [60] });
    }
  });

  it("answers an empty series for a range with no partition or no data", async () => {
    for (const [from, to] of [
      ["2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z"],
      ["2026-07-10T00:00:00Z", "2026-07-10T06:00:00Z"],
      ["2026-05-20T00:00:00Z", "2026-05-20T06:00:00Z"],
    ]) {
      const body = valid(mcuHistory, ok(await get({ from, to })));
      expect(body.t).toEqual([]);
      expect(body.series.co2).toEqual({ min: [], avg: [], max: [], count: [] });
    }
  });

  it("accepts an offset and answers the instants in UTC", async () => {
    const body = valid(mcuHistory, ok(await get({ from: "2026-05-30T15:00:00+03:00", to: "2026-05-30T15:30:00+03:00", metrics: "temperature", resolution: "300" })));
    expect([body.from, body.to]).toEqual(["2026-05-30T12:00:00.000Z", "2026-05-30T12:30:00.000Z"]);
    expect(body.t).toHaveLength(3);
  });

  it("widens a range that starts mid-bucket to the whole bucket", async () => {
    const body = valid(mcuHistory, ok(await get({ from: "2026-05-30T12:03:00Z", to: "2026-05-30T12:06:00Z", metrics: "temperature", resolution: "300" })));
    expect(isoTimes(body.t)).toEqual(["2026-05-30T12:00", "2026-05-30T12:05"]);
    expect(temperature(body).count).toEqual([8, 4]);
  });
});

describe("GET /api/farms/:farm_id/history", () => {
  it("answers every MCU of the farm on one time axis, null where an MCU has no sample, in one query", async () => {
    let seriesQueries = 0;
    const query = server.db.query;
    server.db.query = ((text: string, params?: readonly unknown[]) => {
      if (/reading_(minutes|hours)/.test(text)) seriesQueries++;
      return query(text, params);
    }) as typeof query;
    let res: LightMyRequestResponse;
    try {
      res = await a.get(`${HISTORY_PATHS.farmHistory(farmA.farm_id)}${qs({ metric: "temperature", from: "2026-05-30T12:00:00Z", to: "2026-05-30T12:30:00Z", resolution: "300" })}`);
    } finally {
      server.db.query = query;
    }
    const body = valid(farmHistory, ok(res));
    expect(seriesQueries).toBe(1);
    expect(body).toMatchObject({ farm_id: farmA.farm_id, metric: "temperature", resolution: 300, from: "2026-05-30T12:00:00.000Z" });
    expect(isoTimes(body.t)).toEqual(["2026-05-30T12:00", "2026-05-30T12:05", "2026-05-30T12:10", "2026-05-30T12:20"]);
    const byId = new Map(body.mcus.map((m) => [m.mcu_id, m]));
    expect(body.mcus).toHaveLength(3);
    expect(byId.get(roomA.mcu_id)).toEqual({ mcu_id: roomA.mcu_id, name: "Room A", mac: roomA.mac, avg: [20.75, 17.5, null, 20], count: [8, 4, 0, 1] });
    expect(byId.get(roomB.mcu_id)).toEqual({ mcu_id: roomB.mcu_id, name: 'Room "B", east', mac: roomB.mac, avg: [25, null, 26, null], count: [1, 0, 1, 0] });
    expect(byId.get(spare.mcu_id)!.avg).toEqual([null, null, null, null]);
    expect(byId.get(spare.mcu_id)!.count).toEqual([0, 0, 0, 0]);
  });

  it("chooses the resolution as for one MCU and answers a farm without data with an empty axis", async () => {
    const body = valid(farmHistory, ok(await a.get(`${HISTORY_PATHS.farmHistory(farmA.farm_id)}${qs({ metric: "co2", from: new Date(NOW - 7 * DAY).toISOString(), to: new Date(NOW).toISOString() })}`)));
    expect(body.resolution).toBe(600);
    expect(isoTimes(body.t)).toEqual(["2026-05-30T12:00", "2026-05-30T12:10"]);
    const empty = valid(farmHistory, ok(await b.get(`${HISTORY_PATHS.farmHistory(farmB.farm_id)}${qs({ metric: "co2", from: "2026-05-30T00:00:00Z", to: "2026-05-31T00:00:00Z" })}`)));
    expect(empty.t).toEqual([]);
    expect(empty.mcus).toEqual([{ mcu_id: roomOfB.mcu_id, name: "B's room", mac: roomOfB.mac, avg: [], count: [] }]);
  });
});

describe("GET /api/mcus/:mcu_id/timeline", () => {
  beforeAll(async () => {
    const e = (at: string, target: string, status: boolean, auto: boolean, session: boolean | null = null) => insertEvent(server.db, roomA.mcu_id, at, target, status, auto, session);
    await e("2026-05-01T00:00:00Z", "Irrigation", true, true, false);
    await e("2026-05-31T20:00:00Z", "Irrigation", false, true, false);
    await e("2026-05-31T21:00:00Z", "AC", true, false);
    await e("2026-06-01T01:00:00Z", "Irrigation", true, true, true);
    await e("2026-06-01T01:00:00Z", "Ventilation", true, true);
    await e("2026-06-01T02:00:00Z", "Irrigation", false, true, false);
    await e("2026-06-01T06:00:00Z", "AC", false, false);
    await insertEvent(server.db, roomOfB.mcu_id, "2026-06-01T03:00:00Z", "AC", true, true);
  });

  const range = { from: "2026-06-01T00:00:00Z", to: "2026-06-01T06:00:00Z" };

  it("answers each controller's state at from and every change in the range, oldest first", async () => {
    const body = valid(stateTimeline, ok(await a.get(`${HISTORY_PATHS.timeline(roomA.mcu_id)}${qs(range)}`)));
    expect(body).toEqual({
      mcu_id: roomA.mcu_id,
      from: "2026-06-01T00:00:00.000Z",
      to: "2026-06-01T06:00:00.000Z",
      initial: [
        { at: "2026-05-31T20:00:00.000Z", target: "Irrigation", status: false, auto: true, session: false },
        { at: "2026-05-31T21:00:00.000Z", target: "AC", status: true, auto: false },
      ],
      events: [
        { at: "2026-06-01T01:00:00.000Z", target: "Irrigation", status: true, auto: true, session: true },
        { at: "2026-06-01T01:00:00.000Z", target: "Ventilation", status: true, auto: true },
        { at: "2026-06-01T02:00:00.000Z", target: "Irrigation", status: false, auto: true, session: false },
      ],
    });
  });

  it("exports the same as CSV", async () => {
    const lines = csvLines(await a.get(`${HISTORY_PATHS.timelineCsv(roomA.mcu_id)}${qs(range)}`));
    expect(lines).toEqual([
      "time,target,status,auto,session",
      "2026-05-31T20:00:00Z,Irrigation,off,on,off",
      "2026-05-31T21:00:00Z,AC,on,off,",
      "2026-06-01T01:00:00Z,Irrigation,on,on,on",
      "2026-06-01T01:00:00Z,Ventilation,on,on,",
      "2026-06-01T02:00:00Z,Irrigation,off,on,off",
    ]);
  });

  describe("a range with more changes than one answer lists", () => {
    const TARGETS = ["Irrigation", "AC", "Ventilation", "Humidifier"];
    const COUNT = 20_001;
    beforeAll(async () => {
      // Seven changes a second: several rows share a time, some are identical (as a device
      // resending its state would make them), across the export's chunk boundaries.
      await server.db.query(
        `insert into device_state_events (mcu_id, at, target, status, auto, session)
         select $1, '2026-05-15T00:00:00Z'::timestamptz + (i / 7) * interval '1 second', ($2::text[])[i % 4 + 1], i % 2 = 0, true, null
         from generate_series(1, $3::int) i`,
        [spare.mcu_id, TARGETS, COUNT],
      );
    });

    it("refuses the JSON timeline with a message and lists a shorter range", async () => {
      const res = await a.get(`${HISTORY_PATHS.timeline(spare.mcu_id)}${qs({ from: "2026-05-15T00:00:00Z", to: "2026-05-16T00:00:00Z" })}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: "VALIDATION", message: "That range has more than 20,000 state changes; choose a shorter range", reason: "range_too_busy", params: { max: 20_000 } });
      const short = valid(stateTimeline, ok(await a.get(`${HISTORY_PATHS.timeline(spare.mcu_id)}${qs({ from: "2026-05-15T00:00:00Z", to: "2026-05-15T00:10:00Z" })}`)));
      expect(short.events).toHaveLength(600 * 7 - 1);
    });

    it("exports every change, each exactly once, in the CSV", async () => {
      const lines = csvLines(await a.get(`${HISTORY_PATHS.timelineCsv(spare.mcu_id)}${qs({ from: "2026-05-15T00:00:00Z", to: "2026-05-16T00:00:00Z" })}`));
      expect(lines[0]).toBe("time,target,status,auto,session");
      const expected: string[] = [];
      for (let i = 1; i <= COUNT; i++) {
        const at = new Date(Date.parse("2026-05-15T00:00:00Z") + Math.floor(i / 7) * 1000).toISOString().replace(".000Z", "Z");
        expected.push(`${at},${TARGETS[i % 4]},${i % 2 === 0 ? "on" : "off"},on,`);
      }
      expect(lines.length - 1).toBe(COUNT);
      expect(lines.slice(1).sort()).toEqual(expected.sort());
      // Oldest first.
      const times = lines.slice(1).map((l) => l.slice(0, 20));
      expect(times).toEqual([...times].sort());
    });
  });
});

describe("GET /api/mcus/:mcu_id/commands", () => {
  const c = (id: string, at: string, more: Partial<Parameters<typeof insertCommand>[1]> = {}) => insertCommand(server.db, { command_id: id, mcu_id: roomA.mcu_id, client_id: a.clientId, at, ...more });
  beforeAll(async () => {
    await c("c1", "2026-05-31T10:00:00.000001Z", { answered_at: "2026-05-31T10:00:01Z" });
    await c("c2", "2026-05-31T10:00:00.000001Z");
    await c("c3", "2026-05-31T10:00:00.000002Z", { on_off: false });
    await c("c4", "2026-05-31T11:00:00Z", { source: "automation", target: "AC" });
    await c("c5", "2026-05-31T12:00:00Z", { outcome: "refused", reason: "Device busy, try later", actor: "@admin", answered_at: "2026-05-31T12:00:00.500Z" });
    await c("c6", "2026-05-31T13:00:00Z", { outcome: "timed_out", reason: "No answer from the device", target: "Ventilation", type: "auto" });
    await c("c7", "2026-05-31T14:00:00Z", { outcome: "pending", target: "Humidifier" });
    await insertCommand(server.db, { command_id: "b1", mcu_id: roomOfB.mcu_id, client_id: b.clientId, at: "2026-05-31T10:30:00Z" });
  });

  const list = async (query: Record<string, string | undefined> = {}) => valid(commandLog, ok(await a.get(`${HISTORY_PATHS.commands(roomA.mcu_id)}${qs(query)}`)));
  const ids = (entries: CommandLogEntry[]) => entries.map((e) => e.command_id);

  it("lists the MCU's commands newest first with their outcomes", async () => {
    const body = await list();
    expect(ids(body.entries)).toEqual(["c7", "c6", "c5", "c4", "c3", "c2", "c1"]);
    expect(body.next_before).toBeNull();
    expect(body.entries.find((e) => e.command_id === "c5")).toEqual({
      command_id: "c5",
      mcu_id: roomA.mcu_id,
      source: "user",
      actor: "@admin",
      target: "Irrigation",
      type: "status",
      on_off: true,
      at: "2026-05-31T12:00:00.000Z",
      outcome: "refused",
      reason: "Device busy, try later",
      answered_at: "2026-05-31T12:00:00.500Z",
      why: null,
    });
    expect(body.entries.find((e) => e.command_id === "c4")).toMatchObject({ source: "automation", actor: null, outcome: "reported" });
  });

  it("pages with next_before, without skipping or repeating commands of the same microsecond", async () => {
    for (const limit of [1, 2, 3]) {
      const seen: string[] = [];
      let before: string | undefined;
      for (let page = 0; page < 10; page++) {
        const body = await list({ limit: String(limit), before });
        expect(body.entries.length).toBeLessThanOrEqual(limit);
        seen.push(...ids(body.entries));
        if (body.next_before === null) break;
        before = body.next_before;
      }
      expect(seen, `limit ${limit}`).toEqual(["c7", "c6", "c5", "c4", "c3", "c2", "c1"]);
    }
  });

  it("filters by source, outcome, target and time", async () => {
    expect(ids((await list({ source: "automation" })).entries)).toEqual(["c4"]);
    expect(ids((await list({ source: "user", outcome: "refused" })).entries)).toEqual(["c5"]);
    expect(ids((await list({ target: "Ventilation" })).entries)).toEqual(["c6"]);
    expect(ids((await list({ from: "2026-05-31T11:00:00Z", to: "2026-05-31T13:00:00Z" })).entries)).toEqual(["c5", "c4"]);
    expect(ids((await list({ from: "2026-05-31T13:00:00Z" })).entries)).toEqual(["c7", "c6"]);
    expect(ids((await list({ to: "2026-05-31T10:00:00.001Z" })).entries)).toEqual(["c3", "c2", "c1"]);
    expect(ids((await list({ to: "2026-05-31T10:00:00Z" })).entries)).toEqual([]);
    expect(ids((await list({ outcome: "failed" })).entries)).toEqual([]);
  });

  it("exports every matching command as CSV, oldest first, fields quoted and formulas defused", async () => {
    const res = await a.get(HISTORY_PATHS.commandsCsv(roomA.mcu_id));
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="Room-A_commands.csv"; filename*=UTF-8''Room-A_commands.csv`);
    expect(csvLines(res)).toEqual([
      "time,source,actor,target,type,value,outcome,reason,answered_at,command_id",
      "2026-05-31T10:00:00Z,user,grower,Irrigation,status,on,acknowledged,,2026-05-31T10:00:01Z,c1",
      "2026-05-31T10:00:00Z,user,grower,Irrigation,status,on,acknowledged,,,c2",
      "2026-05-31T10:00:00Z,user,grower,Irrigation,status,off,acknowledged,,,c3",
      "2026-05-31T11:00:00Z,automation,,AC,status,on,reported,,,c4",
      `2026-05-31T12:00:00Z,user,'@admin,Irrigation,status,on,refused,"Device busy, try later",2026-05-31T12:00:00.500Z,c5`,
      "2026-05-31T13:00:00Z,user,grower,Ventilation,auto,on,timed_out,No answer from the device,,c6",
      "2026-05-31T14:00:00Z,user,grower,Humidifier,status,on,pending,,,c7",
    ]);
    const filtered = csvLines(await a.get(`${HISTORY_PATHS.commandsCsv(roomA.mcu_id)}${qs({ outcome: "timed_out" })}`));
    expect(filtered).toHaveLength(2);
    expect(filtered[1]).toMatch(/,c6$/);
  });

  it("exports a log longer than one read (5 000 rows) whole, each command once, oldest first", async () => {
    const COUNT = 5003;
    // Three commands per millisecond: the export pages on (time, id), not on time alone.
    await server.db.query(
      `insert into command_log (command_id, mcu_id, client_id, source, actor, target, type, on_off, at, outcome)
       select 'bulk-' || lpad(i::text, 5, '0'), $1, $2, 'user', 'grower', 'AC', 'status', i % 2 = 0, '2026-05-20T00:00:00Z'::timestamptz + (i / 3) * interval '1 millisecond', 'acknowledged'
       from generate_series(1, $3::int) i`,
      [roomB.mcu_id, a.clientId, COUNT],
    );
    const ids = csvLines(await a.get(HISTORY_PATHS.commandsCsv(roomB.mcu_id)))
      .slice(1)
      .map((l) => l.split(",").at(-1));
    expect(ids).toEqual(Array.from({ length: COUNT }, (_, i) => `bulk-${String(i + 1).padStart(5, "0")}`));
    const page = valid(commandLog, ok(await a.get(`${HISTORY_PATHS.commands(roomB.mcu_id)}${qs({ limit: "500" })}`)));
    expect(page.entries.map((e) => e.command_id)).toEqual(Array.from({ length: 500 }, (_, i) => `bulk-${String(COUNT - i).padStart(5, "0")}`));
    expect(page.next_before).not.toBeNull();
  });
});

describe("CSV of readings", () => {
  it("exports one MCU's buckets with min, avg, max and count per metric, names and times", async () => {
    const res = await a.get(`${HISTORY_PATHS.mcuHistoryCsv(roomA.mcu_id)}${qs({ from: "2026-05-30T12:00:00Z", to: "2026-05-30T12:30:00Z", metrics: "co2,temperature" })}`);
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="Room-A_history_20260530T1200Z_20260530T1230Z.csv"; filename*=UTF-8''Room-A_history_20260530T1200Z_20260530T1230Z.csv`,
    );
    expect(csvLines(res)).toEqual([
      "time,temperature_min,temperature_avg,temperature_max,temperature_count,co2_min,co2_avg,co2_max,co2_count",
      "2026-05-30T12:00:00Z,19,20,21,2,900,950,1000,2",
      "2026-05-30T12:01:00Z,18.5,21,23,6,,,,0",
      "2026-05-30T12:04:00Z,,,,0,800,850,900,4",
      "2026-05-30T12:05:00Z,17,17.5,18,4,,,,0",
      "2026-05-30T12:10:00Z,,,,0,700,700,700,1",
      "2026-05-30T12:20:00Z,20,20,20,1,,,,0",
    ]);
  });

  it("follows a given resolution without a point cap, and reads old ranges from hourly rollups", async () => {
    const fiveMin = csvLines(await a.get(`${HISTORY_PATHS.mcuHistoryCsv(roomA.mcu_id)}${qs({ from: "2026-05-30T12:00:00Z", to: "2026-05-30T12:30:00Z", metrics: "temperature", resolution: "300" })}`));
    expect(fiveMin.slice(1)).toEqual(["2026-05-30T12:00:00Z,18.5,20.75,23,8", "2026-05-30T12:05:00Z,17,17.5,18,4", "2026-05-30T12:20:00Z,20,20,20,1"]);
    // 20 days at 60 s: 28 800 points, beyond the JSON cap; the CSV answers them (155 have a temperature).
    const long = csvLines(await a.get(`${HISTORY_PATHS.mcuHistoryCsv(roomA.mcu_id)}${qs({ from: new Date(NOW - 20 * DAY).toISOString(), to: new Date(NOW).toISOString(), resolution: "60", metrics: "temperature" })}`));
    expect(long.length - 1).toBe(4 + 1 + 150);
    const old = csvLines(await a.get(`${HISTORY_PATHS.mcuHistoryCsv(roomA.mcu_id)}${qs({ from: "2026-04-20T00:00:00Z", to: "2026-04-21T00:00:00Z", metrics: "temperature" })}`));
    expect(old.slice(1)).toEqual(["2026-04-20T05:00:00Z,5,6,7,60"]);
  });

  it("exports a farm's MCUs as columns headed by name, quoted and defused", async () => {
    const res = await a.get(`${HISTORY_PATHS.farmHistoryCsv(farmA.farm_id)}${qs({ metric: "temperature", from: "2026-05-30T12:00:00Z", to: "2026-05-30T12:30:00Z", resolution: "300" })}`);
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="Oyster-House_temperature_20260530T1200Z_20260530T1230Z.csv"; filename*=UTF-8''Oyster-House_temperature_20260530T1200Z_20260530T1230Z.csv`,
    );
    const lines = csvLines(res);
    const farm = valid(farmHistory, ok(await a.get(`${HISTORY_PATHS.farmHistory(farmA.farm_id)}${qs({ metric: "temperature", from: "2026-05-30T12:00:00Z", to: "2026-05-30T12:30:00Z", resolution: "300" })}`)));
    const heading: Record<number, string> = { [roomA.mcu_id]: "Room A", [roomB.mcu_id]: '"Room ""B"", east"', [spare.mcu_id]: "'=Spare" };
    expect(lines[0]).toBe(["time", ...farm.mcus.map((m) => heading[m.mcu_id])].join(","));
    const expected = [
      ["2026-05-30T12:00:00Z", { [roomA.mcu_id]: 20.75, [roomB.mcu_id]: 25 }],
      ["2026-05-30T12:05:00Z", { [roomA.mcu_id]: 17.5 }],
      ["2026-05-30T12:10:00Z", { [roomB.mcu_id]: 26 }],
      ["2026-05-30T12:20:00Z", { [roomA.mcu_id]: 20 }],
    ] as const;
    expect(lines.slice(1)).toEqual(expected.map(([t, v]) => [t, ...farm.mcus.map((m) => String((v as Record<number, number>)[m.mcu_id] ?? ""))].join(",")));
  });

  it("the same data answers the same through JSON and CSV", async () => {
    const query = { from: "2026-06-01T00:00:00Z", to: "2026-06-01T10:30:00Z", metrics: "temperature", resolution: "3600" };
    const body = valid(mcuHistory, ok(await a.get(`${HISTORY_PATHS.mcuHistory(roomA.mcu_id)}${qs(query)}`)));
    const lines = csvLines(await a.get(`${HISTORY_PATHS.mcuHistoryCsv(roomA.mcu_id)}${qs(query)}`)).slice(1);
    const s = temperature(body);
    expect(lines).toEqual(body.t.map((t, i) => [new Date(t).toISOString().replace(".000Z", "Z"), s.min[i], s.avg[i], s.max[i], s.count[i]].join(",")));
  });
});

// ---------------------------------------------------------------------------------------------
// Tenancy: every endpoint, JSON and CSV
// ---------------------------------------------------------------------------------------------

describe("tenancy", () => {
  const series = { from: "2026-05-30T00:00:00Z", to: "2026-05-31T00:00:00Z" };
  const endpoints: [string, (mcuId: number, farmId: number) => string, "MCU" | "Farm"][] = [
    ["MCU history", (m) => `${HISTORY_PATHS.mcuHistory(m)}${qs(series)}`, "MCU"],
    ["MCU history CSV", (m) => `${HISTORY_PATHS.mcuHistoryCsv(m)}${qs(series)}`, "MCU"],
    ["farm history", (_m, f) => `${HISTORY_PATHS.farmHistory(f)}${qs({ ...series, metric: "temperature" })}`, "Farm"],
    ["farm history CSV", (_m, f) => `${HISTORY_PATHS.farmHistoryCsv(f)}${qs({ ...series, metric: "temperature" })}`, "Farm"],
    ["timeline", (m) => `${HISTORY_PATHS.timeline(m)}${qs(series)}`, "MCU"],
    ["timeline CSV", (m) => `${HISTORY_PATHS.timelineCsv(m)}${qs(series)}`, "MCU"],
    ["commands", (m) => HISTORY_PATHS.commands(m), "MCU"],
    ["commands CSV", (m) => HISTORY_PATHS.commandsCsv(m), "MCU"],
  ];

  /** What of A's must never reach B: names, MACs, values only A's rollups hold. */
  const secrets = () => ["Room A", "Oyster House", roomA.mac, roomB.mac, "20.75", "c5", "Device busy"];

  it.each(endpoints)("%s: the owner 200, another client 404 with nothing of the owner's, no session 401", async (_name, url, what) => {
    const own = await a.get(url(roomA.mcu_id, farmA.farm_id));
    expect(own.statusCode, own.body.slice(0, 300)).toBe(200);

    const theirs = await b.get(url(roomA.mcu_id, farmA.farm_id));
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: "NOT_FOUND", message: `${what} not found` });
    for (const s of secrets()) expect(theirs.body + JSON.stringify(theirs.headers)).not.toContain(s);
    // A missing id answers exactly as another client's.
    const missing = await b.get(url(2_000_000_000, 2_000_000_000));
    expect([missing.statusCode, missing.body]).toEqual([theirs.statusCode, theirs.body]);

    const anonymous = await server.app.inject({ method: "GET", url: url(roomA.mcu_id, farmA.farm_id) });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe("UNAUTHENTICATED");
    for (const s of secrets()) expect(anonymous.body).not.toContain(s);

    // B's own MCU or farm answers B's data only.
    const mine = await b.get(url(roomOfB.mcu_id, farmB.farm_id));
    expect(mine.statusCode).toBe(200);
    for (const s of secrets()) expect(mine.body).not.toContain(s);
  });

  it("a farm's comparison lists only the farm's MCUs, and B's rollups never reach A", async () => {
    const body = valid(farmHistory, ok(await a.get(`${HISTORY_PATHS.farmHistory(farmA.farm_id)}${qs({ ...series, metric: "temperature" })}`)));
    expect(body.mcus.map((m) => m.mcu_id).sort()).toEqual([roomA.mcu_id, roomB.mcu_id, spare.mcu_id].sort());
    expect(body.mcus.flatMap((m) => m.avg)).not.toContain(99);
    expect(body.mcus.map((m) => m.mac)).not.toContain(roomOfB.mac);
    const commands = valid(commandLog, ok(await a.get(HISTORY_PATHS.commands(roomA.mcu_id))));
    expect(commands.entries.map((e) => e.command_id)).not.toContain("b1");
  });
});

// ---------------------------------------------------------------------------------------------
// Bad input on every parameter
// ---------------------------------------------------------------------------------------------

describe("bad input", () => {
  type Query = Record<string, string | undefined>;
  const INSTANT = "an ISO 8601 date and time with a time zone, like 2026-11-25T06:00:00Z";
  const RES = `resolution must be one of ${RESOLUTIONS.join(", ")} (seconds)`;
  const METRICS = "temperature, humidity, soil_temperature, co2, soil_moisture, battery";
  const range = { from: "2026-05-30T00:00:00Z", to: "2026-05-31T00:00:00Z" };

  /** Cases on `from` and `to`, required. */
  const rangeCases: [string, Query, string][] = [
    ["from missing", { from: undefined }, `from is required: ${INSTANT}`],
    ["to missing", { to: undefined }, `to is required: ${INSTANT}`],
    ["from a word", { from: "yesterday" }, `from must be ${INSTANT}`],
    ["from empty", { from: "" }, `from must be ${INSTANT}`],
    ["from without a zone", { from: "2026-05-30T00:00:00" }, `from must be ${INSTANT}`],
    ["from a date only", { from: "2026-05-30" }, `from must be ${INSTANT}`],
    ["from in epoch ms", { from: "1780000000000" }, `from must be ${INSTANT}`],
    ["to on 30 February", { to: "2026-02-30T00:00:00Z" }, `to must be ${INSTANT}`],
    ["to at hour 24", { to: "2026-05-31T24:00:00Z" }, `to must be ${INSTANT}`],
    ["from after to", { from: "2026-05-31T00:00:01Z" }, "from must be before to"],
    ["from equal to to", { from: "2026-05-31T00:00:00Z" }, "from must be before to"],
    ["801 days", { from: "2024-03-21T00:00:00Z" }, "The range is too long: at most 800 days"],
    ["from given twice", { from: "2026-05-30T00:00:00Z&from=2026-05-30T01:00:00Z" }, "from must be given once"],
    ["an unknown parameter", { sort: "desc" }, "Unknown query parameter: sort"],
  ];
  const resolutionCases: [string, Query, string][] = [
    ["resolution not in the list", { resolution: "61" }, RES],
    ["resolution a word", { resolution: "hourly" }, RES],
    ["resolution empty", { resolution: "" }, RES],
    ["resolution negative", { resolution: "-60" }, RES],
    ["resolution with decimals", { resolution: "60.0" }, RES],
  ];
  const pointCap: [string, Query, string] = ["resolution 60 over 20 days", { from: "2026-05-11T00:00:00Z", to: "2026-05-31T00:00:00Z", resolution: "60" }, "With resolution 60 that range has 28,800 points; at most 20,000"];
  const metricsCases: [string, Query, string][] = [
    ["metrics unknown", { metrics: "temperature,foo" }, "Unknown metric: foo"],
    ["metrics in capitals", { metrics: "Temperature" }, "Unknown metric: Temperature"],
    ["metrics empty", { metrics: "" }, `metrics must name at least one metric: ${METRICS}`],
    ["metric (the farm's) on an MCU", { metric: "co2" }, "Unknown query parameter: metric"],
  ];
  const metricCases: [string, Query, string][] = [
    ["metric missing", { metric: undefined }, `metric is required: one of ${METRICS}`],
    ["metric empty", { metric: "" }, `metric is required: one of ${METRICS}`],
    ["metric unknown", { metric: "ph" }, "Unknown metric: ph"],
    ["two metrics", { metric: "co2,humidity" }, "Unknown metric: co2,humidity"],
    ["metrics (the MCU's) on a farm", { metrics: "co2" }, "Unknown query parameter: metrics"],
  ];
  const filterCases: [string, Query, string][] = [
    ["from a word", { from: "now" }, `from must be ${INSTANT}`],
    ["to without a zone", { to: "2026-05-31T00:00:00" }, `to must be ${INSTANT}`],
    ["from after to", { from: "2026-05-31T00:00:00Z", to: "2026-05-30T00:00:00Z" }, "from must be before to"],
    ["source unknown", { source: "robot" }, "source must be user or automation"],
    ["outcome unknown", { outcome: "lost" }, "outcome must be one of pending, acknowledged, refused, timed_out, failed, reported"],
    ["target unknown", { target: "Heater" }, "target must be one of Irrigation, AC, Ventilation, Humidifier"],
    ["target in lower case", { target: "irrigation" }, "target must be one of Irrigation, AC, Ventilation, Humidifier"],
    ["an unknown parameter", { page: "2" }, "Unknown query parameter: page"],
  ];
  const LIMIT = "limit must be a whole number from 1 to 500";
  const pagingCases: [string, Query, string][] = [
    ["limit 0", { limit: "0" }, LIMIT],
    ["limit 501", { limit: "501" }, LIMIT],
    ["limit a word", { limit: "all" }, LIMIT],
    ["limit empty", { limit: "" }, LIMIT],
    ["limit negative", { limit: "-5" }, LIMIT],
    ["before not a cursor", { before: "yesterday" }, "before must be the next_before of a previous page"],
    ["before of another shape", { before: Buffer.from('{"at":1}').toString("base64url") }, "before must be the next_before of a previous page"],
  ];

  const mcu = () => roomA.mcu_id;
  const farm = () => farmA.farm_id;
  const groups: [string, () => string, Query, [string, Query, string][]][] = [
    ["MCU history", () => HISTORY_PATHS.mcuHistory(mcu()), range, [...rangeCases, ...resolutionCases, pointCap, ...metricsCases]],
    ["MCU history CSV", () => HISTORY_PATHS.mcuHistoryCsv(mcu()), range, [...rangeCases, ...resolutionCases, ...metricsCases]],
    ["farm history", () => HISTORY_PATHS.farmHistory(farm()), { ...range, metric: "co2" }, [...rangeCases, ...resolutionCases, pointCap, ...metricCases]],
    ["farm history CSV", () => HISTORY_PATHS.farmHistoryCsv(farm()), { ...range, metric: "co2" }, [...rangeCases, ...resolutionCases, ...metricCases]],
    ["timeline", () => HISTORY_PATHS.timeline(mcu()), range, [...rangeCases, ["resolution", { resolution: "60" }, "Unknown query parameter: resolution"]]],
    ["timeline CSV", () => HISTORY_PATHS.timelineCsv(mcu()), range, [...rangeCases, ["metrics", { metrics: "co2" }, "Unknown query parameter: metrics"]]],
    ["commands", () => HISTORY_PATHS.commands(mcu()), {}, [...filterCases, ...pagingCases]],
    ["commands CSV", () => HISTORY_PATHS.commandsCsv(mcu()), {}, [...filterCases, ["limit", { limit: "10" }, "Unknown query parameter: limit"], ["before", { before: "x" }, "Unknown query parameter: before"]]],
  ];

  const cases = groups.flatMap(([name, path, base, rows]) => rows.map(([what, change, message]) => [`${name}: ${what} -> ${message}`, path, base, change, message] as const));

  it.each(cases)("%s", async (_title, path, base, change, message) => {
    // `&` inside a value stands for a repeated parameter; everything else is encoded.
    const query = qs({ ...base, ...change }).replace(/%26from%3D/g, "&from=");
    const res = await a.get(`${path()}${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    // The reason the app translates: one it knows, with the values its text names.
    const body = res.json() as { reason: string; params?: Record<string, unknown> };
    expect(body).toEqual({ code: "VALIDATION", message, reason: body.reason, ...(body.params && { params: body.params }) });
    expect(ERROR_REASONS).toContain(body.reason);
  });

  const badIds = ["abc", "-1", "0", "1.5", "99999999999", "1e3", "0x10", "%20"];
  const idPaths: [string, (id: string) => string, string][] = [
    ["MCU history", (id) => `/api/mcus/${id}/history${qs(range)}`, "MCU id must be a positive whole number"],
    ["MCU history CSV", (id) => `/api/mcus/${id}/history.csv${qs(range)}`, "MCU id must be a positive whole number"],
    ["farm history", (id) => `/api/farms/${id}/history${qs({ ...range, metric: "co2" })}`, "Farm id must be a positive whole number"],
    ["farm history CSV", (id) => `/api/farms/${id}/history.csv${qs({ ...range, metric: "co2" })}`, "Farm id must be a positive whole number"],
    ["timeline", (id) => `/api/mcus/${id}/timeline${qs(range)}`, "MCU id must be a positive whole number"],
    ["timeline CSV", (id) => `/api/mcus/${id}/timeline.csv${qs(range)}`, "MCU id must be a positive whole number"],
    ["commands", (id) => `/api/mcus/${id}/commands`, "MCU id must be a positive whole number"],
    ["commands CSV", (id) => `/api/mcus/${id}/commands.csv`, "MCU id must be a positive whole number"],
  ];
  const idCases = idPaths.flatMap(([name, url, message]) => badIds.map((id) => [`${name} with id ${JSON.stringify(id)}`, url(id), message] as const));

  it.each(idCases)("%s -> 400", async (_title, url, message) => {
    const res = await a.get(url);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ code: "VALIDATION", message, reason: "whole_number" });
  });
});
