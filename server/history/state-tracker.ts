import type { LiveReading } from "../../src/contract/entities.ts";
import { STATE_TARGETS, type StateTarget } from "../../src/contract/history.ts";
import { readingValues, type SwitchReason, type SwitchValues, type SwitchWhy } from "../../src/contract/switch-reasons.ts";

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
  /** The rule the device's automation says it switched by (the reading's `why`), or null. */
  why: SwitchWhy | null;
  /** The reading's values that came with the change: what the server infers a rule from when the device gave none. */
  values: SwitchValues;
  /** The reason the command log keeps if the change is logged as the automation's: set by the history writer before the write. */
  reason?: SwitchReason | null;
}

type Controller = { status: boolean; auto: boolean; why?: SwitchWhy };

/** A controller's state in a few bits: status, auto, session (0 absent, 1 false, 2 true); -1: not known. */
const UNKNOWN = -1;
const IRRIGATION = STATE_TARGETS.indexOf("Irrigation");
const AC = STATE_TARGETS.indexOf("AC");
const VENTILATION = STATE_TARGETS.indexOf("Ventilation");
const HUMIDIFIER = STATE_TARGETS.indexOf("Humidifier");
const codeOf = (status: boolean, auto: boolean, session: boolean | undefined) =>
  (status ? 1 : 0) | (auto ? 2 : 0) | (session === undefined ? 0 : session ? 8 : 4);

/** What is known of one MCU's controllers: their last states, and the change each holds for its second. */
interface McuStates {
  codes: Int8Array;
  held: (StateChange | undefined)[];
}

const secondOf = (ms: number) => Math.floor(ms / 1000);

/**
 * Turns the controllers' states carried by every reading into change events. A reading whose
 * controllers are as they were costs a map lookup and four comparisons; only a change allocates
 * (its event). The last state is known per MCU and controller in this node's memory only: after a
 * restart (or on a node that did not hear the previous reading) the first state heard counts as a
 * change. That is acceptable, since the database write compares each change with the last stored
 * one and drops those that change nothing (see state-events-repo.ts).
 *
 * At most one change per controller and second is kept: a change is held until its second is
 * over, and a later change in the same second takes its place (its state and time). A device that
 * flips a controller in every message then writes a row a second, not one a message (the table
 * grows with time, not with a device's send rate), and the state a second ended in is the one
 * recorded, a flip and flip-back included.
 */
export class StateTracker {
  private readonly last = new Map<number, McuStates>();
  private pending: StateChange[] = [];
  /** The changes held for their second, each also in its controller's slot (McuStates.held). */
  private readonly held = new Set<StateChange>();

  /** `userCaused` says whether a user's command just asked this controller for this status. */
  constructor(private readonly userCaused: (mcuId: number, target: StateTarget, status: boolean, atMs: number) => boolean = () => false) {}

  /** The hot path: compares a reading's controllers with the last known states. */
  observe(mcuId: number, reading: LiveReading, atMs: number): void {
    const irrigation = reading.Irrigation;
    const ac = reading.AC;
    const ventilation = reading.Ventilation;
    const humidifier = reading.Humidifier;
    if (irrigation === undefined && ac === undefined && ventilation === undefined && humidifier === undefined) return;
    let states = this.last.get(mcuId);
    if (states === undefined) {
      states = { codes: new Int8Array(STATE_TARGETS.length).fill(UNKNOWN), held: new Array<StateChange | undefined>(STATE_TARGETS.length).fill(undefined) };
      this.last.set(mcuId, states);
    }
    if (irrigation !== undefined) this.compare(states, IRRIGATION, mcuId, atMs, irrigation, irrigation.session, reading);
    if (ac !== undefined) this.compare(states, AC, mcuId, atMs, ac, undefined, reading);
    if (ventilation !== undefined) this.compare(states, VENTILATION, mcuId, atMs, ventilation, undefined, reading);
    if (humidifier !== undefined) this.compare(states, HUMIDIFIER, mcuId, atMs, humidifier, undefined, reading);
  }

  private compare(states: McuStates, i: number, mcuId: number, atMs: number, controller: Controller, session: boolean | undefined, reading: LiveReading): void {
    const { status, auto } = controller;
    const code = codeOf(status, auto, session);
    if (states.codes[i] === code) return;
    states.codes[i] = code;
    const target = STATE_TARGETS[i]!;
    const userCaused = this.userCaused(mcuId, target, status, atMs);
    const why = controller.why ?? null;
    // Only a change allocates them: the reading's few values, not the reading (a change may wait in memory while the database is down).
    const values = readingValues(reading);
    const held = states.held[i];
    if (held !== undefined) {
      if (secondOf(held.at) === secondOf(atMs)) {
        // The same second: the latest state wins, in place (no allocation).
        held.at = atMs;
        held.status = status;
        held.auto = auto;
        held.session = session ?? null;
        held.userCaused = userCaused;
        held.why = why;
        held.values = values;
        return;
      }
      // A change of a later second: the held one's second is over.
      this.held.delete(held);
      this.pending.push(held);
    }
    const change: StateChange = { mcuId, at: atMs, target, status, auto, session: session ?? null, userCaused, why, values };
    states.held[i] = change;
    this.held.add(change);
  }

  /**
   * Takes the changes whose second ended before `nowMs` (the caller writes them); without it,
   * every change, those of the current second too (a flush before stopping).
   */
  take(nowMs = Infinity): StateChange[] {
    const changes = this.pending;
    this.pending = [];
    const now = secondOf(nowMs);
    for (const c of this.held) {
      if (secondOf(c.at) >= now) continue;
      this.held.delete(c);
      changes.push(c);
      const states = this.last.get(c.mcuId)!;
      states.held[STATE_TARGETS.indexOf(c.target)] = undefined;
    }
    return changes;
  }

  /**
   * Puts changes whose write failed back in front, keeping at most `max` with those waiting
   * (the oldest go first); answers how many were dropped.
   */
  putBack(changes: StateChange[], max: number): number {
    const all = changes.concat(this.pending);
    const dropped = Math.max(0, Math.min(all.length, all.length + this.held.size - max));
    this.pending = dropped > 0 ? all.slice(dropped) : all;
    return dropped;
  }

  get pendingCount(): number {
    return this.pending.length + this.held.size;
  }
}
