import type { TFunction } from "i18next";
import type { LiveReading } from "../../../contract/entities.ts";
import type { StateEvent, StateTimeline } from "../../../contract/history.ts";
import { STATE_TARGETS, type StateTarget } from "../../../contract/history-values.ts";
import { numberFormat } from "../../i18n/format.ts";
import { targetName } from "./history-words.ts";

/** A controller's state from `at` until its next change. */
export interface StateChange {
  at: number;
  status: boolean;
  auto: boolean;
  /** Irrigation: a watering session runs (null when not reported). */
  session: boolean | null;
  /** Who made the change and why, when known (the command log's, or the device's rule heard live). */
  cause?: StateEvent["cause"];
}

/** Each controller's changes, oldest first; the first may lie before the range (its state at the range's start). */
export type Lanes = Record<StateTarget, StateChange[]>;

const emptyLanes = (): Lanes => Object.fromEntries(STATE_TARGETS.map((t) => [t, []])) as unknown as Lanes;

/** The lanes of a timeline answer: each controller's state at the start, then its changes. */
export function lanesOf(timeline: StateTimeline): Lanes {
  const lanes = emptyLanes();
  for (const e of [...timeline.initial, ...timeline.events]) {
    const change: StateChange = { at: Date.parse(e.at), status: e.status, auto: e.auto, session: e.session ?? null };
    if (e.cause) change.cause = e.cause;
    if (!Number.isFinite(change.at)) continue;
    const lane = lanes[e.target];
    const last = lane[lane.length - 1];
    // Events come oldest first; a repeat of the same state is no change.
    if (last && change.at < last.at) continue;
    if (last && sameState(last, change)) continue;
    lane.push(change);
  }
  return lanes;
}

const sameState = (a: Omit<StateChange, "at">, b: Omit<StateChange, "at">) => a.status === b.status && a.auto === b.auto && (a.session ?? null) === (b.session ?? null);

/**
 * Adds to the lanes what a live reading taken at `at` says of each controller, where it differs
 * from the lane's last state (the device switched, or was switched). Answers whether a lane grew.
 */
export function addLiveStates(lanes: Lanes, at: number, reading: LiveReading): boolean {
  let grew = false;
  for (const target of STATE_TARGETS) {
    const device = reading[target];
    if (!device) continue;
    const state: StateChange = { at, status: device.status, auto: device.auto, session: "session" in device ? (device.session ?? null) : null };
    // The device's rule comes with the reading that shows its switch (the batch's phase is added when the server stores it).
    if (device.why) state.cause = { source: "automation", actor: null, why: { ...device.why, inferred: false, phase: null } };
    const lane = lanes[target];
    const last = lane[lane.length - 1];
    if (last && (at < last.at || sameState(last, state))) continue;
    lane.push(state);
    grew = true;
  }
  return grew;
}

/** A stretch of one state within [from, to]. */
export interface Segment extends Omit<StateChange, "at"> {
  from: number;
  to: number;
}

/** A lane's states clipped to [from, to]; before its first known state a lane has no segment. */
export function segmentsOf(changes: readonly StateChange[], from: number, to: number): Segment[] {
  const out: Segment[] = [];
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    const end = Math.min(changes[i + 1]?.at ?? to, to);
    const start = Math.max(c.at, from);
    if (end <= start) continue;
    out.push({ from: start, to: end, status: c.status, auto: c.auto, session: c.session });
  }
  return out;
}

/** A lane in words for the timeline's text summary. */
export interface LaneSummary {
  target: StateTarget;
  /** The state at the range's end, or null when the controller never reported. */
  current: StateChange | null;
  /** Share of the known time within the range it was on (0-1), or null when nothing is known. */
  onShare: number | null;
  /** Changes of on/off within the range. */
  switches: number;
}

export function summarizeLane(target: StateTarget, changes: readonly StateChange[], from: number, to: number): LaneSummary {
  const segments = segmentsOf(changes, from, to);
  let known = 0;
  let on = 0;
  let switches = 0;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    known += s.to - s.from;
    if (s.status) on += s.to - s.from;
    if (i > 0 && s.status !== segments[i - 1]!.status) switches++;
  }
  const before = changes.filter((c) => c.at <= to);
  return { target, current: before[before.length - 1] ?? null, onShare: known > 0 ? on / known : null, switches };
}

/** "Humidifier: off, automation on; on 20% of the time; switched 2 times". */
export function describeLane(t: TFunction<"history">, s: LaneSummary): string {
  const target = targetName(t, s.target);
  if (!s.current) return t("lanes.noState", { target });
  const words = {
    target,
    status: t(s.current.status ? "lanes.on" : "lanes.off"),
    auto: t(s.current.auto ? "lanes.autoOn" : "lanes.autoOff"),
    count: s.switches,
  };
  if (s.onShare === null) return t("lanes.summary", words);
  return t("lanes.summaryWithShare", { ...words, share: numberFormat({ style: "percent", maximumFractionDigits: 0 }).format(Math.round(s.onShare * 100) / 100) });
}

/**
 * The switch of a lane nearest to `at` within `slack` ms, for a tooltip: a change of on/off (a
 * change of Automation alone is no switch), or null.
 */
export function switchNear(changes: readonly StateChange[], at: number, slack: number): StateChange | null {
  let best: StateChange | null = null;
  for (let i = 1; i < changes.length; i++) {
    const c = changes[i]!;
    if (c.status === changes[i - 1]!.status) continue;
    const d = Math.abs(c.at - at);
    if (d <= slack && (best === null || d < Math.abs(best.at - at))) best = c;
  }
  return best;
}
