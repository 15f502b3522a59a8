import { LOW_BATTERY_BELOW } from "../contract/conditions.ts";
import type { Farm, FarmStatus, Mcu, McuStatus } from "../contract/entities.ts";
import type { FleetChanges, FleetResults, McuLive, McuQuery } from "../contract/live.ts";
import { deriveFarmStatuses, mcuBatteryLevel, mcuLiveStatus } from "./live-status.ts";

/**
 * The whole-fleet results (Dashboard summary, farm statuses, MCU Manager stats) from the entities,
 * the live snapshots and the active alarms. It runs where the data lives (the data core), once per frame at most, so
 * the main thread never walks the fleet.
 */
export function computeFleet(
  farms: readonly Farm[],
  mcus: readonly Mcu[],
  liveOf: (mac: string) => McuLive | undefined,
  queries: ReadonlyMap<string, McuQuery> = new Map(),
  /** The MCUs with an active alarm (farm statuses, Warnings); null until the core knows them. */
  alarmed: ReadonlySet<number> | null = null,
): FleetResults {
  let activeMcus = 0;
  let online = 0;
  let offline = 0;
  let lowBattery = 0;
  for (const m of mcus) {
    const live = liveOf(m.mac);
    if (live?.online) activeMcus++;
    const status = mcuLiveStatus(m.status, live);
    if (status === "online") online++;
    else if (status === "offline") offline++;
    const level = mcuBatteryLevel(m, live);
    if (level !== null && level < LOW_BATTERY_BELOW) lowBattery++;
  }
  const farmStatuses: Record<number, FarmStatus> = {};
  let warnings = 0;
  for (const [id, status] of deriveFarmStatuses(farms, mcus, liveOf, alarmed)) {
    farmStatuses[id] = status;
    if (status === "warning") warnings++;
  }
  return {
    summary: { totalFarms: farms.length, activeMcus, warnings, offlineMcus: mcus.length - activeMcus },
    mcuStats: { total: mcus.length, online, offline, lowBattery },
    farmStatuses,
    queries: Object.fromEntries([...queries].map(([key, q]) => [key, mcus.filter((m) => matchesMcuQuery(m, q, liveOf(m.mac))).map((m) => m.mcu_id)])),
  };
}

/**
 * Whether an MCU whose badge shows `shown` is among those the status filter `wanted` lists. Each
 * status lists the MCUs its badge names, except Active: it lists every MCU at work, those online
 * (what the Dashboard counts as Active MCUs) and the new ones that have not reported yet (badged
 * Active), so it does not come out empty on a fleet that reports.
 */
export function statusMatches(shown: McuStatus, wanted: McuStatus): boolean {
  return wanted === "active" ? shown === "active" || shown === "online" : shown === wanted;
}

/**
 * SPEC §5: the search matches name, ID or MAC, case-insensitively; a MAC typed with dashes finds
 * the colon-separated MAC the server stores. The status filter goes by the status the card's
 * badge shows, the live one (`mcuLiveStatus`), not the loaded record's (`statusMatches`).
 */
export function matchesMcuQuery(mcu: Mcu, q: McuQuery, live?: McuLive): boolean {
  const query = q.search.trim().toLowerCase();
  if (query) {
    const asMac = query.replace(/-/g, ":");
    const hit = mcu.name.toLowerCase().includes(query) || String(mcu.mcu_id).includes(query) || mcu.mac.toLowerCase().includes(asMac);
    if (!hit) return false;
  }
  if (q.status && !statusMatches(mcuLiveStatus(mcu.status, live), q.status)) return false;
  if (q.farmId && String(mcu.farm_id) !== q.farmId) return false;
  return true;
}

const sameRecord = <T extends object>(a: T, b: T) => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)[k]);
};

const sameIds = (a: readonly number[] | undefined, b: readonly number[]) => a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

/** What changed from `before` to `next`, or null when nothing did. */
export function fleetChanges(before: FleetResults | null, next: FleetResults): FleetChanges | null {
  if (before === null) return next;
  const changes: FleetChanges = {};
  if (!sameRecord(before.summary, next.summary)) changes.summary = next.summary;
  if (!sameRecord(before.mcuStats, next.mcuStats)) changes.mcuStats = next.mcuStats;
  if (!sameRecord(before.farmStatuses, next.farmStatuses)) changes.farmStatuses = next.farmStatuses;
  const queries = Object.entries(next.queries).filter(([key, ids]) => !sameIds(before.queries[key], ids));
  if (queries.length) changes.queries = Object.fromEntries(queries);
  return Object.keys(changes).length ? changes : null;
}
