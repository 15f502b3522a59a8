import { describe, expect, it } from "vitest";
import { batchRecord, DAY, T0 } from "../test-support/batches.ts";
import { createMcuGrowIndex } from "./mcu-grow.ts";

describe("the batch each MCU follows, as its cards say it", () => {
  it("names the running batch and where it is, for each of its MCUs", () => {
    const index = createMcuGrowIndex();
    const batches = [batchRecord({ mcu_ids: [1, 2] }), batchRecord({ batch_id: 2, name: "Old", status: "ended", mcu_ids: [3] })];
    const views = index(batches, T0 + 2.5 * DAY);
    expect(views.get(1)).toEqual({
      batchId: 1,
      batchName: "Oyster 1",
      label: "Spawn run · day 3 of 14",
      place: { state: "day", phase: "Spawn run", day: 3, days: 14 },
      config: batches[0]!.phases[0]!.config,
    });
    expect(views.get(2)).toEqual(views.get(1));
    // An ended batch is history: its room follows nothing.
    expect(views.has(3)).toBe(false);
  });

  it("keeps an MCU's view while its words are the same, and makes a new one when the day changes", () => {
    const index = createMcuGrowIndex();
    const batches = [batchRecord({ mcu_ids: [1] })];
    const first = index(batches, T0 + 2.1 * DAY).get(1);
    expect(index(batches, T0 + 2.6 * DAY).get(1)).toBe(first);
    // A new list (a live patch) with the same words keeps the object too.
    expect(index([batchRecord({ mcu_ids: [1] })], T0 + 2.7 * DAY).get(1)).toBe(first);
    const next = index(batches, T0 + 3.1 * DAY).get(1);
    expect(next).not.toBe(first);
    expect(next?.label).toBe("Spawn run · day 4 of 14");
  });

  it("says when a phase waits for the grower, and when the batch is on hold", () => {
    const index = createMcuGrowIndex();
    const pinning = batchRecord({ mcu_ids: [1], phase_index: 1, phase_started_at: new Date(T0).toISOString() });
    expect(index([pinning], T0 + 2.5 * DAY).get(1)?.label).toBe("Pinning · day 3 · waiting: Pins visible");
    expect(index([pinning], T0 + 2.5 * DAY).get(1)?.place).toEqual({ state: "waiting", phase: "Pinning", day: 3, confirm: "Pins visible" });
    const held = batchRecord({ mcu_ids: [1], held_since: new Date(T0 + DAY).toISOString() });
    expect(index([held], T0 + 5 * DAY).get(1)?.label).toBe("Spawn run · on hold");
    expect(index([held], T0 + 5 * DAY).get(1)?.place).toEqual({ state: "held", phase: "Spawn run" });
  });
});
