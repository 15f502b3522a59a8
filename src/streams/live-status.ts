import { farmStatusOf, needsAttention } from "../contract/conditions.ts";
import type { Farm, FarmStatus, Mcu, McuStatus, ProfileConfig } from "../contract/entities.ts";
import { parseReadings, type McuLive } from "./device-snapshots.ts";

/**
 * Statuses derived from what the data core holds live, as pure functions of the entities and the
 * live snapshots, so that they can move into the worker with the other whole-fleet results.
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
 * Whether an MCU needs attention, remembered per live snapshot (snapshots are immutable, and an
 * unchanged MCU keeps its object), so a batch costs a judgement only for the MCUs it changed.
 */
const attentionMemo = new WeakMap<McuLive, { config: ProfileConfig | null; attention: boolean }>();

export function mcuNeedsAttention(live: McuLive | undefined, config: ProfileConfig | null): boolean {
  if (!live?.readings) return false;
  const memo = attentionMemo.get(live);
  if (memo && memo.config === config) return memo.attention;
  const attention = needsAttention(live.readings, config);
  attentionMemo.set(live, { config, attention });
  return attention;
}

/**
 * SPEC §3 farm status of every farm, derived live from its MCUs (`farmStatusOf`): online is the
 * dashboard's freshness (McuLive.online), attention a reading outside the linked profile or a low
 * battery. A farm listing an MCU that is not loaded (the MCU list failed or is on its way) keeps
 * the status the server gave, rather than being judged on a part of its MCUs.
 */
export function deriveFarmStatuses(
  farms: readonly Farm[],
  mcus: readonly Mcu[],
  liveOf: (mac: string) => McuLive | undefined,
): Map<number, FarmStatus> {
  const loaded = new Set<number>();
  const byFarm = new Map<number, { online: boolean; attention: boolean }[]>();
  for (const m of mcus) {
    loaded.add(m.mcu_id);
    const live = liveOf(m.mac);
    let list = byFarm.get(m.farm_id);
    if (!list) byFarm.set(m.farm_id, (list = []));
    list.push({ online: live?.online ?? false, attention: mcuNeedsAttention(live, linkedConfig(m)) });
  }
  const statuses = new Map<number, FarmStatus>();
  for (const f of farms) {
    const complete = f.mcus.every((m) => loaded.has(m.mcu_id));
    statuses.set(f.farm_id, complete ? farmStatusOf(byFarm.get(f.farm_id) ?? []) : f.status);
  }
  return statuses;
}

/**
 * An MCU's battery level in %, or null if it never reported one: the live reading wins over the
 * MCU record, which is only as fresh as the last load.
 */
export function mcuBatteryLevel(mcu: Pick<Mcu, "readings">, live: McuLive | undefined): number | null {
  const level = live?.readings?.batteryLevel ?? parseReadings(mcu.readings)?.batteryLevel;
  return typeof level === "number" && Number.isFinite(level) ? level : null;
}
