import type { Alarm } from "../contract/alarms-values.ts";
import type { Entities, McuLive } from "../contract/live.ts";
import { createCardViews } from "../streams/card-view.ts";
import { computeFleet } from "../streams/fleet.ts";
import { createManagerCardViews } from "../streams/mcu-manager-view.ts";
import type { AppStore } from "../ui/data/store.ts";

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
      store.apply({ kind: "entities", entities: partial });
      store.apply({ kind: "live", batch: { seq: ++seq, upserts: [], removed: [], clock: 0, fleet: fleet(), ...cards() } });
    },
    /** The whole set of active alarms, as a load of the core sends it, with the fleet results it makes. */
    alarms(...alarms: Alarm[]) {
      active = alarms;
      store.apply({ kind: "alarms", reset: true, active: alarms, resolved: [], load: { state: "ready" } });
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
