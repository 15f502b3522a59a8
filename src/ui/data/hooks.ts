import { useCallback, useEffect, useSyncExternalStore } from "react";
import { useSyncExternalStoreWithSelector } from "use-sync-external-store/with-selector";
import type { Farm, FarmStatus } from "../../contract/entities.ts";
import { mcuQueryKey, wallRequestKey, type DashboardSummary, type Entities, type EntityName, type LoadState, type McuCardView, type McuLive, type McuManagerCardView, type McuQuery, type McuStats, type WallPage, type WallRequest } from "../../contract/live.ts";
import { useAppData } from "./provider.tsx";
import { keys } from "./store.ts";

export type { DashboardSummary, McuQuery, McuStats } from "../../contract/live.ts";

/**
 * What a component shows of one MCU's live snapshot (by MAC): `select` picks it, and the component
 * re-renders only when `isEqual` says the pick changed, not at every reading (a card that shows
 * a status and a battery level would otherwise render five times a second for nothing). While
 * mounted it makes the MCU of interest: the core sends its snapshots, and its latest one when it
 * mounts.
 */
export function useMcuLiveWith<T>(mac: string | undefined, select: (live: McuLive | undefined) => T, isEqual: (a: T, b: T) => boolean): T {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => (mac ? store.subscribe(keys.live(mac), fn) : () => {}), [store, mac]);
  const snapshot = () => (mac ? store.getLive(mac) : undefined);
  return useSyncExternalStoreWithSelector(subscribe, snapshot, snapshot, select, isEqual);
}

/**
 * One MCU's dashboard card view, joined and judged in the core; watching it has the core send it,
 * and it re-renders only when the view changes.
 */
export function useMcuCard(mcuId: number): McuCardView | undefined {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.card(mcuId), fn), [store, mcuId]);
  return useSyncExternalStore(subscribe, () => store.getCard(mcuId));
}

/**
 * One MCU's MCU Manager card view, joined and judged in the core (status, battery, Last Seen);
 * watching it has the core send it, and it re-renders only when what the card shows changes.
 */
export function useMcuManagerCard(mcuId: number): McuManagerCardView | undefined {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.managerCard(mcuId), fn), [store, mcuId]);
  return useSyncExternalStore(subscribe, () => store.getManagerCard(mcuId));
}

/**
 * One record of a collection crossing by record (an MCU with its controllers, sensors and profile
 * links); re-renders only when it changes.
 */
export function useRecord<K extends EntityName>(name: K, id: number): Entities[K][number] | undefined {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.record(name, id), fn), [store, name, id]);
  return useSyncExternalStore(subscribe, () => store.getRecord(name, id));
}

const whole = <T>(list: T): T => list;

/**
 * A collection of the core (`EntityName`: farms, mcus, …), or what `select` picks of it: the
 * component re-renders only when the pick changes (`isEqual`, identity by default), not at every
 * change of the list.
 */
export function useCollection<K extends EntityName>(name: K): Entities[K];
export function useCollection<K extends EntityName, T>(name: K, select: (list: Entities[K]) => T, isEqual?: (a: T, b: T) => boolean): T;
export function useCollection<K extends EntityName, T>(name: K, select: (list: Entities[K]) => T = whole as (list: Entities[K]) => T, isEqual?: (a: T, b: T) => boolean): T {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.entities(name), fn), [store, name]);
  const snapshot = () => store.get(name);
  return useSyncExternalStoreWithSelector(subscribe, snapshot, snapshot, select, isEqual);
}

/**
 * The ids of a collection crossing by record (the client's MCUs), in list order; re-renders only
 * when the list's membership or order changes (not for a record's change). Known from the first
 * part of a list.
 */
export function useRecordIds(name: EntityName): readonly number[] {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.ids(name), fn), [store, name]);
  return useSyncExternalStore(subscribe, () => store.getIds(name));
}

/** The items that left a collection for good in this session (its declaration's `merge`), latest first. */
export function useLeft<K extends EntityName>(name: K): Readonly<Entities[K]> {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.left(name), fn), [store, name]);
  return useSyncExternalStore(subscribe, () => store.getLeft(name));
}

/** Whether a collection the core loads by itself is loading, ready, or failed with why (its screen's Try again). */
export function useCollectionLoad(name: EntityName): LoadState {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.load(name), fn), [store, name]);
  return useSyncExternalStore(subscribe, () => store.getLoad(name));
}

/** The four summary cards of the Dashboard (SPEC §2), computed by the core over the whole fleet. */
export function useDashboardSummary(): DashboardSummary | null {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.summary, fn), [store]);
  return useSyncExternalStore(subscribe, store.getSummary);
}

/** The MCU Manager's stat cards (Total MCUs, Online, Offline, Low Battery), computed by the core over the whole fleet. */
export function useMcuStats(): McuStats {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.mcuStats, fn), [store]);
  return useSyncExternalStore(subscribe, store.getMcuStats);
}

/**
 * The ids of the MCUs matching the MCU Manager's search and filters, computed by the core over the
 * whole fleet (live statuses included) and sent when the result changes; empty until the first
 * result arrives (within a frame of mounting). Null watches nothing (no query on screen).
 */
export function useMcuQuery(query: McuQuery | null): readonly number[] {
  const { store } = useAppData();
  const key = query && mcuQueryKey(query);
  const subscribe = useCallback((fn: () => void) => (key === null ? () => {} : store.subscribe(keys.mcuQuery(key), fn)), [store, key]);
  return useSyncExternalStore(subscribe, () => (key === null ? NO_IDS : store.getMcuQuery(key)));
}

const NO_IDS: readonly number[] = [];

/**
 * A farm's SPEC §3 status, derived live by the core from its MCUs' readings, profiles and
 * freshness (the server's status until it has). The card re-renders only when the status changes.
 */
export function useFarmStatus(farm: Farm): FarmStatus {
  const { store } = useAppData();
  const id = farm.farm_id;
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.farmStatus(id), fn), [store, id]);
  return useSyncExternalStore(subscribe, () => store.getFarmStatus(id) ?? farm.status);
}

/**
 * When the server last gave the oldest of these lists, if any of them is shown from what this
 * device saved because the server cannot be reached; null while they are all current.
 */
export function useSavedAt(names: readonly EntityName[]): number | null {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.savedAges, fn), [store]);
  const ages = useSyncExternalStore(subscribe, store.getSavedAges);
  let oldest: number | null = null;
  for (const name of names) {
    const at = ages[name];
    if (at !== undefined && (oldest === null || at < oldest)) oldest = at;
  }
  return oldest;
}

/** The oldest list shown from what this device saved (any screen's), or null while all are current. */
export function useOldestSavedAt(): number | null {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.savedAges, fn), [store]);
  const ages = useSyncExternalStore(subscribe, store.getSavedAges);
  const times = Object.values(ages);
  return times.length > 0 ? Math.min(...times) : null;
}

export function useConnection() {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.connection, fn), [store]);
  return useSyncExternalStore(subscribe, store.getConnection);
}

/**
 * The wall view's page: while mounted with a request, the core groups the whole fleet
 * by farm, trouble first, cuts it into pages of the request's layout and sends the page asked for,
 * again whenever it changes; null until the first comes (the last one stays while the next comes).
 */
export function useWallPage(request: WallRequest | null): WallPage | null {
  const { store } = useAppData();
  const requestKey = request && wallRequestKey(request);
  useEffect(() => (requestKey === null ? undefined : store.watchWall(requestKey)), [store, requestKey]);
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.wall, fn), [store]);
  return useSyncExternalStore(subscribe, store.getWall);
}
