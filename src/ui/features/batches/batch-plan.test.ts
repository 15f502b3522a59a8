import { describe, expect, it } from "vitest";
import { batchRecord as batchOf, DAY, T0 } from "../../../test-support/batches.ts";
import { biologicalEfficiency, harvestTotalKg, nextFlush, overallFraction, plannedPhases } from "./batch-plan.ts";

describe("plannedPhases", () => {
  it("plans a new batch's phases one after another, each its days long", () => {
    const plan = plannedPhases(batchOf({}), T0 + DAY);
    expect(plan.map((p) => [p.phase.name, p.state, (p.start - T0) / DAY, (p.end - T0) / DAY])).toEqual([
      ["Spawn run", "current", 0, 14],
      ["Pinning", "planned", 14, 21],
      ["Fruiting", "planned", 21, 31],
    ]);
  });

  it("dates past phases by the events that ended them and plans the rest from the current phase's end", () => {
    const confirmedAt = T0 + 17 * DAY;
    const b = batchOf({
      phase_index: 2,
      phase_started_at: new Date(confirmedAt).toISOString(),
      extra_days: 2,
      events: [
        { at: new Date(T0 + 14 * DAY).toISOString(), kind: "advance", phase_index: 0, reason: null, by: null, days: null },
        { at: new Date(confirmedAt).toISOString(), kind: "confirm", phase_index: 1, reason: null, by: "demo", days: null },
      ],
    });
    const plan = plannedPhases(b, confirmedAt + DAY);
    expect(plan.map((p) => [p.state, (p.start - T0) / DAY, (p.end - T0) / DAY])).toEqual([
      ["done", 0, 14],
      ["done", 14, 17],
      // Its 10 days and the 2 it was extended by.
      ["current", 17, 29],
    ]);
  });

  it("moves the current phase's end and the later phases by the time on hold", () => {
    const b = batchOf({ held_since: new Date(T0 + 2 * DAY).toISOString(), held_ms: DAY });
    const plan = plannedPhases(b, T0 + 5 * DAY);
    // One day held before, three days held since: four days later than planned.
    expect((plan[0]!.end - T0) / DAY).toBe(18);
    expect((plan[1]!.start - T0) / DAY).toBe(18);
  });

  it("counts days in the batch's time zone: a phase across a daylight-saving change ends at the same local time", () => {
    const start = Date.parse("2026-10-20T06:00:00Z"); // 08:00 in Berlin (summer time)
    const b = batchOf({ time_zone: "Europe/Berlin", started_at: new Date(start).toISOString(), phase_started_at: new Date(start).toISOString() });
    const plan = plannedPhases(b, start);
    // Clocks go back on 25 Oct: 14 days later 08:00 is 07:00 UTC.
    expect(new Date(plan[0]!.end).toISOString()).toBe("2026-11-03T07:00:00.000Z");
  });

  it("marks the phases an ended batch never reached as not run, at its end", () => {
    const endedAt = T0 + 3 * DAY;
    const plan = plannedPhases(batchOf({ status: "ended", ended_at: new Date(endedAt).toISOString() }), T0 + 10 * DAY);
    expect(plan.map((p) => [p.state, p.start, p.end])).toEqual([
      ["done", T0, endedAt],
      ["not-run", endedAt, endedAt],
      ["not-run", endedAt, endedAt],
    ]);
  });
});

describe("yield", () => {
  const harvests = [
    { harvest_id: 1, flush: 1, at: "", fresh_kg: 4.1, note: "" },
    { harvest_id: 2, flush: 2, at: "", fresh_kg: 2.2, note: "" },
  ];

  it("adds the flushes' fresh weights without float noise", () => {
    expect(harvestTotalKg({ harvests })).toBe(6.3);
  });

  it("gives the biological efficiency as fresh weight per dry substrate in percent, only with a dry weight", () => {
    expect(biologicalEfficiency(6.3, 9)).toBeCloseTo(70);
    expect(biologicalEfficiency(6.3, null)).toBeNull();
    expect(biologicalEfficiency(6.3, 0)).toBeNull();
  });

  it("numbers the next flush one after the highest", () => {
    expect(nextFlush({ harvests: [] })).toBe(1);
    expect(nextFlush({ harvests })).toBe(3);
  });

  it("weighs the whole batch's progress by the phases' days", () => {
    const plan = plannedPhases(batchOf({}), T0);
    // Half of the 14-day spawn run out of 31 days.
    expect(overallFraction(plan, 0.5)).toBeCloseTo(7 / 31);
  });
});
