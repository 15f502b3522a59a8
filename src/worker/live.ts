import { asyncScheduler, Subject, type SchedulerLike, type Subscription } from "rxjs";
import type { Mcu } from "../contract/entities.ts";
import { parseMcuQueryKey, type ConnectionState, type Entities, type McuCardView, type McuManagerCardView, type McuQuery, type McuViews, type SnapshotBatch, type WallRequest } from "../contract/live.ts";
import { normalizeMac } from "../contract/mac.ts";
import type { CollectionEvents, CommandAck, CommandTarget, DeviceSnapshot } from "../contract/realtime.ts";
import { pendingKey, type CoreEvent } from "../streams/device-snapshots.ts";
import { createCardViews } from "../streams/card-view.ts";
import { createMcuGrowIndex } from "../streams/mcu-grow.ts";
import { computeFleet } from "../streams/fleet.ts";
import { createManagerCardViews } from "../streams/mcu-manager-view.ts";
import { snapshotPipeline } from "../streams/snapshot-pipeline.ts";
import { createWallGroups, sameWallTile, WALL_TILE_VALUES_MS, wallPage } from "../streams/wall.ts";
import { openLiveSocket, type LiveSocket, type LiveSocketOptions } from "./live-socket.ts";

export interface LiveDeps {
  scheduler?: SchedulerLike;
  now?: () => number;
  connect?: LiveSocketOptions["connect"];
  frameMs?: number;
  /** The entities the fleet results are computed over. */
  entities: Pick<Entities, "farms" | "mcus" | "batches">;
  /** A frame batch for the main thread; false when nobody receives it (then it counts as applied). */
  deliver(batch: SnapshotBatch): boolean;
  /** An event that changes a collection (a new notification), its payload checked. */
  collectionEvent<E extends keyof CollectionEvents>(event: E, payload: CollectionEvents[E]): void;
  /** `heardAt`: when the server was last heard from (any event or keep-alive ping), null before it ever was. */
  connection(state: ConnectionState, message?: string, heardAt?: number | null): void;
  /** The socket (re)authenticated: what it missed while down is fetched again (the active alarms). */
  authenticated?(): void;
  /** The MCUs with an active alarm, for the farm statuses; null while unknown. */
  alarmed?(): ReadonlySet<number> | null;
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
  /**
   * The MCUs whose MCU Manager cards are mounted get their view (record + snapshot, status, battery
   * and Last Seen judged here at the clock), sent again only when what the card shows changed.
   */
  const managerViews = createManagerCardViews();
  let managerCardIds: readonly number[] = [];
  const sentManagerCards = new Map<number, McuManagerCardView>();
  /** The batch each MCU follows, as its cards say it (at the freshness clock: a day's change shows within 30 s). */
  const growIndex = createMcuGrowIndex();
  const growOf = (id: number, clock: number) => growIndex(deps.entities.batches, clock).get(id) ?? null;
  let mcusIndexed: Mcu[] | null = null;
  let mcuIndex = new Map<number, Mcu>();
  const mcuOf = (id: number) => {
    if (mcusIndexed !== deps.entities.mcus) {
      mcusIndexed = deps.entities.mcus;
      mcuIndex = new Map(mcusIndexed.map((m) => [m.mcu_id, m]));
    }
    return mcuIndex.get(id);
  };

  /**
   * The wall view: the page it shows and its layout, and the JSON of the page last
   * sent, so a page goes again only when it changed.
   */
  let wallRequest: WallRequest | null = null;
  let wallSent: string | null = null;
  const wallGroups = createWallGroups();
  /** The MCUs on the wall page last sent, and when each tile's view was last sent (its values are paced). */
  let wallIds: ReadonlySet<number> = new Set();
  const wallTileSentAt = new Map<number, number>();
  let wallTileTimer: Subscription | null = null;
  /** A wall tile whose new values wait for their turn gets them then, without another event. */
  const wakeAt = (due: number) => {
    wallTileTimer ??= (deps.scheduler ?? asyncScheduler).schedule(
      () => {
        wallTileTimer = null;
        pipeline.refresh();
      },
      Math.max(0, due - now()),
    );
  };

  /** When the server was last heard from: what is on screen is as fresh as that while the link is down. */
  let heardAt: number | null = null;
  const heard = () => {
    heardAt = now();
  };
  /** The socket has said what the devices are since it opened: nothing saved may stand in for that. */
  let authenticated = false;

  /** Server events (or entries of a batch) dropped for not matching their contract schema, since the core started. */
  let droppedEvents = 0;
  const droppedKinds = new Set<string>();
  function dropped(event: string, count: number) {
    droppedEvents += count;
    // Once per kind of event: a server sending malformed readings sends thousands a second.
    if (droppedKinds.has(event)) return;
    droppedKinds.add(event);
    console.warn(`Dropped a malformed ${event} event from the server (further ones are only counted: liveStats().droppedEvents)`);
  }

