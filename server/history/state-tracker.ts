import type { LiveReading } from "../../src/contract/entities.ts";
import { STATE_TARGETS, type StateTarget } from "../../src/contract/history.ts";

/** One change of a controller's state, as heard in a reading: a row of device_state_events to be. */
export interface StateChange {
  mcuId: number;
  /** When the reading that showed it arrived, epoch ms. */
  at: number;
  target: StateTarget;
  status: boolean;
  auto: boolean;
  /** Irrigation's session; null for the other controllers and when the device did not say. */
  session: boolean | null;
  /** This node sent the user's command that asked for exactly this status (not the automation's doing). */
  userCaused: boolean;
}

/** A controller's state in a few bits: status, auto, session (0 absent, 1 false, 2 true); -1: not known. */
const UNKNOWN = -1;
const IRRIGATION = STATE_TARGETS.indexOf("Irrigation");
const AC = STATE_TARGETS.indexOf("AC");
const VENTILATION = STATE_TARGETS.indexOf("Ventilation");
const HUMIDIFIER = STATE_TARGETS.indexOf("Humidifier");
const codeOf = (status: boolean, auto: boolean, session: boolean | undefined) =>
  (status ? 1 : 0) | (auto ? 2 : 0) | (session === undefined ? 0 : session ? 8 : 4);

/**
 * Turns the controllers' states carried by every reading into change events. A reading whose
 * controllers are as they were costs a map lookup and four comparisons; only a change allocates
 * (its event). The last state is known per MCU and controller in this node's memory only: after a
 * restart (or on a node that did not hear the previous reading) the first state heard counts as a
 * change. That is acceptable, since the database write compares each change with the last stored
 * one and drops those that change nothing (see state-events-repo.ts).
 */
export class StateTracker {
  private readonly last = new Map<number, Int8Array>();
  private pending: StateChange[] = [];

  /** `userCaused` says whether a user's command just asked this controller for this status. */
  constructor(private readonly userCaused: (mcuId: number, target: StateTarget, status: boolean, atMs: number) => boolean = () => false) {}

  /** The hot path: compares a reading's controllers with the last known states. */
  observe(mcuId: number, reading: LiveReading, atMs: number): void {
    const irrigation = reading.Irrigation;
    const ac = reading.AC;
    const ventilation = reading.Ventilation;
    const humidifier = reading.Humidifier;
    if (irrigation === undefined && ac === undefined && ventilation === undefined && humidifier === undefined) return;
    let codes = this.last.get(mcuId);
    if (codes === undefined) {
      codes = new Int8Array(STATE_TARGETS.length).fill(UNKNOWN);
      this.last.set(mcuId, codes);
    }
    if (irrigation !== undefined) this.compare(codes, IRRIGATION, mcuId, atMs, irrigation.status, irrigation.auto, irrigation.session);
    if (ac !== undefined) this.compare(codes, AC, mcuId, atMs, ac.status, ac.auto, undefined);
    if (ventilation !== undefined) this.compare(codes, VENTILATION, mcuId, atMs, ventilation.status, ventilation.auto, undefined);
    if (humidifier !== undefined) this.compare(codes, HUMIDIFIER, mcuId, atMs, humidifier.status, humidifier.auto, undefined);
  }

  private compare(codes: Int8Array, i: number, mcuId: number, atMs: number, status: boolean, auto: boolean, session: boolean | undefined): void {
    const code = codeOf(status, auto, session);
    if (codes[i] === code) return;
    codes[i] = code;
    const target = STATE_TARGETS[i]!;
    this.pending.push({ mcuId, at: atMs, target, status, auto, session: session ?? null, userCaused: this.userCaused(mcuId, target, status, atMs) });
  }

  /** Takes the changes heard since the last take (the caller writes them). */
  take(): StateChange[] {
    const changes = this.pending;
    this.pending = [];
    return changes;
  }

  /** Puts changes whose write failed back in front, keeping at most `max` (the oldest go first). */
  putBack(changes: StateChange[], max: number): number {
    const all = changes.concat(this.pending);
    const dropped = Math.max(0, all.length - max);
    this.pending = dropped > 0 ? all.slice(dropped) : all;
    return dropped;
  }

  get pendingCount(): number {
    return this.pending.length;
  }
}
