import type { Alarm } from "../contract/alarms-values.ts";
import { COLLECTIONS } from "../contract/collections.ts";
import type { CoreUpdate, Entities, EntityName, LoadState, McuLive } from "../contract/live.ts";
import { createCardViews } from "../streams/card-view.ts";
import { computeFleet } from "../streams/fleet.ts";
import { createManagerCardViews } from "../streams/mcu-manager-view.ts";
import type { AppStore } from "../ui/data/store.ts";

/**
 * What the core sends of a whole list, as its declaration says it crosses: the list itself, or
 * every record of it (the store keeps the objects it already holds).
 */
export function wholeList<K extends EntityName>(name: K, list: Entities[K], extra: { load?: LoadState } = {}): CoreUpdate {
  if (COLLECTIONS[name].crossing !== "by-record") return { kind: "entities", entities: { [name]: list } };
  const key = COLLECTIONS[name].id;
  const items = list as readonly Record<string, unknown>[];
  return { kind: "records", name, key, ids: items.map((item) => item[key] as number), changed: list, ...extra } as CoreUpdate;
}

/**
 * For component tests without a data core: applies entities and live snapshots to a store as the
 * core would send them, with the whole-fleet results (summary, farm statuses, MCU stats) the core
 * computes over every snapshot fed, not only those of interest, and the card views of every MCU
 * (the dashboard's and the MCU Manager's, made by the core's own functions; Last Seen at `now`).
 * The active alarms are known from the start (none until fed).
 */
export function feedStore(store: AppStore, now: () => number = Date.now) {
  let seq = 0;
  const live = new Map<string, McuLive>();
  let active: Alarm[] = [];
  const fleet = () => computeFleet(store.get("farms"), store.get("mcus"), (mac) => live.get(mac), new Map(), new Set(active.map((a) => a.mcu_id)));
  const views = createCardViews();
  const managerViews = createManagerCardViews();
  const cards = () => ({
    cards: store.get("mcus").map((m) => views(m, live.get(m.mac))),
    managerCards: store.get("mcus").map((m) => managerViews.view(m, live.get(m.mac), now())),
  });
  return {
    entities(partial: Partial<Entities>) {
      for (const name of Object.keys(partial) as EntityName[]) store.apply(wholeList(name, partial[name]!));
      store.apply({ kind: "live", batch: { seq: ++seq, upserts: [], removed: [], clock: 0, fleet: fleet(), ...cards() } });
    },
    /** The whole set of active alarms, as a load of the core sends it, with the fleet results it makes. */
    alarms(...alarms: Alarm[]) {
      active = alarms;
      store.apply(wholeList("alarms", alarms, { load: { state: "ready" } }));
      store.apply({ kind: "live", batch: { seq: ++seq, upserts: [], removed: [], clock: 0, fleet: fleet(), ...cards() } });
    },
    /** One frame batch carrying these snapshots. Answers its seq. */
    live(...snapshots: McuLive[]): number {
      for (const s of snapshots) live.set(s.mac, s);
      return store.apply({ kind: "live", batch: { seq: ++seq, upserts: snapshots, removed: [], clock: 0, fleet: fleet(), ...cards() } })!;
    },
  };
}

export type StoreFeed = ReturnType<typeof feedStore>;
