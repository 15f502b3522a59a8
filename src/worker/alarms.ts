import { type Alarm, type AlarmPage, type AlarmState } from "../contract/alarms-values.ts";
import { toCoreError } from "../contract/core-error.ts";
import type { AlarmLoad, AlarmsUpdate } from "../contract/live.ts";
import { isSessionEnded } from "../contract/session-ended.ts";

export interface AlarmCollectionDeps {
  /** One page of the client's active alarms (`cursor` from the page before). */
  activePage(cursor: string | null): Promise<AlarmPage>;
  /** What changed, for the main thread. */
  send(update: AlarmsUpdate): void;
  /** The active set changed: the fleet results (farm statuses, Warnings) are computed again. */
  changed(): void;
  /** Changes are sent at most this often (ms): a burst (a gateway down: every MCU offline at once) crosses as one message. */
  sendEveryMs?: number;
}

/** Resolved alarms remembered, so that an event late behind the resolution does not bring one back. */
const GONE_KEPT = 5000;

/** An alarm only moves forward: open, then acknowledged, then resolved. */
const RANK: Record<AlarmState, number> = { open: 0, acknowledged: 1, resolved: 2 };

/** Of two versions of one alarm, the later state (the same state: the one given last). */
const later = (a: Alarm | undefined, b: Alarm): Alarm => (a && RANK[a.state] > RANK[b.state] ? a : b);

/**
 * The client's active (open or acknowledged) alarms, as the core keeps them: fetched whole at
 * sign-in and after every reconnect (events sent while the socket was down are lost), then kept
 * current by the `alarm` socket events, each carrying an alarm's whole new state. A resolved alarm
 * leaves the set. The farm statuses and the Warnings card are computed from it; the main thread
 * gets the changes, a burst of them in one message.
 */
