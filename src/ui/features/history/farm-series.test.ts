import { describe, expect, it } from "vitest";
import type { FarmHistory } from "../../../contract/history.ts";
import { addFarmReading, dropFarmBefore, farmBufferOf, farmColumns, summarizeFarm } from "./farm-series.ts";

const MIN = 60_000;
const T0 = Date.UTC(2026, 2, 10, 12, 0);

const HISTORY: FarmHistory = {
  farm_id: 1,
  metric: "humidity",
  from: new Date(T0).toISOString(),
  to: new Date(T0 + 2 * MIN).toISOString(),
  resolution: 60,
  t: [T0, T0 + MIN],
  mcus: [
    { mcu_id: 1, name: "Room A", mac: "AA", avg: [88, 89], count: [30, 3] },
    { mcu_id: 2, name: "Room B", mac: "BB", avg: [null, 91], count: [0, 4] },
  ],
};

describe("a farm's comparison on one metric", () => {
  it("opens a bucket for a live reading after the server's and averages the readings in it", () => {
    const b = farmBufferOf(HISTORY);
    expect(addFarmReading(b, "AA", T0 + 2 * MIN + 1000, 90)).toBe(true);
    expect(addFarmReading(b, "AA", T0 + 2 * MIN + 2000, 92)).toBe(true);
    expect(addFarmReading(b, "BB", T0 + 2 * MIN + 3000, 80)).toBe(true);
    expect(b.t).toEqual([T0, T0 + MIN, T0 + 2 * MIN]);
    expect(b.mcus[0]!.avg).toEqual([88, 89, 91]);
    expect(b.mcus[1]!.avg).toEqual([null, 91, 80]);
  });

  it("weighs a live reading into the server's current bucket by the samples it already holds, and ignores MCUs of other farms", () => {
    const b = farmBufferOf(HISTORY);
    expect(addFarmReading(b, "AA", T0 + MIN + 5000, 93)).toBe(true);
    expect(b.mcus[0]!.avg).toEqual([88, 90]); // (89 × 3 + 93) / 4
    expect(b.mcus[0]!.count).toEqual([30, 4]);
    expect(addFarmReading(b, "BB", T0 + 5000, 70)).toBe(true); // a bucket Room B had no sample in
    expect(b.mcus[1]!.avg).toEqual([70, 91]);
    expect(addFarmReading(b, "AA", T0 - MIN, 50)).toBe(false); // before the range
    expect(addFarmReading(b, "CC", T0 + 3 * MIN, 50)).toBe(false);
    expect(addFarmReading(b, "AA", T0 + 3 * MIN, undefined)).toBe(false);
  });

  it("draws a line per MCU, broken where minutes are missing, and drops what a sliding range left", () => {
    const b = farmBufferOf(HISTORY);
    addFarmReading(b, "AA", T0 + 5 * MIN, 87);
    expect(farmColumns(b)).toEqual([
      [T0, T0 + MIN, T0 + 2 * MIN, T0 + 5 * MIN],
      [88, 89, null, 87],
      [null, 91, null, null],
    ]);
    expect(dropFarmBefore(b, T0 + MIN)).toBe(1);
    expect(b.t).toEqual([T0 + MIN, T0 + 5 * MIN]);
    expect(b.mcus[0]!.count).toEqual([3, 1]);
  });

  it("summarises each MCU's latest value and the spread over the range", () => {
    expect(summarizeFarm(farmBufferOf(HISTORY))).toEqual({ lines: [{ name: "Room A", latest: 89 }, { name: "Room B", latest: 91 }], min: 88, max: 91, points: 3 });
  });
});
