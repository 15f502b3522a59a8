import type { Farm, FarmStatus, Mcu, McuStatus, ProfileConfig } from "../contract/entities.ts";
import { parseReadings, type McuLive } from "./device-snapshots.ts";

/**
 * Statuses derived from what the data core holds live, as pure functions of the entities, the
 * live snapshots and the active alarms, so that they can move into the worker with the other
 * whole-fleet results.
 */

/** The profile whose limits judge an MCU's readings: its linked one (an MCU has at most one link). */
export const linkedConfig = (mcu: Pick<Mcu, "profile_links">): ProfileConfig | null => mcu.profile_links[0]?.profile.config ?? null;

/**
 * An MCU's status as the MCU Manager shows, filters and counts it (SPEC §4 values), agreeing with
 * the dashboard on reachability:
 * - maintenance: set on the MCU (taken out of service on purpose), whatever the device does;
 * - online: a reading arrived within 120 s (McuLive.online, the dashboard's rule): a device that
 *   reports is reachable, whatever an older status said;
 * - active: a new MCU that has not reported yet and has not said it is offline;
 * - offline: it reported before but not for 120 s, or it said it is offline.
 * Until the live connection has told anything about the MCU, the loaded record's status stands.
 */
export function mcuLiveStatus(recorded: McuStatus, live: McuLive | undefined): McuStatus {
  if (recorded === "maintenance" || live?.status === "maintenance") return "maintenance";
  if (!live) return recorded;
  if (live.online) return "online";
  if (live.lastReadingAt === null && live.status !== "offline") return "active";
  return "offline";
}

/**
 * SPEC §3 farm status of every farm, from the open alarms: offline when all its MCUs
 * are offline (the dashboard's freshness, McuLive.online), warning while one of its MCUs has an
 * active alarm (open or acknowledged: a reading outside the profile for longer than the grace
 * period, an MCU offline, a low battery), otherwise active. A farm listing an MCU that is not
 * loaded (the MCU list failed or is on its way) keeps the status the server gave rather than being
 * judged on a part of its MCUs; until the active alarms are known (`alarmed` null) a farm that is
 * not offline keeps the server's warning, so it does not flash Active at sign-in.
 */
export function deriveFarmStatuses(
  farms: readonly Farm[],
  mcus: readonly Mcu[],
  liveOf: (mac: string) => McuLive | undefined,
  alarmed: ReadonlySet<number> | null,
): Map<number, FarmStatus> {
  const loaded = new Set<number>();
  const byFarm = new Map<number, { online: boolean; alarmed: boolean }[]>();
  for (const m of mcus) {
    loaded.add(m.mcu_id);
    let list = byFarm.get(m.farm_id);
    if (!list) byFarm.set(m.farm_id, (list = []));
    list.push({ online: liveOf(m.mac)?.online ?? false, alarmed: alarmed?.has(m.mcu_id) ?? false });
  }
  const statuses = new Map<number, FarmStatus>();
  for (const f of farms) {
    const complete = f.mcus.every((m) => loaded.has(m.mcu_id));
    statuses.set(f.farm_id, complete ? farmStatusOf(byFarm.get(f.farm_id) ?? [], alarmed === null ? f.status === "warning" : null) : f.status);
  }
  return statuses;
}

/** `warningUnknown`: what stands for the alarms while they are not known (null once they are). */
function farmStatusOf(mcus: readonly { online: boolean; alarmed: boolean }[], warningUnknown: boolean | null): FarmStatus {
  if (mcus.length > 0 && mcus.every((m) => !m.online)) return "offline";
  const warning = warningUnknown ?? mcus.some((m) => m.alarmed);
  return warning ? "warning" : "active";
}

/**
 * An MCU's battery level in %, or null if it never reported one: the live reading wins over the
 * MCU record, which is only as fresh as the last load.
 */
export function mcuBatteryLevel(mcu: Pick<Mcu, "readings">, live: McuLive | undefined): number | null {
  const level = live?.readings?.batteryLevel ?? parseReadings(mcu.readings)?.batteryLevel;
  return typeof level === "number" && Number.isFinite(level) ? level : null;
}
