import { describe, expect, it } from "vitest";
import type { ProfileConfig } from "./entities.ts";
import { addLocalDays, batchProgress, dueStep, phaseConfigAt, progressLabel, type BatchPlanState, type RecipePhase } from "./grow.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const config: ProfileConfig = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 10, soil_moisture_on: 40, soil_moisture_off: 60 },
  ventilation: { co2_threshold: 1500 },
  ac: { based_on: "room_temp", target_temp: 21 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 95 },
};
const airing: RecipePhase = {
  name: "Airing",
  days: 10,
  confirm: null,
  config,
  ramps: [
    { setting: "ac.target_temp", to: 18 },
    { setting: "ventilation.co2_threshold", to: 1000 },
  ],
};
const pinning: RecipePhase = { name: "Pinning", days: 5, confirm: "Pins visible", config, ramps: [] };

const plan = (over: Partial<BatchPlanState> & { phase_started_at: string }): BatchPlanState & { status: "running" | "ended" } => ({
  phases: [airing, pinning],
  phase_index: 0,
  extra_days: 0,
  held_ms: 0,
  held_since: null,
  time_zone: "UTC",
  status: "running",
  ...over,
});

describe("ramps", () => {
  it("move linearly from the phase's value to their end, in tenths, and stop at the ends", () => {
    expect(phaseConfigAt(airing, 0).ac.target_temp).toBe(21);
    expect(phaseConfigAt(airing, 0.5)).toMatchObject({ ac: { target_temp: 19.5 }, ventilation: { co2_threshold: 1250 } });
    expect(phaseConfigAt(airing, 1 / 3).ac.target_temp).toBe(20);
    expect(phaseConfigAt(airing, 0.01).ac.target_temp).toBe(21);
    expect(phaseConfigAt(airing, 0.02).ac.target_temp).toBe(20.9);
    expect(phaseConfigAt(airing, 1).ac.target_temp).toBe(18);
    expect(phaseConfigAt(airing, 7).ac.target_temp).toBe(18);
    expect(phaseConfigAt(airing, -1).ac.target_temp).toBe(21);
    // The phase's own config is untouched; settings without a ramp stay.
    expect(airing.config.ac.target_temp).toBe(21);
    expect(phaseConfigAt(airing, 0.5).humidifier).toEqual(config.humidifier);
  });

  it("follow the batch's time: a quarter of the phase is a quarter of the way", () => {
    const start = Date.parse("2026-06-01T06:00:00Z");
    const b = plan({ phase_started_at: new Date(start).toISOString() });
    expect(batchProgress(b, start + 2.5 * DAY).config.ac.target_temp).toBe(20.3);
    expect(batchProgress(b, start + 2.5 * DAY)).toMatchObject({ day: 3, days: 10, fraction: 0.25, held: false, waiting: false, next: pinning });
  });
});

describe("days in a time zone", () => {
  it("add calendar days at the same local time: 23 hours over the spring change, 25 over the autumn one", () => {
    // Europe/Paris: 2026-03-29 02:00 → 03:00, 2026-10-25 03:00 → 02:00.
    const spring = Date.parse("2026-03-28T08:00:00+01:00");
    expect(addLocalDays(spring, 1, "Europe/Paris") - spring).toBe(23 * HOUR);
    expect(new Date(addLocalDays(spring, 1, "Europe/Paris")).toISOString()).toBe("2026-03-29T06:00:00.000Z");
    const autumn = Date.parse("2026-10-24T08:00:00+02:00");
    expect(addLocalDays(autumn, 1, "Europe/Paris") - autumn).toBe(25 * HOUR);
    expect(addLocalDays(autumn, 2, "Europe/Paris") - autumn).toBe(49 * HOUR);
    expect(addLocalDays(autumn, 1, "UTC") - autumn).toBe(DAY);
    // A start in the hour the clocks skip lands after the gap.
    expect(new Date(addLocalDays(Date.parse("2026-03-28T02:30:00+01:00"), 1, "Europe/Paris")).toISOString()).toBe("2026-03-29T01:30:00.000Z");
  });

  it("count a phase's days and its end in the batch's zone across a daylight-saving change", () => {
    const start = Date.parse("2026-03-28T08:00:00+01:00");
    const b = plan({ phase_started_at: new Date(start).toISOString(), time_zone: "Europe/Paris", phases: [{ ...airing, days: 2 }, pinning] });
    // Day 2 starts at 08:00 local on the 29th, 23 hours later.
    expect(batchProgress(b, start + 23 * HOUR - 1).day).toBe(1);
    expect(batchProgress(b, start + 23 * HOUR).day).toBe(2);
    // Two local days: 47 hours.
    expect(batchProgress(b, start).endsAt - start).toBe(47 * HOUR);
    expect(dueStep(b, start + 47 * HOUR - 1)).toBeNull();
    expect(dueStep(b, start + 47 * HOUR)).toBe("advance");
    // Half way by time is half of 47 hours.
    expect(batchProgress(b, start + 23.5 * HOUR).fraction).toBeCloseTo(0.5, 10);

    const autumn = Date.parse("2026-10-24T08:00:00+02:00");
    const a = plan({ phase_started_at: new Date(autumn).toISOString(), time_zone: "Europe/Paris", phases: [{ ...airing, days: 2 }, pinning] });
    expect(batchProgress(a, autumn + 25 * HOUR - 1).day).toBe(1);
    expect(batchProgress(a, autumn + 25 * HOUR).day).toBe(2);
    expect(batchProgress(a, autumn).endsAt - autumn).toBe(49 * HOUR);
  });

  it("count the days the phase was extended by", () => {
    const start = Date.parse("2026-06-01T06:00:00Z");
    const b = plan({ phase_index: 1, phase_started_at: new Date(start).toISOString(), extra_days: 2 });
    expect(batchProgress(b, start + 6 * DAY)).toMatchObject({ day: 7, days: 7 });
    expect(batchProgress(b, start).endsAt).toBe(start + 7 * DAY);
  });
});

