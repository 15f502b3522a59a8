import type { Alarm } from "../../contract/alarms-values.ts";
import type { AlarmLoad, AlarmsUpdate } from "../../contract/live.ts";

/** Keys the alarm subscribers listen to (in the app store's key space). */
export const alarmKeys = {
  /** Every active alarm, newest first. */
  active: "alarms:active",
  /** One MCU's active alarms. */
  mcu: (mcuId: number) => `alarms:mcu:${mcuId}`,
  /** How many active alarms nobody has acknowledged yet. */
  open: "alarms:open",
  /** The alarms resolved since the session began, latest first. */
  resolved: "alarms:resolved",
  load: "alarms:load",
} as const;

/** Alarms resolved meanwhile that are kept for the Recent list (older ones come from the server). */
const RESOLVED_KEPT = 200;

const NONE: readonly Alarm[] = [];
const IDLE: AlarmLoad = { state: "idle" };

const newestOpenedFirst = (a: Alarm, b: Alarm) => Date.parse(b.opened_at) - Date.parse(a.opened_at) || b.alarm_id - a.alarm_id;

/**
 * The main thread's copy of the client's active alarms, kept from the core's `alarms` updates.
 * Every getter returns the same object until its content changes (useSyncExternalStore), and an
 * update answers the keys whose content changed, so only their subscribers render.
 */
export function createAlarmStore() {
  const active = new Map<number, Alarm>();
  let list: readonly Alarm[] = NONE;
  const byMcu = new Map<number, readonly Alarm[]>();
  let open = 0;
  let resolved: readonly Alarm[] = NONE;
  let load: AlarmLoad = IDLE;

  return {
    /** Applies an update; answers the keys that changed. */
    apply(update: AlarmsUpdate): string[] {
      const changed: string[] = [];
      const touched = new Set<number>();
      if (update.reset) {
        for (const a of active.values()) touched.add(a.mcu_id);
        active.clear();
      }
      for (const a of update.active) {
        const held = active.get(a.alarm_id);
        if (held) touched.add(held.mcu_id);
        active.set(a.alarm_id, a);
        touched.add(a.mcu_id);
      }
      for (const a of update.resolved) {
        const held = active.get(a.alarm_id);
        if (!held) continue;
        active.delete(a.alarm_id);
        touched.add(held.mcu_id);
      }
      if (update.reset || update.active.length > 0 || touched.size > 0) {
        list = active.size === 0 ? NONE : [...active.values()].sort(newestOpenedFirst);
        changed.push(alarmKeys.active);
        for (const id of touched) {
          const ofMcu = list.filter((a) => a.mcu_id === id);
          if (ofMcu.length === 0 && !byMcu.has(id)) continue;
          if (ofMcu.length === 0) byMcu.delete(id);
          else byMcu.set(id, ofMcu);
          changed.push(alarmKeys.mcu(id));
        }
        const nextOpen = list.reduce((n, a) => n + (a.state === "open" ? 1 : 0), 0);
        if (nextOpen !== open) {
          open = nextOpen;
          changed.push(alarmKeys.open);
        }
      }
      if (update.resolved.length > 0) {
        const fresh = new Set(update.resolved.map((a) => a.alarm_id));
        resolved = [...update.resolved.slice().reverse(), ...resolved.filter((a) => !fresh.has(a.alarm_id))].slice(0, RESOLVED_KEPT);
        changed.push(alarmKeys.resolved);
      }
      if (update.load && (update.load.state !== load.state || update.load.message !== load.message)) {
        load = update.load;
        changed.push(alarmKeys.load);
      }
      // Signed out: what was resolved belonged to that session.
      if (update.load?.state === "idle" && resolved.length > 0) {
        resolved = NONE;
        changed.push(alarmKeys.resolved);
      }
      return changed;
    },

    getActive: (): readonly Alarm[] => list,
    getMcuAlarms: (mcuId: number): readonly Alarm[] => byMcu.get(mcuId) ?? NONE,
    getOpenCount: (): number => open,
    getResolved: (): readonly Alarm[] => resolved,
    getLoad: (): AlarmLoad => load,
  };
}

export type AlarmStore = ReturnType<typeof createAlarmStore>;
