import type { Alarm } from "../../contract/alarms-values.ts";
import type { LoadState } from "../../contract/live.ts";
import { useCollection, useCollectionLoad, useLeft } from "./hooks.ts";

/**
 * The client's active alarms as the screens read them: derived from the core's `alarms` collection
 * (open or acknowledged; a resolved one leaves it), each re-rendering only when what it picks changes.
 */

const newestOpenedFirst = (a: Alarm, b: Alarm) => Date.parse(b.opened_at) - Date.parse(a.opened_at) || b.alarm_id - a.alarm_id;
export const alarmsNewestFirst = (list: readonly Alarm[]): readonly Alarm[] => list.slice().sort(newestOpenedFirst);
export const openAlarmCount = (list: readonly Alarm[]) => list.reduce((n, a) => n + (a.state === "open" ? 1 : 0), 0);
const sameAlarms = (a: readonly Alarm[], b: readonly Alarm[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The client's active (open or acknowledged) alarms, newest first, live. */
export function useActiveAlarms(): readonly Alarm[] {
  return useCollection("alarms", alarmsNewestFirst);
}

/** One MCU's active alarms, newest first; re-renders only when they change. */
export function useMcuAlarms(mcuId: number): readonly Alarm[] {
  return useCollection("alarms", (list) => alarmsNewestFirst(list.filter((a) => a.mcu_id === mcuId)), sameAlarms);
}

/** How many active alarms nobody has acknowledged yet (the sidebar's badge). */
export function useOpenAlarmCount(): number {
  return useCollection("alarms", openAlarmCount);
}

/** The alarms resolved since the session began, latest first (the Recent list shows them at once). */
export function useRecentlyResolvedAlarms(): readonly Alarm[] {
  return useLeft("alarms");
}

/** Whether the active alarms are known: loading (sign-in), ready, or failed with why (the Alarms page's Try again). */
export function useAlarmLoad(): LoadState {
  return useCollectionLoad("alarms");
}
