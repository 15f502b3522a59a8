import { Subject, type SchedulerLike } from "rxjs";
import type { Mcu, Notification } from "../contract/entities.ts";
import { parseMcuQueryKey, type ConnectionState, type Entities, type McuCardView, type McuQuery, type SnapshotBatch } from "../contract/live.ts";
import { normalizeMac } from "../contract/mac.ts";
import type { CommandAck, CommandTarget } from "../contract/realtime.ts";
import { pendingKey, type CoreEvent } from "../streams/device-snapshots.ts";
import { createCardViews } from "../streams/card-view.ts";
import { computeFleet } from "../streams/fleet.ts";
import { snapshotPipeline } from "../streams/snapshot-pipeline.ts";
import { openLiveSocket, type LiveSocket, type LiveSocketOptions } from "./live-socket.ts";

export interface LiveDeps {
  scheduler?: SchedulerLike;
  now?: () => number;
  connect?: LiveSocketOptions["connect"];
  frameMs?: number;
  /** The entities the fleet results are computed over. */
  entities: Pick<Entities, "farms" | "mcus">;
  /** A frame batch for the main thread; false when nobody receives it (then it counts as applied). */
  deliver(batch: SnapshotBatch): boolean;
  notification(n: Notification): void;
  connection(state: ConnectionState, message?: string): void;
}

/**
 * The live side of the core: the socket, the fold of its events into per-MCU snapshots, the set
 * of MCUs of interest (those on screen) and the whole-fleet results. Batches carry only the MCUs
 * of interest; the fleet results cover every MCU.
 */
export function createLive(deps: LiveDeps) {
  const now = deps.now ?? Date.now;
  let socket: LiveSocket | null = null;
  const events$ = new Subject<CoreEvent>();
  const ready$ = new Subject<void>();
  /** The MCU Manager queries watched on the main thread, by key. */
  let queries = new Map<string, McuQuery>();

  /**
   * Cards: the MCUs whose dashboard cards are mounted get their card view (record + snapshot,
   * judged here), sent again only when it changed.
   */
  const views = createCardViews();
  let cardIds: readonly number[] = [];
  const sentCards = new Map<number, McuCardView>();
  let mcusIndexed: Mcu[] | null = null;
  let mcuIndex = new Map<number, Mcu>();
  const mcuOf = (id: number) => {
    if (mcusIndexed !== deps.entities.mcus) {
      mcusIndexed = deps.entities.mcus;
      mcuIndex = new Map(mcusIndexed.map((m) => [m.mcu_id, m]));
    }
    return mcuIndex.get(id);
  };

  const pipeline = snapshotPipeline({
    events$,
    ready$,
    scheduler: deps.scheduler,
    frameMs: deps.frameMs,
    // Nothing is on screen until the main thread says so.
    interest: [],
    summarize: (state) => computeFleet(deps.entities.farms, deps.entities.mcus, (mac) => state.devices.get(mac), queries),
    cards: (state) => {
      const changed: McuCardView[] = [];
      for (const id of cardIds) {
        const mcu = mcuOf(id);
        if (!mcu) continue;
        const view = views(mcu, state.devices.get(normalizeMac(mcu.mac)));
        if (sentCards.get(id) === view) continue;
        sentCards.set(id, view);
        changed.push(view);
      }
      return changed;
    },
  });
  pipeline.batches$.subscribe((batch) => {
    if (!deps.deliver(batch)) ready$.next();
  });

  return {
    /** The fold's state (tests). */
    state: pipeline.state,
    get connected() {
      return socket !== null;
    },

    open(url: string, clientId: number) {
      socket = openLiveSocket({
        url,
        clientId,
        connect: deps.connect,
        handlers: {
          authenticated: (p) => events$.next({ kind: "snapshot", devices: p.devices }),
          data: (p) => events$.next({ kind: "reading", mac: normalizeMac(p.deviceId), payload: p.payload, at: now() }),
          status: (p) => events$.next({ kind: "status", mac: normalizeMac(p.deviceId), status: p.status }),
          batch: (p) => events$.next({ kind: "batch", batch: p, at: now() }),
          notification: deps.notification,
          connection: deps.connection,
        },
      });
    },

    /** Closes the socket and forgets every snapshot; the interest set stays (the screen did not change). */
    close() {
      socket?.close();
      socket = null;
      events$.next({ kind: "reset" });
      sentCards.clear();
    },

    /** The main thread applied the last batch: the next one may come. */
    ack() {
      ready$.next();
    },

    /** The MACs on screen (normalised here); MCUs new to the set get their snapshot in the next batch. */
    setInterest(macs: readonly string[]) {
      pipeline.setInterest(macs.map(normalizeMac));
    },

    /** The MCUs whose cards are mounted; those new to the set get their card view in the next batch. */
    setCardInterest(ids: readonly number[]) {
      cardIds = ids;
      const wanted = new Set(ids);
      for (const id of [...sentCards.keys()]) if (!wanted.has(id)) sentCards.delete(id);
      pipeline.refresh();
    },

    /** The MCU Manager queries watched (by `mcuQueryKey`); their results come with the next batch. */
    setQueries(keys: readonly string[]) {
      queries = new Map(keys.map((key) => [key, parseMcuQueryKey(key)]));
      pipeline.invalidate();
    },

    /** The MCU or farm list changed: the fleet results are computed again for the next frame. */
    entitiesChanged() {
      pipeline.invalidate();
    },

    async sendCommand(mac: string, target: CommandTarget, type: "auto" | "status", onOff: boolean): Promise<CommandAck | null> {
      const s = socket;
      if (!s) return null;
      const key = pendingKey(target, type);
      events$.next({ kind: "pending", mac, key, value: onOff });
      const ack = await s.sendCommand({ deviceId: mac, type, value: { type, onOff, target } });
      events$.next({ kind: "pending", mac, key, value: null });
      if (ack.ok) events$.next({ kind: "confirmed", mac, target, field: type, value: onOff });
      return ack;
    },

    async refresh(mac: string): Promise<CommandAck | null> {
      const s = socket;
      return s ? s.refresh({ deviceId: mac, mac }) : null;
    },
  };
}

export type Live = ReturnType<typeof createLive>;
