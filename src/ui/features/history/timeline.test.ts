import { beforeAll, describe, expect, it } from "vitest";
import type { StateTimeline } from "../../../contract/history.ts";
import { startTexts } from "../../../test-support/i18n.ts";
import { i18n } from "../../i18n/i18n.ts";
import { addLiveStates, describeLane as describeIn, lanesOf, segmentsOf, summarizeLane, switchNear, type LaneSummary } from "./timeline.ts";

beforeAll(() => startTexts());
const describeLane = (s: LaneSummary) => describeIn(i18n.getFixedT("en", "history"), s);

const T0 = Date.UTC(2026, 2, 10, 0, 0);
const H = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

const TIMELINE: StateTimeline = {
  mcu_id: 1,
  from: iso(T0),
  to: iso(T0 + 10 * H),
  initial: [{ at: iso(T0 - H), target: "Humidifier", status: false, auto: true }],
  events: [
    { at: iso(T0 + 2 * H), target: "Humidifier", status: true, auto: true },
    { at: iso(T0 + 3 * H), target: "Humidifier", status: true, auto: true },
    { at: iso(T0 + 4 * H), target: "Humidifier", status: false, auto: true },
    { at: iso(T0 + 5 * H), target: "Irrigation", status: true, auto: false, session: true },
  ],
};

describe("the controllers' timeline", () => {
  it("starts each lane with its state at the range's start and keeps real changes only", () => {
    const lanes = lanesOf(TIMELINE);
    expect(lanes.Humidifier.map((c) => [c.at - T0, c.status])).toEqual([
      [-H, false],
      [2 * H, true],
      [4 * H, false],
    ]);
    expect(lanes.Irrigation).toEqual([{ at: T0 + 5 * H, status: true, auto: false, session: true }]);
    expect(lanes.AC).toEqual([]);
  });

  it("clips a lane to the range, with nothing before its first known state", () => {
    const lanes = lanesOf(TIMELINE);
    expect(segmentsOf(lanes.Humidifier, T0, T0 + 10 * H).map((s) => [s.from - T0, s.to - T0, s.status])).toEqual([
      [0, 2 * H, false],
      [2 * H, 4 * H, true],
      [4 * H, 10 * H, false],
    ]);
    expect(segmentsOf(lanes.Irrigation, T0, T0 + 10 * H).map((s) => [s.from - T0, s.to - T0])).toEqual([[5 * H, 10 * H]]);
  });

  it("adds a live reading's state where it differs from the lane's last", () => {
    const lanes = lanesOf(TIMELINE);
    const reading = { Humidifier: { status: false, auto: true }, AC: { status: true, auto: false } };
    expect(addLiveStates(lanes, T0 + 11 * H, reading)).toBe(true);
    expect(lanes.Humidifier.length).toBe(3);
    expect(lanes.AC).toEqual([{ at: T0 + 11 * H, status: true, auto: false, session: null }]);
    expect(addLiveStates(lanes, T0 + 11 * H + 1000, reading)).toBe(false);
    expect(addLiveStates(lanes, T0 + 12 * H, { Humidifier: { status: true, auto: false } })).toBe(true);
    expect(lanes.Humidifier.at(-1)).toEqual({ at: T0 + 12 * H, status: true, auto: false, session: null });
  });

  it("summarises a lane: its state now, its share of time on, its switches", () => {
    const lanes = lanesOf(TIMELINE);
    const s = summarizeLane("Humidifier", lanes.Humidifier, T0, T0 + 10 * H);
    expect(s).toMatchObject({ onShare: 0.2, switches: 2 });
    expect(describeLane(s)).toBe("Humidifier: off, automation on; on 20% of the time; switched 2 times");
    expect(describeLane(summarizeLane("AC", lanes.AC, T0, T0 + 10 * H))).toBe("AC: no state reported");
  });

  it("keeps each switch's cause, from the timeline and from a live reading's why, and finds the switch nearest a time", () => {
    const why = { rule: "humidity_below_on", value: 84, limit: 85, inferred: false, phase: null };
    const lanes = lanesOf({ ...TIMELINE, events: [{ at: iso(T0 + 2 * H), target: "Humidifier", status: true, auto: true, cause: { source: "automation", actor: null, why } }] });
    expect(lanes.Humidifier[1]!.cause).toEqual({ source: "automation", actor: null, why });
    addLiveStates(lanes, T0 + 3 * H, { Humidifier: { status: false, auto: true, why: { rule: "humidity_above_off", value: 92.4, limit: 92 } } });
    expect(lanes.Humidifier[2]!.cause).toEqual({ source: "automation", actor: null, why: { rule: "humidity_above_off", value: 92.4, limit: 92, inferred: false, phase: null } });
    expect(switchNear(lanes.Humidifier, T0 + 2 * H + 60_000, 120_000)?.at).toBe(T0 + 2 * H);
    expect(switchNear(lanes.Humidifier, T0 + 2.9 * H, 60 * 60_000)?.at).toBe(T0 + 3 * H);
    // The state at the range's start is no switch; nothing within the slack: none.
    expect(switchNear(lanes.Humidifier, T0 - H, 60_000)).toBeNull();
    expect(switchNear(lanes.Humidifier, T0 + 2.5 * H, 60_000)).toBeNull();
  });
});
