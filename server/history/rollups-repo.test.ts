import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveReading } from "../../src/contract/entities.ts";
import { createTestServer, seedClientData, type TestServer } from "../test-support/test-server.ts";
import { partitionsRepo } from "./partitions-repo.ts";
import { DAY_MS, ensurePartitions, writeWithPartitions } from "./partitions.ts";
import { mergeDuplicates, MinuteRollups, type MinuteRow } from "./rollups.ts";
import { recomputeHours, upsertMinuteRows } from "./rollups-repo.ts";

const T0 = Date.parse("2026-06-01T10:00:00Z");
const s = (seconds: number) => T0 + seconds * 1000;

/** The rows a node would write for these readings of one MCU (each [second, reading]). */
function rowsFor(mcuId: number, readings: [number, LiveReading][]): MinuteRow[] {
  const rollups = new MinuteRollups();
  for (const [second, r] of readings) rollups.put(mcuId, r, s(second));
  rollups.harvest(0, { all: true });
  return rollups.take();
}

const dht = (temperature: number, humidity = 80): LiveReading => ({ DHT: { temperature, humidity, count: 1 } });

interface Stored {
  bucket: Date;
  temperature_min: number | null;
  temperature_avg: number | null;
  temperature_max: number | null;
  temperature_n: number;
  co2_min: number | null;
  co2_avg: number | null;
  co2_max: number | null;
  co2_n: number;
  battery_avg: number | null;
  battery_n: number;
}

