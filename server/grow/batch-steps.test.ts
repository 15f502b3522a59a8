import { describe, expect, it } from "vitest";
import type { ProfileConfig } from "../../src/contract/entities.ts";
import type { RecipePhase } from "../../src/contract/grow.ts";
import { applyStep, catchUp, type BatchState, type BatchStep, type StepOutcome } from "./batch-steps.ts";

const config: ProfileConfig = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 10, soil_moisture_on: 40, soil_moisture_off: 60 },
  ventilation: { co2_threshold: 5000 },
  ac: { based_on: "room_temp", target_temp: 24 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 95 },
};
const phases: RecipePhase[] = [
  { name: "Spawn run", days: 14, confirm: null, config, ramps: [] },
  { name: "Pinning", days: 5, confirm: "Pins visible", config, ramps: [] },
  { name: "Fruiting", days: 7, confirm: null, config, ramps: [] },
];
const DAY = 86_400_000;
const start = Date.parse("2026-06-01T08:00:00Z");
const fresh: BatchState = {
  phases,
  time_zone: "UTC",
  status: "running",
  phase_index: 0,
  phase_started_at: new Date(start).toISOString(),
  extra_days: 0,
  held_ms: 0,
  held_since: null,
  ended_at: null,
};
const by = "grower";

function ok(out: StepOutcome) {
  if (!out.ok) throw new Error(`refused: ${out.message}`);
  return out;
}
const refusal = (b: BatchState, step: BatchStep, now: number) => {
  const out = applyStep(b, step, now);
  return out.ok ? null : out.message;
};

