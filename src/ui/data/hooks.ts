import { useCallback, useSyncExternalStore } from "react";
import { useSyncExternalStoreWithSelector } from "use-sync-external-store/with-selector";
import type { Farm, FarmStatus, Mcu } from "../../contract/entities.ts";
import type { McuLive } from "../../streams/device-snapshots.ts";
import type { Entities, EntityName } from "../../worker/core.ts";
import { useAppData } from "./provider.tsx";
import { keys } from "./store.ts";

/** The live snapshot of one MCU (by MAC); re-renders only when that MCU changes. */
export function useMcuLive(mac: string | undefined): McuLive | undefined {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => (mac ? store.subscribe(keys.live(mac), fn) : () => {}), [store, mac]);
  return useSyncExternalStore(subscribe, () => (mac ? store.getLive(mac) : undefined));
}

/** One MCU entity (controllers, sensors, profile links); re-renders only when it changes. */
export function useMcu(mcuId: number): Mcu | undefined {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.mcu(mcuId), fn), [store, mcuId]);
  return useSyncExternalStore(subscribe, () => store.getMcu(mcuId));
}

function useEntities<K extends EntityName>(name: K): Entities[K] {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.entities(name), fn), [store, name]);
  return useSyncExternalStore(subscribe, () => store.get(name));
}

export const useFarms = () => useEntities("farms");
export const useMcus = () => useEntities("mcus");
export const useProfiles = () => useEntities("profiles");
export const useNotifications = () => useEntities("notifications");
export const useControllers = () => useEntities("controllers");
export const useSensors = () => useEntities("sensors");

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The ids of the MCUs that pass `filter` (which may look at live state); the list re-renders
 * only when its membership changes, not when a reading changes.
 */
export function useMcuIds(filter?: (mcu: Mcu, live: McuLive | undefined) => boolean): number[] {
  const { store } = useAppData();
  const subscribe = useCallback(
    (fn: () => void) => store.subscribeMany(filter ? [keys.entities("mcus"), keys.anyLive] : [keys.entities("mcus")], fn),
    [store, filter],
  );
  return useSyncExternalStoreWithSelector<unknown, number[]>(
    subscribe,
    filter ? store.version : () => store.get("mcus"),
    undefined,
    () => {
      const mcus = store.get("mcus");
      return (filter ? mcus.filter((m) => filter(m, store.getLive(m.mac))) : mcus).map((m) => m.mcu_id);
    },
    sameIds,
  );
}

export interface DashboardSummary {
  totalFarms: number;
  /** MCUs whose live status is online (a reading within 120 s). */
  activeMcus: number;
  /** Farms with status warning. */
  warnings: number;
  offlineMcus: number;
}

/** The four summary cards of the Dashboard (SPEC §2). */
export function useDashboardSummary(): DashboardSummary {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribeMany([keys.entities("farms"), keys.entities("mcus"), keys.anyLive], fn), [store]);
  return useSyncExternalStoreWithSelector(
    subscribe,
    store.version,
    undefined,
    () => {
      const mcus = store.get("mcus");
      const online = mcus.filter((m) => store.getLive(m.mac)?.online).length;
      let warnings = 0;
      for (const status of store.farmStatuses().values()) if (status === "warning") warnings++;
      return { totalFarms: store.get("farms").length, activeMcus: online, warnings, offlineMcus: mcus.length - online };
    },
    (a, b) => a.totalFarms === b.totalFarms && a.activeMcus === b.activeMcus && a.warnings === b.warnings && a.offlineMcus === b.offlineMcus,
  );
}

/**
 * A farm's SPEC §3 status, derived live from its MCUs' readings, profiles and freshness. The card
 * re-renders only when the status itself changes, not on every reading of its MCUs.
 */
export function useFarmStatus(farm: Farm): FarmStatus {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribeMany([keys.entities("farms"), keys.entities("mcus"), keys.anyLive], fn), [store]);
  return useSyncExternalStore(subscribe, () => store.farmStatuses().get(farm.farm_id) ?? farm.status);
}

export function useConnection() {
  const { store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.connection, fn), [store]);
  return useSyncExternalStore(subscribe, store.getConnection);
}
