import { describe, expect, it } from "vitest";
import type { LiveReading } from "../../src/contract/entities.ts";
import { mergeDuplicates, metricOf, MinuteRollups, type MinuteRow } from "./rollups.ts";

const T0 = Date.parse("2026-06-01T10:00:00Z");
const s = (seconds: number) => T0 + seconds * 1000;

const reading = (temperature: number, humidity: number, extra: Partial<LiveReading> = {}): LiveReading => ({
  DHT: { temperature, humidity, count: 1 },
  ...extra,
});

/** The finished rows, as plain numbers per metric. */
function rowsOf(rollups: MinuteRollups) {
  return rollups.take().map((r) => ({
    mcuId: r.mcuId,
    bucket: new Date(r.bucket).toISOString(),
    temperature: metricOf(r.values, "temperature"),
    humidity: metricOf(r.values, "humidity"),
    soil_temperature: metricOf(r.values, "soil_temperature"),
    co2: metricOf(r.values, "co2"),
    soil_moisture: metricOf(r.values, "soil_moisture"),
    battery: metricOf(r.values, "battery"),
  }));
}

const none = { min: null, avg: null, max: null, n: 0 };

describe("minute rollups in memory", () => {
  it("keeps min, average, max and count of each metric per MCU and minute of arrival", () => {
    const rollups = new MinuteRollups();
    rollups.put(1, reading(20, 80, { CO2: { co2: 900, count: 1 }, batteryLevel: 81 }), s(0));
    rollups.put(1, reading(22, 84, { CO2: { co2: 1100, count: 1 }, batteryLevel: 80 }), s(20));
    rollups.put(1, reading(21, 82, { batteryLevel: 80 }), s(59.999));
    rollups.put(2, reading(15, 90), s(30));
    rollups.harvest(s(60));
    const rows = rowsOf(rollups);
    expect(rows).toEqual([
      {
        mcuId: 1,
        bucket: "2026-06-01T10:00:00.000Z",
        temperature: { min: 20, avg: 21, max: 22, n: 3 },
        humidity: { min: 80, avg: 82, max: 84, n: 3 },
        soil_temperature: none,
        co2: { min: 900, avg: 1000, max: 1100, n: 2 },
        soil_moisture: none,
        battery: { min: 80, avg: (81 + 80 + 80) / 3, max: 81, n: 3 },
      },
      expect.objectContaining({ mcuId: 2, temperature: { min: 15, avg: 15, max: 15, n: 1 }, humidity: { min: 90, avg: 90, max: 90, n: 1 } }),
    ]);
  });

  it("closes a minute when the MCU's next reading belongs to the next one", () => {
    const rollups = new MinuteRollups();
    rollups.put(1, reading(20, 80), s(50));
    rollups.put(1, reading(30, 90), s(60)); // the first instant of the next minute
    rollups.put(1, reading(10, 70), s(119));
    // Still in the second minute: only the first is finished.
    expect(rowsOf(rollups).map((r) => [r.bucket, r.temperature])).toEqual([["2026-06-01T10:00:00.000Z", { min: 20, avg: 20, max: 20, n: 1 }]]);
    rollups.harvest(s(119.5));
    expect(rowsOf(rollups)).toEqual([]);
    rollups.harvest(s(120));
    expect(rowsOf(rollups).map((r) => [r.bucket, r.temperature])).toEqual([["2026-06-01T10:01:00.000Z", { min: 10, avg: 20, max: 30, n: 2 }]]);
  });

  it("reads each metric where the device put it: DHT, SOIL_TEMP, CO2, MOISTURE, batteryLevel", () => {
    const rollups = new MinuteRollups();
    rollups.put(
      1,
      {
        DHT: { temperature: 19.5, humidity: 88, count: 2 },
        SOIL_TEMP: { soil_temperature: 17.25, count: 1 },
        CO2: { co2: 1250, count: 1 },
        MOISTURE: { soil_moisture: 42.5, count: 1 },
        batteryLevel: 23,
      },
      s(5),
    );
    rollups.harvest(s(60));
    const [row] = rowsOf(rollups);
    expect(row).toMatchObject({
      temperature: { min: 19.5, avg: 19.5, max: 19.5, n: 1 },
      humidity: { min: 88, avg: 88, max: 88, n: 1 },
      soil_temperature: { min: 17.25, avg: 17.25, max: 17.25, n: 1 },
      co2: { min: 1250, avg: 1250, max: 1250, n: 1 },
      soil_moisture: { min: 42.5, avg: 42.5, max: 42.5, n: 1 },
      battery: { min: 23, avg: 23, max: 23, n: 1 },
    });
  });

  it("counts a metric missing from some readings only where it was sent; a minute with no metric at all is no row", () => {
    const rollups = new MinuteRollups();
    rollups.put(1, { batteryLevel: 50 }, s(1));
    rollups.put(1, reading(18, 85), s(2));
    rollups.put(1, { batteryLevel: 48 }, s(3));
    // Controllers only: nothing to keep.
    rollups.put(2, { AC: { status: true, auto: true } }, s(4));
    rollups.harvest(s(60));
    const rows = rowsOf(rollups);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ mcuId: 1, temperature: { min: 18, avg: 18, max: 18, n: 1 }, battery: { min: 48, avg: 49, max: 50, n: 2 }, co2: none });
  });

  it("counts a duplicated reading twice (as the device sent it), which leaves min, max and average as they were", () => {
    const rollups = new MinuteRollups();
    const r = reading(21, 80);
    rollups.put(1, r, s(10));
    rollups.put(1, r, s(10));
    rollups.harvest(s(60));
    expect(rowsOf(rollups)[0]!.temperature).toEqual({ min: 21, avg: 21, max: 21, n: 2 });
  });

  it("ignores values that are no number a sensor reads (Infinity from a JSON 1e999)", () => {
    const rollups = new MinuteRollups();
    rollups.put(1, reading(Infinity, 80), s(1));
    rollups.put(1, reading(20, Number.NaN), s(2));
    rollups.harvest(s(60));
    const [row] = rowsOf(rollups);
    expect(row!.temperature).toEqual({ min: 20, avg: 20, max: 20, n: 1 });
    expect(row!.humidity).toEqual({ min: 80, avg: 80, max: 80, n: 1 });
  });

  it("harvests the minutes of MCUs that went quiet, the current one only when asked (shutdown), and starts it afresh after", () => {
    const rollups = new MinuteRollups();
    rollups.put(1, reading(20, 80), s(10));
    rollups.put(2, reading(25, 70), s(70));
    rollups.harvest(s(75));
    expect(rowsOf(rollups).map((r) => r.mcuId)).toEqual([1]);
    rollups.harvest(s(80), { all: true });
    expect(rowsOf(rollups).map((r) => [r.mcuId, r.bucket])).toEqual([[2, "2026-06-01T10:01:00.000Z"]]);
    // The rest of that minute is a second row of it: the database merges the two.
    rollups.put(2, reading(27, 70), s(90));
    rollups.harvest(s(120));
    expect(rowsOf(rollups).map((r) => [r.mcuId, r.bucket, r.temperature])).toEqual([[2, "2026-06-01T10:01:00.000Z", { min: 27, avg: 27, max: 27, n: 1 }]]);
  });

  it("forgets an MCU quiet for an hour", () => {
    const rollups = new MinuteRollups();
    rollups.put(1, reading(20, 80), s(0));
    rollups.put(2, reading(20, 80), s(0));
    rollups.harvest(s(60));
    expect(rollups.size).toBe(2);
    rollups.put(2, reading(20, 80), s(3600));
    rollups.harvest(s(3700));
    expect(rollups.size).toBe(1);
  });

  it("merges rows of the same MCU and minute before they are written in one statement", () => {
    const row = (mcuId: number, bucket: number, t: number[]): MinuteRow => {
      const r = new MinuteRollups();
      for (const x of t) r.put(mcuId, reading(x, 50), bucket);
      r.harvest(bucket, { all: true });
      return r.take()[0]!;
    };
    const merged = mergeDuplicates([row(1, s(0), [10, 20]), row(2, s(0), [5]), row(1, s(0), [40]), row(1, s(60), [7])]);
    expect(merged.map((r) => [r.mcuId, r.bucket, metricOf(r.values, "temperature")])).toEqual([
      [1, s(0), { min: 10, avg: 70 / 3, max: 40, n: 3 }],
      [2, s(0), { min: 5, avg: 5, max: 5, n: 1 }],
      [1, s(60), { min: 7, avg: 7, max: 7, n: 1 }],
    ]);
  });
});