describe("a batch's steps", () => {
  it("holds and resumes: the held time is added up and pushes the phase's end back", () => {
    const held = ok(applyStep(fresh, { kind: "hold", by, reason: "Contamination check" }, start + 2 * DAY));
    expect(held.state.held_since).toBe(new Date(start + 2 * DAY).toISOString());
    expect(held.event).toEqual({ at: new Date(start + 2 * DAY).toISOString(), kind: "hold", phase_index: 0, reason: "Contamination check", by, days: null });
    expect(refusal(held.state, { kind: "hold", by }, start + 3 * DAY)).toBe("The batch is already on hold");
    // Held: its time is never due.
    expect(refusal(held.state, { kind: "advance" }, start + 20 * DAY)).toBe("Nothing is due in this batch");
    const resumed = ok(applyStep(held.state, { kind: "resume", by }, start + 3 * DAY));
    expect(resumed.state).toMatchObject({ held_since: null, held_ms: DAY });
    expect(refusal(resumed.state, { kind: "resume", by }, start + 3 * DAY)).toBe("The batch is not on hold");
    // 14 days plus the day on hold.
    expect(refusal(resumed.state, { kind: "advance" }, start + 15 * DAY - 1)).toBe("Nothing is due in this batch");
    expect(ok(applyStep(resumed.state, { kind: "advance" }, start + 15 * DAY)).state.phase_index).toBe(1);
  });

  it("extends the phase by whole days, up to a year in all", () => {
    const out = ok(applyStep(fresh, { kind: "extend", days: 3, by, reason: "Slow colonisation" }, start + DAY));
    expect(out.state.extra_days).toBe(3);
    expect(out.event).toMatchObject({ kind: "extend", days: 3, reason: "Slow colonisation" });
    expect(refusal(out.state, { kind: "advance" }, start + 14 * DAY)).toBe("Nothing is due in this batch");
    expect(ok(applyStep(out.state, { kind: "advance" }, start + 17 * DAY)).event.at).toBe(new Date(start + 17 * DAY).toISOString());
    expect(refusal({ ...fresh, extra_days: 340 }, { kind: "extend", days: 20, by }, start)).toBe("A phase lasts at most 365 days");
  });

  it("skips to the next phase now, afresh: no extra days, nothing held", () => {
    const messy = { ...fresh, extra_days: 2, held_ms: 5000, held_since: new Date(start + DAY).toISOString() };
    const out = ok(applyStep(messy, { kind: "skip", by }, start + 2 * DAY));
    expect(out.state).toMatchObject({ phase_index: 1, phase_started_at: new Date(start + 2 * DAY).toISOString(), extra_days: 0, held_ms: 0, held_since: null });
    expect(out.event).toMatchObject({ kind: "skip", phase_index: 0 });
  });

  it("confirms only a phase that waits for it, and at any time in that phase", () => {
    expect(refusal(fresh, { kind: "confirm", by }, start)).toBe("This phase does not wait for a confirmation");
    const pinning = { ...fresh, phase_index: 1, phase_started_at: new Date(start + 14 * DAY).toISOString() };
    const out = ok(applyStep(pinning, { kind: "confirm", by, reason: "Pins on every bag" }, start + 16 * DAY));
    expect(out.state).toMatchObject({ phase_index: 2, phase_started_at: new Date(start + 16 * DAY).toISOString() });
    expect(out.event).toMatchObject({ kind: "confirm", phase_index: 1, by, reason: "Pins on every bag" });
  });

  it("ends the batch, after which nothing is possible", () => {
    const out = ok(applyStep(fresh, { kind: "end", by, reason: "Contaminated" }, start + DAY));
    expect(out.state).toMatchObject({ status: "ended", ended_at: new Date(start + DAY).toISOString() });
    for (const step of [{ kind: "hold", by }, { kind: "skip", by }, { kind: "end", by }, { kind: "advance" }] as BatchStep[]) {
      expect(refusal(out.state, step, start + 2 * DAY)).toBe("This batch has ended");
    }
  });

  it("advances a timed phase at its due time, however late it is seen", () => {
    expect(refusal(fresh, { kind: "advance" }, start + 14 * DAY - 1)).toBe("Nothing is due in this batch");
    const out = ok(applyStep(fresh, { kind: "advance" }, start + 14 * DAY + 3_600_000));
    expect(out.state).toMatchObject({ phase_index: 1, phase_started_at: new Date(start + 14 * DAY).toISOString() });
    expect(out.event).toEqual({ at: new Date(start + 14 * DAY).toISOString(), kind: "advance", phase_index: 0, reason: null, by: null, days: null });
    // A phase that waits is not advanced by time; it moves on at its maximum.
    expect(refusal(out.state, { kind: "advance" }, start + 19 * DAY)).toBe("Nothing is due in this batch");
    const max = ok(applyStep(out.state, { kind: "maximum" }, start + 19 * DAY + 1));
    expect(max.state).toMatchObject({ phase_index: 2, phase_started_at: new Date(start + 19 * DAY).toISOString() });
    expect(max.event).toMatchObject({ kind: "maximum", phase_index: 1 });
  });

  it("ends the batch when it moves past its last phase", () => {
    const last = { ...fresh, phase_index: 2 };
    const out = ok(applyStep(last, { kind: "advance" }, start + 8 * DAY));
    expect(out.state).toMatchObject({ status: "ended", phase_index: 2, ended_at: new Date(start + 7 * DAY).toISOString() });
    expect(ok(applyStep(last, { kind: "skip", by }, start)).state.status).toBe("ended");
  });

  it("catches up a batch started in the past, each step at its due time", () => {
    const { state, events } = catchUp(fresh, start + 20 * DAY);
    expect(state).toMatchObject({ phase_index: 2, phase_started_at: new Date(start + 19 * DAY).toISOString(), status: "running" });
    expect(events.map((e) => [e.kind, e.phase_index, e.at])).toEqual([
      ["advance", 0, new Date(start + 14 * DAY).toISOString()],
      ["maximum", 1, new Date(start + 19 * DAY).toISOString()],
    ]);
    expect(catchUp(fresh, start + 40 * DAY).state.status).toBe("ended");
    expect(catchUp(fresh, start + DAY).events).toEqual([]);
  });
});
