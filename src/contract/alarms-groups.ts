import { ALARM_GROUP_WINDOW_MS } from "./alarms-values.ts";

/** Entries of one MCU that belong to one incident, newest first (one entry: no incident to group). */
export interface IncidentGroup<T> {
  mcuId: number | null;
  entries: T[];
}

/**
 * Groups a list (newest first) into incidents: entries of the same MCU each opened within
 * `windowMs` of the next newer one of the group (an open door puts temperature, humidity and CO2
 * out of profile within a minute or two). Entries of no MCU stay alone. The groups keep the
 * list's order by their newest entry, and every entry keeps its place within its group.
 */
export function groupIncidents<T>(
  newestFirst: readonly T[],
  of: (entry: T) => { mcuId: number | null; at: string },
  windowMs: number = ALARM_GROUP_WINDOW_MS,
): IncidentGroup<T>[] {
  const groups: IncidentGroup<T>[] = [];
  /** Each MCU's group still open to older entries, with its oldest entry's time. */
  const open = new Map<number, { group: IncidentGroup<T>; oldest: number }>();
  for (const entry of newestFirst) {
    const { mcuId, at } = of(entry);
    const t = Date.parse(at);
    if (mcuId === null) {
      groups.push({ mcuId, entries: [entry] });
      continue;
    }
    const current = open.get(mcuId);
    if (current && current.oldest - t <= windowMs) {
      current.group.entries.push(entry);
      current.oldest = Math.min(current.oldest, t);
    } else {
      const group = { mcuId, entries: [entry] };
      groups.push(group);
      open.set(mcuId, { group, oldest: t });
    }
  }
  return groups;
}
