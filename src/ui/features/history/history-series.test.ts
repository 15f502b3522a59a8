import { describe, expect, it } from "vitest";
import type { McuHistory } from "../../../contract/history.ts";
import { addReading, bufferOf, chartColumns, dropBefore, metricsWithData, pointCount, readingValues, summarize } from "./history-series.ts";

const MIN = 60_000;
const T0 = Date.UTC(2026, 2, 10, 12, 0);

/** Three minutes of temperature (the middle one empty of humidity), as the server answers them. */
function answer(): McuHistory {
  return {
    mcu_id: 1,
    from: new Date(T0).toISOString(),
    to: new Date(T0 + 3 * MIN).toISOString(),
    resolution: 60,
    t: [T0, T0 + MIN, T0 + 2 * MIN],
    series: {
      temperature: { min: [18, 18.5, 19], avg: [18.5, 19, 19.5], max: [19, 19.5, 20], count: [4, 4, 4] },
      humidity: { min: [85, null, 87], avg: [86, null, 88], max: [87, null, 89], count: [2, 0, 2] },
    },
  };
}

describe("an MCU's history on the detail page", () => {
  it("keeps the server's buckets and knows which metrics have data", () => {
    const b = bufferOf(answer());
    expect(metricsWithData(b)).toEqual(["temperature", "humidity"]);
    expect(pointCount(b, "temperature")).toBe(3);
    expect(pointCount(b, "humidity")).toBe(2);
    expect(pointCount(b, "co2")).toBe(0);
  });

  it("folds a reading in the last minute into that minute: running average, min, max, count", () => {
    const b = bufferOf(answer());
    expect(addReading(b, T0 + 2 * MIN + 30_000, { temperature: 22, humidity: 80 })).toBe(true);
    expect(b.t.length).toBe(3);
    expect(b.columns.temperature.avg[2]).toBeCloseTo((19.5 * 4 + 22) / 5);
    expect(b.columns.temperature.max[2]).toBe(22);
    expect(b.columns.temperature.min[2]).toBe(19);
    expect(b.columns.temperature.count[2]).toBe(5);
    expect(b.columns.humidity.min[2]).toBe(80);
  });

  it("appends a new bucket for a reading in a new minute, and the chart grows by one point", () => {
    const b = bufferOf(answer());
    const before = chartColumns(b, "temperature")[0].length;
    addReading(b, T0 + 3 * MIN + 1, { temperature: 21 });
    expect(b.t).toEqual([T0, T0 + MIN, T0 + 2 * MIN, T0 + 3 * MIN]);
    expect(b.columns.temperature.avg[3]).toBe(21);
    expect(b.columns.humidity.count[3]).toBe(0);
    expect(chartColumns(b, "temperature")[0].length).toBe(before + 1);
  });

  it("puts a late reading into its listed bucket and drops one whose bucket is not listed", () => {
    const b = bufferOf(answer());
    expect(addReading(b, T0 + MIN + 5, { humidity: 90 })).toBe(true);
    expect(b.columns.humidity.avg[1]).toBe(90);
    expect(b.columns.humidity.count[1]).toBe(1);
    expect(addReading(b, T0 - 10 * MIN, { humidity: 90 })).toBe(false);
    expect(addReading(b, T0 + 3 * MIN, {})).toBe(false);
  });

  it("breaks the line where minutes are missing instead of joining across the silence", () => {
    const b = bufferOf(answer());
    addReading(b, T0 + 10 * MIN, { temperature: 20 });
    const [x, , , avg] = chartColumns(b, "temperature");
    expect(x).toEqual([T0, T0 + MIN, T0 + 2 * MIN, T0 + 3 * MIN, T0 + 10 * MIN]);
    expect(avg).toEqual([18.5, 19, 19.5, null, 20]);
    // Humidity's single empty minute is no gap: minutes 0 and 2 are joined.
    expect(chartColumns(b, "humidity")[3]).toEqual([86, 88]);
  });

  it("drops the buckets a sliding range has left behind", () => {
    const b = bufferOf(answer());
    expect(dropBefore(b, T0 + MIN + 1)).toBe(1);
    expect(b.t).toEqual([T0 + MIN, T0 + 2 * MIN]);
    expect(b.columns.temperature.avg).toEqual([19, 19.5]);
  });

  it("summarises a metric: the latest average, the lowest low, the highest high", () => {
    expect(summarize(bufferOf(answer()), "temperature")).toEqual({ latest: 19.5, latestAt: T0 + 2 * MIN, latestSamples: 4, min: 18, max: 20, points: 3 });
    expect(summarize(bufferOf(answer()), "co2")).toEqual({ latest: null, latestAt: null, latestSamples: 0, min: null, max: null, points: 0 });
  });

  it("names a live reading's values as the history does", () => {
    expect(
      readingValues({ DHT: { temperature: 18, humidity: 90, count: 2 }, SOIL_TEMP: { soil_temperature: 17, count: 1 }, CO2: { co2: 800, count: 1 }, MOISTURE: { soil_moisture: 55, count: 1 }, batteryLevel: 70 }),
    ).toEqual({ temperature: 18, humidity: 90, soil_temperature: 17, co2: 800, soil_moisture: 55, battery: 70 });
    expect(readingValues({ AC: { status: true, auto: true } })).toEqual({});
  });
});