export function createAlarmCollection(deps: AlarmCollectionDeps) {
  const sendEveryMs = deps.sendEveryMs ?? 100;
  const active = new Map<number, Alarm>();
  /** The ids of alarms seen resolved (resolution is final), oldest first. */
  const gone = new Set<number>();
  /** The MCUs with an active alarm, made again when the set changed; null until the set was loaded once. */
  let alarmed: Set<number> | null = null;
  let loaded = false;
  let load: AlarmLoad = { state: "idle" };
  /** Counts loads and clears: only the latest load's answer is taken. */
  let generation = 0;
  let loading: Promise<void> | null = null;
  /**
   * The events heard since the load under way began, latest state of each: the fetched pages may
   * predate them (or, paged, partly), so they are laid over the answer rather than lost.
   */
  let heard: Map<number, Alarm> | null = null;

  // What the main thread has not been sent yet.
  let reset = false;
  const upserts = new Map<number, Alarm>();
  const resolved = new Map<number, Alarm>();
  let loadChanged = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function flush() {
    timer = null;
    if (!reset && upserts.size === 0 && resolved.size === 0 && !loadChanged) return;
    const update: AlarmsUpdate = {
      kind: "alarms",
      reset,
      active: reset ? [...active.values()] : [...upserts.values()],
      resolved: [...resolved.values()],
      ...(loadChanged ? { load } : {}),
    };
    reset = loadChanged = false;
    upserts.clear();
    resolved.clear();
    deps.send(update);
  }
  function schedule(now = false) {
    if (now) {
      if (timer !== null) clearTimeout(timer);
      flush();
    } else timer ??= setTimeout(flush, sendEveryMs);
  }
  function setLoad(next: AlarmLoad) {
    load = next;
    loadChanged = true;
  }
  function activeChanged() {
    alarmed = loaded ? new Set([...active.values()].map((a) => a.mcu_id)) : null;
    deps.changed();
  }

  /** The whole set replaced (a load's answer; nothing at sign-out), and the main thread told at once. */
  function replace(entries: [number, Alarm][], state: AlarmLoad) {
    active.clear();
    for (const [id, a] of entries) active.set(id, a);
    upserts.clear();
    reset = true;
    loaded = state.state === "ready";
    setLoad(state);
    activeChanged();
    schedule(true);
  }

  /** One alarm's new state into the set; true if the set changed. */
  function put(alarm: Alarm): boolean {
    if (gone.has(alarm.alarm_id)) return false;
    const held = active.get(alarm.alarm_id);
    if (held && RANK[held.state] > RANK[alarm.state]) return false;
    if (alarm.state === "resolved") {
      gone.add(alarm.alarm_id);
      if (gone.size > GONE_KEPT) gone.delete(gone.values().next().value!);
      resolved.set(alarm.alarm_id, alarm);
      upserts.delete(alarm.alarm_id);
      return active.delete(alarm.alarm_id);
    }
    // A worse value reached is news too: the alarm shows it.
    if (held && held.state === alarm.state && held.acknowledged_at === alarm.acknowledged_at && held.worst_value === alarm.worst_value) return false;
    active.set(alarm.alarm_id, alarm);
    upserts.set(alarm.alarm_id, alarm);
    return true;
  }

  async function fetchAll(): Promise<Map<number, Alarm>> {
    const all = new Map<number, Alarm>();
    const cursors = new Set<string>();
    let cursor: string | null = null;
    do {
      const page: AlarmPage = await deps.activePage(cursor);
      for (const a of page.alarms) all.set(a.alarm_id, a);
      cursor = page.next;
      // A cursor seen before would page forever.
      if (cursor !== null && cursors.has(cursor)) break;
      if (cursor !== null) cursors.add(cursor);
    } while (cursor !== null);
    return all;
  }

  return {
    /**
     * Fetches the whole active set again (sign-in, a reconnect, Try again); a load under way is
     * superseded (its answer may predate what the new one is for).
     */
    load(): Promise<void> {
      const asOf = ++generation;
      heard ??= new Map();
      // A set loaded before stays "ready" while it is fetched again (a reconnect): it is shown, not a spinner.
      if (!loaded) {
        setLoad({ state: "loading" });
        schedule(true);
      }
      const run = (async () => {
        try {
          const fetched = await fetchAll();
          if (asOf !== generation) return;
          for (const a of heard!.values()) {
            const version = later(fetched.get(a.alarm_id), a);
            if (version.state === "resolved") fetched.delete(a.alarm_id);
            else fetched.set(a.alarm_id, version);
          }
          heard = null;
          // What left the set while the socket was down is resolved, and the Recent list has it from the server.
          replace([...fetched].filter(([id]) => !gone.has(id)), { state: "ready" });
        } catch (err) {
          if (asOf !== generation || isSessionEnded(err)) return;
          heard = null;
          setLoad({ state: "error", message: toCoreError(err).message });
          schedule(true);
          throw err;
        } finally {
          if (asOf === generation) loading = null;
        }
      })();
      loading = run;
      return run;
    },

    /** A load under way, or null. */
    get loading() {
      return loading;
    },

    /** An alarm's new state (an `alarm` event, or the answer to an acknowledgement). */
    apply(alarm: Alarm) {
      if (heard) heard.set(alarm.alarm_id, later(heard.get(alarm.alarm_id), alarm));
      const changedSet = put(alarm);
      if (changedSet) activeChanged();
      if (upserts.size > 0 || resolved.size > 0) schedule();
    },

    /** The MCUs with an active alarm; null until the active set has been loaded. */
    alarmedMcus(): ReadonlySet<number> | null {
      return alarmed;
    },

    /** Forgets every alarm (sign-out); the main thread is told at once. */
    clear() {
      generation++;
      heard = null;
      loading = null;
      gone.clear();
      resolved.clear();
      replace([], { state: "idle" });
    },
  };
}

export type AlarmCollection = ReturnType<typeof createAlarmCollection>;
