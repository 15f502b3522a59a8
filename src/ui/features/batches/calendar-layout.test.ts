import { describe, expect, it } from "vitest";
import { batchRecord, DAY, T0 } from "../../../test-support/batches.ts";
import { mcuRecord } from "../../../test-support/records.ts";
import { calendarLayout } from "./calendar-layout.ts";
import { formatDay } from "./zone-dates.ts";
import { startTexts } from "../../../test-support/i18n.ts";

// The texts are the catalogue's, in English.
await startTexts();

const mcus = [mcuRecord(0), mcuRecord(1), mcuRecord(100)];

describe("calendarLayout", () => {
  it("spans the days around today in the viewer's zone, today marked", () => {
    const now = T0 + 3 * DAY + 5 * 3_600_000; // 13:00 UTC on 4 Nov
    const { days, todayAt } = calendarLayout({ batches: [], mcus, now, timeZone: "UTC", daysBefore: 7, daysAfter: 21 });
    expect(days).toHaveLength(28);
    expect(new Date(days[0]!.start).toISOString()).toBe("2026-10-28T00:00:00.000Z");
    expect(days.filter((d) => d.today).map((d) => d.date)).toEqual([4]);
    // The 8th column, 13/24 of the way through it.
    expect(todayAt).toBeCloseTo((7 + 13 / 24) / 28);
    expect(days.filter((d) => d.monthStart).map((d) => d.date)).toEqual([28, 1]);
  });

  it("puts each farm's MCUs in rows and a batch's bar in the row of each of its MCUs", () => {
    const batch = batchRecord({ mcu_ids: [1, 101] });
    const { farms } = calendarLayout({ batches: [batch], mcus, now: T0 + DAY, timeZone: "UTC" });
    expect(farms.map((f) => [f.name, f.rows.map((r) => [r.name, r.bars.length])])).toEqual([
      ["Farm 1", [["Room 1", 1], ["Room 2", 0]]],
      ["Farm 2", [["Room 101", 1]]],
    ]);
  });

  it("splits a bar into its phases by their planned days and names the phase under way with its dates", () => {
    const now = T0 + DAY;
    const { farms, days } = calendarLayout({ batches: [batchRecord()], mcus, now, timeZone: "UTC", daysBefore: 14, daysAfter: 42 });
    const bar = farms[0]!.rows[0]!.bars[0]!;
    // Today (2 Nov) is the 15th column: the batch starts at 08:00 the day before, 31 days long.
    expect(bar.left).toBeCloseTo((13 + 8 / 24) / days.length);
    expect(bar.width).toBeCloseTo(31 / days.length);
    expect(bar.segments.map((s) => [s.name, s.state])).toEqual([
      ["Spawn run", "current"],
      ["Pinning", "planned"],
      ["Fruiting", "planned"],
    ]);
    expect(bar.segments.map((s) => s.width * 31)).toEqual([expect.closeTo(14), expect.closeTo(7), expect.closeTo(10)]);
    expect(bar.segments[1]!.left).toBeCloseTo(14 / 31);
    expect(bar.label).toBe(`Batch Oyster 1, Spawn run, ${formatDay(T0, "UTC")} to ${formatDay(T0 + 14 * DAY, "UTC")}`);
  });

  it("clips a bar to the calendar and leaves out batches wholly outside it", () => {
    const longAgo = batchRecord({ batch_id: 2, status: "ended", ended_at: new Date(T0 - 30 * DAY).toISOString(), started_at: new Date(T0 - 60 * DAY).toISOString(), phase_started_at: new Date(T0 - 60 * DAY).toISOString() });
    const { farms } = calendarLayout({ batches: [longAgo, batchRecord()], mcus, now: T0 + 20 * DAY, timeZone: "UTC", daysBefore: 7, daysAfter: 7 });
    const bars = farms[0]!.rows[0]!.bars;
    expect(bars.map((b) => b.batch.batch_id)).toEqual([1]);
    expect(bars[0]!.left).toBe(0);
    expect(bars[0]!.left + bars[0]!.width).toBe(1);
  });

  it("names an ended batch's bar by its whole run", () => {
    const ended = batchRecord({ status: "ended", ended_at: new Date(T0 + 3 * DAY).toISOString() });
    const bar = calendarLayout({ batches: [ended], mcus, now: T0 + 5 * DAY, timeZone: "UTC" }).farms[0]!.rows[0]!.bars[0]!;
    expect(bar.label).toBe(`Batch Oyster 1, ended, ${formatDay(T0, "UTC")} to ${formatDay(T0 + 3 * DAY, "UTC")}`);
    expect(bar.segments.map((s) => s.state)).toEqual(["done"]);
  });
});