describe("minute and hourly rollups in the database", () => {
  let server: TestServer;
  let mcuId: number;
  let otherMcuId: number;
  const stored = (table: "reading_minutes" | "reading_hours", id = mcuId) =>
    server.db.query<Stored>(
      `select bucket, temperature_min, temperature_avg, temperature_max, temperature_n, co2_min, co2_avg, co2_max, co2_n, battery_avg, battery_n
       from ${table} where mcu_id = $1 order by bucket`,
      [id],
    );

  beforeAll(async () => {
    server = await createTestServer();
    const c = await server.signUp();
    mcuId = (await seedClientData(c)).mcu.mcu_id;
    otherMcuId = (await seedClientData(c)).mcu.mcu_id;
    await ensurePartitions(server.db, "reading_minutes", [T0]);
    await ensurePartitions(server.db, "reading_hours", [T0]);
  });
  afterAll(() => server.close());

  it("writes a minute, then merges a late part of it: min of mins, max of maxes, count-weighted average, sum of counts", async () => {
    await upsertMinuteRows(server.db, rowsFor(mcuId, [[0, dht(20)], [10, dht(22)], [20, { ...dht(24), CO2: { co2: 900, count: 1 } }]]));
    // Readings of the same minute folded after it was written (a slow flush, another node, a restart).
    await upsertMinuteRows(server.db, rowsFor(mcuId, [[30, dht(16)], [40, { batteryLevel: 70 }]]));
    const [row, ...rest] = await stored("reading_minutes");
    expect(rest).toEqual([]);
    expect(row).toMatchObject({ temperature_min: 16, temperature_max: 24, temperature_n: 4, co2_min: 900, co2_max: 900, co2_n: 1, battery_avg: 70, battery_n: 1 });
    expect(row!.temperature_avg).toBeCloseTo((20 + 22 + 24 + 16) / 4, 4);
    expect(row!.co2_avg).toBe(900);
    expect(new Date(row!.bucket).toISOString()).toBe("2026-06-01T10:00:00.000Z");
  });

  it("keeps a metric's average null-safe when one side of the merge has no sample of it", async () => {
    await upsertMinuteRows(server.db, rowsFor(otherMcuId, [[60, { batteryLevel: 40 }]]));
    let [row] = await stored("reading_minutes", otherMcuId);
    expect(row).toMatchObject({ temperature_min: null, temperature_avg: null, temperature_max: null, temperature_n: 0, battery_avg: 40, battery_n: 1 });
    await upsertMinuteRows(server.db, rowsFor(otherMcuId, [[61, dht(19)], [62, dht(21)]]));
    [row] = await stored("reading_minutes", otherMcuId);
    expect(row).toMatchObject({ temperature_min: 19, temperature_avg: 20, temperature_max: 21, temperature_n: 2, battery_avg: 40, battery_n: 1 });
    // And a part without the battery leaves the battery as it was.
    await upsertMinuteRows(server.db, rowsFor(otherMcuId, [[63, dht(23)]]));
    [row] = await stored("reading_minutes", otherMcuId);
    expect(row).toMatchObject({ temperature_n: 3, battery_avg: 40, battery_n: 1 });
    expect(row!.temperature_avg).toBeCloseTo(21, 4);
  });

  it("merges the same reading delivered twice as two samples, and duplicate rows of one batch before writing", async () => {
    const twice = rowsFor(mcuId, [[120, dht(30)]]).concat(rowsFor(mcuId, [[121, dht(30)]]), rowsFor(mcuId, [[125, dht(18)]]));
    expect(twice).toHaveLength(3);
    await upsertMinuteRows(server.db, mergeDuplicates(twice));
    const minute = (await stored("reading_minutes")).find((r) => new Date(r.bucket).getTime() === s(120))!;
    expect(minute).toMatchObject({ temperature_min: 18, temperature_max: 30, temperature_n: 3 });
    expect(minute.temperature_avg).toBeCloseTo(26, 4);
  });

  it("builds hours from minutes: min of mins, max of maxes, sum of counts, average weighted by counts", async () => {
    const { db } = server;
    const id = otherMcuId;
    // 10:00 already holds 3 temperature samples from the test above; 11:xx gets two minutes of 1 and 3 samples.
    await upsertMinuteRows(db, rowsFor(id, [[3600, dht(10)], [3660, dht(20)], [3661, dht(20)], [3662, dht(20)]]));
    await recomputeHours(db, [id], s(0), s(7200));
    const hours = await stored("reading_hours", id);
    expect(hours.map((h) => new Date(h.bucket).toISOString())).toEqual(["2026-06-01T10:00:00.000Z", "2026-06-01T11:00:00.000Z"]);
    expect(hours[1]).toMatchObject({ temperature_min: 10, temperature_max: 20, temperature_n: 4, co2_n: 0, co2_avg: null });
    // (10*1 + 20*3) / 4, not the plain mean of the two minutes' averages (15).
    expect(hours[1]!.temperature_avg).toBeCloseTo(17.5, 4);
    expect(hours[0]).toMatchObject({ temperature_min: 19, temperature_max: 23, temperature_n: 3, battery_n: 1 });

    // A late minute of 11:xx: rebuilding the hour replaces it with what its minutes are now (never adds twice).
    await upsertMinuteRows(db, rowsFor(id, [[3700, dht(40)]]));
    await recomputeHours(db, [id], s(3600), s(3601));
    await recomputeHours(db, [id], s(3600), s(3601));
    const [, eleven] = await stored("reading_hours", id);
    expect(eleven).toMatchObject({ temperature_min: 10, temperature_max: 40, temperature_n: 5 });
    expect(eleven!.temperature_avg).toBeCloseTo(22, 4);
    // Only the MCUs named are rebuilt.
    expect(await stored("reading_hours", mcuId)).toEqual([]);
  });

  it("creates a missing partition when a write needs it and tries again; rows past retention are left out and counted", async () => {
    const { db } = server;
    const nowMs = Date.parse("2026-06-20T12:00:00Z");
    const fresh = rowsFor(mcuId, [[0, dht(20)]]).map((r) => ({ ...r, bucket: nowMs - (nowMs % 60_000) }));
    const old = rowsFor(mcuId, [[0, dht(20)]]).map((r) => ({ ...r, bucket: nowMs - 40 * DAY_MS }));
    expect(await partitionsRepo(db).existing("reading_minutes")).not.toContain("reading_minutes_p20260620");
    const left = await writeWithPartitions(db, "reading_minutes", [...old, ...fresh], (r) => r.bucket, nowMs - 30 * DAY_MS, (rows) => upsertMinuteRows(db, rows));
    expect(left).toBe(1);
    const partitions = await partitionsRepo(db).existing("reading_minutes");
    expect(partitions).toContain("reading_minutes_p20260620");
    expect(partitions).not.toContain("reading_minutes_p20260511");
    const buckets = (await stored("reading_minutes")).map((r) => new Date(r.bucket).toISOString());
    expect(buckets).toContain("2026-06-20T12:00:00.000Z");
    expect(buckets).not.toContain("2026-05-11T12:00:00.000Z");
  });

  it("skips the rows of an MCU deleted before they were written", async () => {
    const c = await server.signUp();
    const gone = (await seedClientData(c)).mcu.mcu_id;
    await server.db.query("delete from profile_links where mcu_id = $1", [gone]);
    await server.db.query("delete from mcus where mcu_id = $1", [gone]);
    await upsertMinuteRows(server.db, [...rowsFor(gone, [[0, dht(20)]]), ...rowsFor(mcuId, [[300, dht(5)]])]);
    expect(await stored("reading_minutes", gone)).toEqual([]);
    expect((await stored("reading_minutes")).some((r) => r.temperature_min === 5)).toBe(true);
  });
});
