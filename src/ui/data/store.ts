import type { FarmStatus, Notification } from "../../contract/entities.ts";
import type { McuLive } from "../../streams/device-snapshots.ts";
import { deriveFarmStatuses } from "../../streams/live-status.ts";
import type { SnapshotBatch } from "../../streams/fold.ts";
import type { CoreUpdate, Entities, EntityName } from "../../worker/core.ts";

export type ConnectionInfo = { state: "idle" | "connecting" | "connected" | "reconnecting" | "unauthorized" | "closed"; message?: string };

type Listener = () => void;

const EMPTY: Entities = { farms: [], mcus: [], profiles: [], notifications: [], controllers: [], sensors: [] };

/** Keys subscribers listen to. */
export const keys = {
  live: (mac: string) => `live:${mac}`,
  anyLive: "live:*",
  mcu: (mcuId: number) => `mcu:${mcuId}`,
  entities: (name: EntityName) => `entities:${name}`,
  connection: "connection",
} as const;

/**
 * The main thread's copy of the core's data. A batch replaces the snapshots it carries and
 * notifies only the subscribers of what changed; getters return the same object until its
 * content changes, as useSyncExternalStore requires.
 */
export function createAppStore() {
  const live = new Map<string, McuLive>();
  let entities: Entities = EMPTY;
  /** The last JSON of each MCU entity, to keep an unchanged MCU's object across reloads. */
  const mcuJson = new Map<number, string>();
  const mcuById = new Map<number, Entities["mcus"][number]>();
  let connection: ConnectionInfo = { state: "idle" };
  const listeners = new Map<string, Set<Listener>>();
  /** Counts applied changes: a snapshot for selectors that read several parts of the store. */
  let version = 0;
  /** Counts changes of what farm statuses derive from (live snapshots, MCUs, farms). */
  let fleetVersion = 0;
  let farmStatuses: { at: number; statuses: ReadonlyMap<number, FarmStatus> } | null = null;

  function emit(changed: Iterable<string>) {
    version++;
    const called = new Set<Listener>();
    for (const key of changed) {
      for (const fn of listeners.get(key) ?? []) {
        if (called.has(fn)) continue;
        called.add(fn);
        fn();
      }
    }
  }

  function applyLive(batch: SnapshotBatch) {
    const changed: string[] = [];
    for (const snap of batch.upserts) {
      live.set(snap.mac, snap);
      changed.push(keys.live(snap.mac));
    }
    for (const mac of batch.removed) {
      if (live.delete(mac)) changed.push(keys.live(mac));
    }
    if (changed.length) {
      fleetVersion++;
      emit([...changed, keys.anyLive]);
    }
  }

  function applyEntities(partial: Partial<Entities>) {
    const changed: string[] = [];
    const next = { ...entities };
    for (const name of Object.keys(partial) as EntityName[]) {
      if (name === "mcus") {
        const incoming = partial.mcus!;
        const seen = new Set<number>();
        next.mcus = incoming.map((m) => {
          seen.add(m.mcu_id);
          const json = JSON.stringify(m);
          if (mcuJson.get(m.mcu_id) === json) return mcuById.get(m.mcu_id)!;
          mcuJson.set(m.mcu_id, json);
          mcuById.set(m.mcu_id, m);
          changed.push(keys.mcu(m.mcu_id));
          return m;
        });
        for (const id of [...mcuById.keys()]) {
          if (seen.has(id)) continue;
          mcuById.delete(id);
          mcuJson.delete(id);
          changed.push(keys.mcu(id));
        }
        const same = next.mcus.length === entities.mcus.length && next.mcus.every((m, i) => m === entities.mcus[i]);
        if (same) next.mcus = entities.mcus;
        else changed.push(keys.entities("mcus"));
      } else {
        (next as Record<EntityName, unknown>)[name] = partial[name];
        changed.push(keys.entities(name));
      }
    }
    entities = next;
    if (changed.includes(keys.entities("mcus")) || changed.includes(keys.entities("farms"))) fleetVersion++;
    emit(changed);
  }

  return {
    /** Applies what the core sent. Answers the live batch's seq, to acknowledge it. */
    apply(update: CoreUpdate): number | null {
      switch (update.kind) {
        case "live":
          applyLive(update.batch);
          return update.batch.seq;
        case "entities":
          applyEntities(update.entities);
          return null;
        case "connection":
          connection = { state: update.state, message: update.message };
          emit([keys.connection]);
          return null;
        case "notification":
          return null;
      }
    },

    subscribe(key: string, fn: Listener): () => void {
      let set = listeners.get(key);
      if (!set) listeners.set(key, (set = new Set()));
      set.add(fn);
      return () => {
        set!.delete(fn);
        if (set!.size === 0) listeners.delete(key);
      };
    },

    /** Subscribes to several keys with one callback. */
    subscribeMany(keyList: string[], fn: Listener): () => void {
      const offs = keyList.map((k) => this.subscribe(k, fn));
      return () => offs.forEach((off) => off());
    },

    getLive: (mac: string): McuLive | undefined => live.get(mac),
    allLive: (): ReadonlyMap<string, McuLive> => live,
    getMcu: (mcuId: number) => mcuById.get(mcuId),
    get: <K extends EntityName>(name: K): Entities[K] => entities[name],
    getConnection: () => connection,
    version: () => version,

    /**
     * SPEC §3 status of each farm, derived live from its MCUs; computed at most once per change
     * of its inputs, however many farm cards ask.
     */
    farmStatuses(): ReadonlyMap<number, FarmStatus> {
      if (farmStatuses?.at !== fleetVersion) {
        farmStatuses = { at: fleetVersion, statuses: deriveFarmStatuses(entities.farms, entities.mcus, (mac) => live.get(mac)) };
      }
      return farmStatuses.statuses;
    },

    /** Forgets the notifications (sign-out, SPEC §4). */
    resetNotifications() {
      applyEntities({ notifications: [] as Notification[] });
    },

    /** How many listeners are registered (tests: nothing left behind). */
    listenerCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
  };
}

export type AppStore = ReturnType<typeof createAppStore>;
