import { startDataCore } from "./core-client.ts";
import type { AppData } from "./provider.tsx";
import { createSession } from "./session.ts";
import { createAppStore } from "./store.ts";

/**
 * Wires the data core (worker), the main-thread store and the session: every update from the
 * core is applied to the store, and each live batch acknowledged once applied (backpressure);
 * the MCUs the store's subscribers watch are the core's interest.
 */
export function createAppData(options: { apiBase?: string; preferWorker?: boolean; storage?: Storage } = {}): AppData & {
  terminate(): void;
  /** When the core is up: in a worker, or in this thread. The app needs not wait for it (calls wait). */
  ready: Promise<{ inWorker: boolean }>;
} {
  const store = createAppStore();
  let ack: (seq: number) => void = () => {};
  const { core, ready, terminate } = startDataCore({
    apiBase: options.apiBase ?? "",
    preferWorker: options.preferWorker,
    onUpdate: (update) => {
      const seq = store.apply(update);
      if (seq !== null) ack(seq);
    },
    // A returning farmer's first cards while the core loads; the core's validated list replaces them.
    onFirstMcus: ({ mcus, cards, managerCards }) => {
      if (store.getIds("mcus").length !== 0) return;
      store.apply({ kind: "records", name: "mcus", key: "mcu_id", ids: mcus.map((m) => m.mcu_id), changed: mcus, more: true, views: { cards, managerCards } });
    },
  });
  ack = (seq) => void core.ack(seq);
  store.onInterest((macs) => void core.setInterest(macs));
  store.onQueries((queryKeys) => void core.setQueries(queryKeys));
  store.onCardInterest((mcuIds) => void core.setCardInterest(mcuIds));
  store.onManagerCardInterest((mcuIds) => void core.setManagerCardInterest(mcuIds));
  store.onWallRequest((request) => void core.setWall(request));
  store.onMembersInterest((farmIds) => void core.setMembersInterest(farmIds));
  const session = createSession(core, store, options.storage);
  return { core, store, session, ready, terminate };
}