describe("hold", () => {
  it("freezes the ramp and the day count, and pushes the end back by the time held", () => {
    const start = Date.parse("2026-06-01T06:00:00Z");
    const heldAt = start + 2 * DAY;
    const held = plan({ phase_started_at: new Date(start).toISOString(), held_since: new Date(heldAt).toISOString() });
    const atHold = batchProgress(held, heldAt);
    const later = batchProgress(held, heldAt + 3 * DAY);
    expect(later.config).toEqual(atHold.config);
    expect(later).toMatchObject({ day: 3, fraction: 0.2, held: true, waiting: false });
    expect(later.endsAt).toBe(start + 13 * DAY);
    expect(progressLabel(later)).toBe("Airing · on hold");
    expect(dueStep(held, start + 30 * DAY)).toBeNull();

    // Resumed after 3 days: the ramp goes on from where it stopped.
    const resumed = plan({ phase_started_at: new Date(start).toISOString(), held_ms: 3 * DAY });
    expect(batchProgress(resumed, heldAt + 3 * DAY).config).toEqual(atHold.config);
    expect(batchProgress(resumed, heldAt + 4 * DAY).fraction).toBeCloseTo(0.3, 10);
    expect(dueStep(resumed, start + 13 * DAY - 1)).toBeNull();
    expect(dueStep(resumed, start + 13 * DAY)).toBe("advance");
  });
});

describe("dueStep", () => {
  const start = Date.parse("2026-06-01T06:00:00Z");
  it("is advance for a timed phase that is over, maximum for a waiting one at its maximum, else nothing", () => {
    const b = plan({ phase_started_at: new Date(start).toISOString() });
    expect(dueStep(b, start)).toBeNull();
    expect(dueStep(b, start + 10 * DAY)).toBe("advance");
    const waiting = plan({ phase_index: 1, phase_started_at: new Date(start).toISOString() });
    const p = batchProgress(waiting, start + 5 * DAY - 1);
    // It waits for the grower throughout; the plan moves it on only at its maximum.
    expect(p.waiting).toBe(true);
    expect(progressLabel(p)).toBe("Pinning · day 5 · waiting: Pins visible");
    expect(dueStep(waiting, start + 5 * DAY - 1)).toBeNull();
    expect(dueStep(waiting, start + 5 * DAY)).toBe("maximum");
    expect(dueStep({ ...waiting, status: "ended" }, start + 50 * DAY)).toBeNull();
    expect(dueStep({ ...waiting, held_since: new Date(start + DAY).toISOString() }, start + 50 * DAY)).toBeNull();
  });

  it("shows a phase that waits for the grower as waiting, its extension moving its maximum, and not while on hold", () => {
    const waiting = plan({ phase_index: 1, phase_started_at: new Date(start).toISOString(), extra_days: 1 });
    expect(progressLabel(batchProgress(waiting, start + 5 * DAY))).toBe("Pinning · day 6 · waiting: Pins visible");
    expect(dueStep(waiting, start + 6 * DAY - 1)).toBeNull();
    expect(dueStep(waiting, start + 6 * DAY)).toBe("maximum");
    const held = { ...waiting, held_since: new Date(start + DAY).toISOString() };
    expect(progressLabel(batchProgress(held, start + 2 * DAY))).toBe("Pinning · on hold");
  });
});