  const pipeline = snapshotPipeline({
    events$,
    ready$,
    scheduler: deps.scheduler,
    frameMs: deps.frameMs,
    // Nothing is on screen until the main thread says so.
    interest: [],
    summarize: (state) => computeFleet(deps.entities.farms, deps.entities.mcus, (mac) => state.devices.get(mac), queries, deps.alarmed?.() ?? null),
    cards: (state) => {
      const changed: McuCardView[] = [];
      const t = now();
      let due = Infinity;
      for (const id of cardIds) {
        const mcu = mcuOf(id);
        if (!mcu) continue;
        const view = views(mcu, state.devices.get(normalizeMac(mcu.mac)), growOf(id, state.clock));
        const last = sentCards.get(id);
        if (last === view) continue;
        if (wallIds.has(id)) {
          // A wall tile: new values wait for their turn; a change of what it says goes at once.
          const turn = (wallTileSentAt.get(id) ?? -Infinity) + WALL_TILE_VALUES_MS;
          if (last && t < turn && sameWallTile(last, view)) {
            due = Math.min(due, turn);
            continue;
          }
          wallTileSentAt.set(id, t);
        }
        sentCards.set(id, view);
        changed.push(view);
      }
      if (due < Infinity) wakeAt(due);
      return changed;
    },
    managerCards: (state) => {
      const changed: McuManagerCardView[] = [];
      for (const id of managerCardIds) {
        const mcu = mcuOf(id);
        if (!mcu) continue;
        // Last Seen's words move with the freshness clock (every 30 s), as the badge's status does.
        const view = managerViews.view(mcu, state.devices.get(normalizeMac(mcu.mac)), state.clock, growOf(id, state.clock));
        if (sentManagerCards.get(id) === view) continue;
        sentManagerCards.set(id, view);
        changed.push(view);
      }
      return changed;
    },
    wall: (state) => {
      if (!wallRequest) return null;
      const { groups, counts } = wallGroups(deps.entities.farms, deps.entities.mcus, (mac) => state.devices.get(mac), now());
      const page = wallPage(groups, counts, wallRequest);
      const json = JSON.stringify(page);
      if (json === wallSent) return null;
      wallSent = json;
      wallIds = new Set(page.sections.flatMap((s) => s.mcuIds));
      for (const id of wallTileSentAt.keys()) if (!wallIds.has(id)) wallTileSentAt.delete(id);
      return page;
    },
  });
  pipeline.batches$.subscribe((batch) => {
    if (!deps.deliver(batch)) ready$.next();
  });

  return {
    /** The fold's state: each MCU's latest snapshot (the saved MCU list takes its readings from it). */
    state: pipeline.state,
    /** How many server events (or entries of a batch) were dropped for not matching their contract schema. */
    stats: () => ({ droppedEvents }),
    get connected() {
      return socket !== null;
    },

    open(url: string, clientId: number) {
      socket = openLiveSocket({
        url,
        clientId,
        connect: deps.connect,
        handlers: {
          authenticated: (p) => {
            heard();
            authenticated = true;
            if (p.devices) events$.next({ kind: "snapshot", devices: p.devices });
            deps.authenticated?.();
          },
          data: (p) => {
            heard();
            events$.next({ kind: "reading", mac: normalizeMac(p.deviceId), payload: p.payload, at: heardAt! });
          },
          status: (p) => {
            heard();
            events$.next({ kind: "status", mac: normalizeMac(p.deviceId), status: p.status });
          },
          batch: (p) => {
            heard();
            events$.next({ kind: "batch", batch: p, at: heardAt! });
          },
          heard,
          collectionEvent: deps.collectionEvent,
          dropped,
          connection: (state, message) => {
            if (state === "connected") heard();
            deps.connection(state, message, heardAt);
          },
        },
      });
    },

    /** Closes the socket and forgets every snapshot; the interest set stays (the screen did not change). */
    close() {
      socket?.close();
      socket = null;
      authenticated = false;
      events$.next({ kind: "reset" });
      sentCards.clear();
      sentManagerCards.clear();
      wallSent = null;
      heardAt = null;
    },

    /**
     * The devices as this device saved them (their last readings and when they came), shown until
     * the socket says what they are now; ignored once it has.
     */
    seed(devices: DeviceSnapshot[]) {
      if (!authenticated) events$.next({ kind: "snapshot", devices });
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

    /**
     * The card views of these MCUs now, both screens', counted as sent: the first part of a list
     * carries them, so its first cards paint with it (a card that then mounts gets its view again
     * only if it changed meanwhile).
     */
    viewsOf(mcus: readonly Mcu[]): McuViews {
      const liveOf = (m: Mcu) => pipeline.state.devices.get(normalizeMac(m.mac));
      const clock = pipeline.state.clock;
      const cards = mcus.map((m) => {
        const view = views(m, liveOf(m), growOf(m.mcu_id, clock));
        sentCards.set(m.mcu_id, view);
        return view;
      });
      const managerCards = mcus.map((m) => {
        const view = managerViews.view(m, liveOf(m), clock, growOf(m.mcu_id, clock));
        sentManagerCards.set(m.mcu_id, view);
        return view;
      });
      return { cards, managerCards };
    },

    /** The MCUs whose MCU Manager cards are mounted; those new to the set get their view in the next batch. */
    setManagerCardInterest(ids: readonly number[]) {
      managerCardIds = ids;
      const wanted = new Set(ids);
      for (const id of [...sentManagerCards.keys()]) if (!wanted.has(id)) sentManagerCards.delete(id);
      managerViews.keep(wanted);
      pipeline.refresh();
    },

    /** The MCU Manager queries watched (by `mcuQueryKey`); their results come with the next batch. */
    setQueries(keys: readonly string[]) {
      queries = new Map(keys.map((key) => [key, parseMcuQueryKey(key)]));
      pipeline.invalidate();
    },

    /**
     * The wall page on screen and the layout it is cut for (null: no wall on screen). The page is
     * sent with the next batch, also when unchanged (the screen asking may not hold it).
     */
    setWall(request: WallRequest | null) {
      wallRequest = request;
      wallSent = null;
      if (request) pipeline.invalidate();
      else {
        wallIds = new Set();
        wallTileSentAt.clear();
      }
    },

    /** The MCU or farm list (or the active alarms) changed: the fleet results are computed again for the next frame. */
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
