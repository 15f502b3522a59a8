import type { FarmStatus, Notification } from "../../contract/entities.ts";
import type { DataCoreUpdate, FarmMembersUpdate, SavedAges } from "../../worker/core.ts";
import {
  parseWallRequestKey,
  type DashboardSummary,
  type Entities,
  type EntityName,
  type FleetChanges,
  type LoadState,
  type McuCardView,
  type McuLive,
  type McuManagerCardView,
  type McuStats,
  type McuViews,
  type RecordsUpdate,
  type SnapshotBatch,
  type WallPage,
  type WallRequest,
} from "../../contract/live.ts";

/** `heardAt`: when the server was last heard from (epoch ms), so a screen can tell how old its data is while the link is down. */
export type ConnectionInfo = { state: "idle" | "connecting" | "connected" | "reconnecting" | "unauthorized" | "closed"; message?: string; heardAt?: number };

type Listener = () => void;

/** A collection the core has not sent yet: empty (one array, so a getter returns the same object each time). */
const NO_ITEMS: readonly never[] = [];
const NO_MCU_STATS: McuStats = { total: 0, online: 0, offline: 0, lowBattery: 0 };
const IDLE: LoadState = { state: "idle" };

/** Items that left a list kept for the screens, latest first (the alarms resolved meanwhile, atop the Recent list); older ones are the server's to give. */
const LEFT_KEPT = 200;

/** An item of a collection, as this store keys it (each crossed checked by the core). */
type Item = Record<string, unknown>;

const LIVE_PREFIX = "live:";
const CARD_PREFIX = "card:";
const MANAGER_CARD_PREFIX = "manager-card:";
const QUERY_PREFIX = "query:";
const MEMBERS_PREFIX = "members:";
const NO_IDS: readonly number[] = [];

/** Keys subscribers listen to. */
export const keys = {
  live: (mac: string) => `live:${mac}`,
  /** An MCU's dashboard card view (`McuCardView`); watching it has the core send it. */
  card: (mcuId: number) => `${CARD_PREFIX}${mcuId}`,
  /** An MCU's MCU Manager card view (`McuManagerCardView`); watching it has the core send it. */
  managerCard: (mcuId: number) => `${MANAGER_CARD_PREFIX}${mcuId}`,
  /** One record of a collection crossing by record. */
  record: (name: EntityName, id: number) => `record:${name}:${id}`,
  /** The ids of a collection crossing by record, in order (known from the first part of a list, before its records). */
  ids: (name: EntityName) => `ids:${name}`,
  entities: (name: EntityName) => `entities:${name}`,
  /** The items that left a collection for good in this session, latest first. */
  left: (name: EntityName) => `left:${name}`,
  /** A collection's load state (`LoadState`). */
  load: (name: EntityName) => `load:${name}`,
  /** The ids matching an MCU Manager query (`mcuQueryKey`); watching it has the core compute them. */
  mcuQuery: (queryKey: string) => `${QUERY_PREFIX}${queryKey}`,
  connection: "connection",
  summary: "fleet:summary",
  mcuStats: "fleet:mcuStats",
  farmStatus: (farmId: number) => `fleet:farm:${farmId}`,
  /** The wall page on screen; ask for one with `watchWall`. */
  wall: "wall",
  /** The lists shown from what this device saved, with their ages (`SavedAges`). */
  savedAges: "saved-ages",
  /** A farm's Members list (`FarmMembers`); watching it has the core load it and keep it current. */
  farmMembers: (farmId: number) => `${MEMBERS_PREFIX}${farmId}`,
} as const;

/** A farm's Members list as the core last sent it (members null before its first answer). */
export type FarmMembers = Omit<FarmMembersUpdate, "kind" | "farmId">;
const NO_MEMBERS: FarmMembers = { members: null, load: { state: "idle" } };

/**
 * How long a name stays watched after its last subscriber left: a card that remounts within it
 * (a virtual list scrolled back, a route left and come back to) finds its MCU still of interest and
 * its data current, instead of the core stopping and starting over.
 */
export const INTEREST_GRACE_MS = 5_000;

/**
 * Names watched by subscribers, counted, and told to a sink when the set changed: at most once
 * per microtask, and not for a watch undone within it. A name whose last subscriber left stays in
 * the set for `graceMs` more (and is not sent again if a subscriber comes back meanwhile).
 */
function watchedSet(graceMs = 0) {
  const counts = new Map<string, number>();
  /** Names without subscribers still in the set until their timer fires. */
  const leaving = new Map<string, ReturnType<typeof setTimeout>>();
  let sink: ((names: string[]) => void) | null = null;
  let sent: ReadonlySet<string> = new Set();
  let queued = false;
  const current = () => [...counts.keys(), ...leaving.keys()];
  function flush() {
    queued = false;
    if (!sink) return;
    const names = current();
    if (names.length === sent.size && names.every((m) => sent.has(m))) return;
    sent = new Set(names);
    sink([...sent]);
  }
  function changed() {
    if (queued) return;
    queued = true;
    queueMicrotask(flush);
  }
  return {
    watch(name: string): () => void {
      const n = counts.get(name) ?? 0;
      counts.set(name, n + 1);
      const timer = leaving.get(name);
      if (timer !== undefined) {
        clearTimeout(timer);
        leaving.delete(name);
      } else if (n === 0) changed();
      return () => {
        const left = counts.get(name)! - 1;
        if (left > 0) return void counts.set(name, left);
        counts.delete(name);
        // A name the sink was never told of (a subscribe undone in the same task) goes at once.
        if (graceMs <= 0 || !sent.has(name)) return changed();
        leaving.set(
          name,
          setTimeout(() => {
            leaving.delete(name);
            changed();
          }, graceMs),
        );
      };
    },
    /** Where the set goes; it gets the current set at once if anything is watched. */
    sendTo(to: (names: string[]) => void) {
      sink = to;
      sent = new Set();
      if (counts.size + leaving.size > 0) changed();
    },
    /** The names with subscribers now (not those in their grace period). */
    names: () => [...counts.keys()],
  };
}

const sameValues = <T extends object>(a: T, b: T) => (Object.keys(a) as (keyof T)[]).every((k) => a[k] === b[k]);

/**
 * The main thread's copy of the core's data. A batch replaces the snapshots it carries and
 * notifies only the subscribers of what changed; getters return the same object until its
 * content changes, as useSyncExternalStore requires.
 *
 * Interest: the MCUs with live subscribers (mounted cards) are the only ones the core sends
 * snapshots of. The store counts subscribers per MAC and tells the core the set when it changed,
 * at most once per microtask, so a commit that mounts and unmounts many cards sends one message
 * and a subscribe undone in the same task sends none. An MCU whose last subscriber left stays of
 * interest for `INTEREST_GRACE_MS`, so a card that comes back meanwhile finds it current. A snapshot
 * whose MCU left the set stays here (stale but harmless, and shown at once if its card comes back
 * until the fresh one arrives).
 */
export function createAppStore() {
  const live = new Map<string, McuLive>();
  /**
   * The card views as the core made them (the dashboard's and the MCU Manager's): the cards render
   * them as they are, nothing is joined or judged here. A card mounted before its view came shows
   * nothing for that frame; one whose record changed shows its last view until the core's next.
   */
  const cards = new Map<number, McuCardView>();
  const managerCards = new Map<number, McuManagerCardView>();
  let entities: Partial<Entities> = {};
  const listOf = <K extends EntityName>(name: K): Entities[K] => entities[name] ?? (NO_ITEMS as unknown as Entities[K]);
  /** The collections crossing by record: each one's records by id, and its ids in order. */
  const records = new Map<EntityName, Map<number, Item>>();
  const recordIds = new Map<EntityName, readonly number[]>();
  const left = new Map<EntityName, readonly Item[]>();
  const loads = new Map<EntityName, LoadState>();
  let connection: ConnectionInfo = { state: "idle" };
  let savedAges: SavedAges = {};
  const listeners = new Map<string, Set<Listener>>();
  /** Null until the core has computed it (before, a 0 would be a false statement). */
  let summary: DashboardSummary | null = null;
  let mcuStats = NO_MCU_STATS;
  let farmStatuses: Readonly<Record<number, FarmStatus>> = {};
  const queryResults = new Map<string, readonly number[]>();
  /** The wall page the core last sent; kept until the next one (a page flip shows the old page for a frame, not nothing). */
  let wall: WallPage | null = null;
  /** The wall request watched (by `wallRequestKey`): at most one wall is on screen. */
  const wallWatch = watchedSet();
  /** The farms whose Members list is on screen, and their lists as the core sent them. */
  const membersWatch = watchedSet(INTEREST_GRACE_MS);
  const farmMembers = new Map<number, FarmMembers>();

  /** What goes with a record that left its list: an MCU's card views (a view would name a deleted MCU, so its card shows nothing). */
  const recordGone: { [K in EntityName]?: (id: number) => string[] } = {
    mcus(id) {
      cards.delete(id);
      managerCards.delete(id);
      return [keys.card(id), keys.managerCard(id)];
    },
  };

  /**
   * The MCUs with live subscribers, the MCU Manager queries and the mounted cards (the dashboard's,
   * the MCU Manager's), each kept for a
   * grace period after its last subscriber left. (Not the wall: one page at a time is on screen,
   * and a page flip asks for the new one only.)
   */
  const interest = watchedSet(INTEREST_GRACE_MS);
  const queryWatch = watchedSet(INTEREST_GRACE_MS);
  const cardWatch = watchedSet(INTEREST_GRACE_MS);
  const managerCardWatch = watchedSet(INTEREST_GRACE_MS);

  function emit(changed: Iterable<string>) {
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
    applyViews(batch, changed);
    if (batch.fleet) applyFleet(batch.fleet, changed);
    if (batch.wall) {
      wall = batch.wall;
      changed.push(keys.wall);
    }
    if (changed.length) emit(changed);
  }

  function applyViews(views: Partial<McuViews>, changed: string[]) {
    for (const view of views.cards ?? []) {
      if (cards.get(view.mcuId) === view) continue;
      cards.set(view.mcuId, view);
      changed.push(keys.card(view.mcuId));
    }
    for (const view of views.managerCards ?? []) {
      if (managerCards.get(view.mcuId) === view) continue;
      managerCards.set(view.mcuId, view);
      changed.push(keys.managerCard(view.mcuId));
    }
  }

  /** Applies the parts of the fleet results that changed; a value equal to the held one keeps its object. */
  function applyFleet(fleet: FleetChanges, changed: string[]) {
    if (fleet.summary && (summary === null || !sameValues(summary, fleet.summary))) {
      summary = fleet.summary;
      changed.push(keys.summary);
    }
    if (fleet.mcuStats && !sameValues(mcuStats, fleet.mcuStats)) {
      mcuStats = fleet.mcuStats;
      changed.push(keys.mcuStats);
    }
    if (fleet.farmStatuses) {
      const next = fleet.farmStatuses;
      for (const id of Object.keys(next)) {
        if (farmStatuses[Number(id)] !== next[Number(id)]) changed.push(keys.farmStatus(Number(id)));
      }
      for (const id of Object.keys(farmStatuses)) {
        if (!(id in next)) changed.push(keys.farmStatus(Number(id)));
      }
      farmStatuses = next;
    }
    for (const [key, ids] of Object.entries(fleet.queries ?? {})) {
      queryResults.set(key, ids);
      changed.push(keys.mcuQuery(key));
    }
  }

  /**
   * A part of a list crossing by record: `ids` in order, `changed` the records the core found
   * changed. Each record is usable at once (its card renders); the list as a whole is replaced when
   * its last part (`more` false) has come: an unchanged record keeps its object, and the list keeps
   * its array if nothing in it changed.
   */
  function applyRecords(update: RecordsUpdate, changed: string[]) {
    const { name, key } = update;
    let byId = records.get(name);
    if (!byId) records.set(name, (byId = new Map()));
    for (const record of update.changed as Item[]) {
      const id = record[key] as number;
      // A list given whole (a test's feed): the same object is no change.
      if (byId.get(id) === record) continue;
      byId.set(id, record);
      changed.push(keys.record(name, id));
    }
    const ids = update.ids;
    if (ids) {
      const held = recordIds.get(name) ?? NO_IDS;
      if (!(ids.length === held.length && ids.every((id, i) => id === held[i]))) {
        recordIds.set(name, ids);
        changed.push(keys.ids(name));
      }
    }
    if (ids && !update.more) {
      const listed = new Set(ids);
      for (const id of [...byId.keys()]) {
        if (listed.has(id)) continue;
        byId.delete(id);
        changed.push(keys.record(name, id), ...(recordGone[name]?.(id) ?? []));
      }
      const list = ids.map((id) => byId.get(id)!);
      const held = listOf(name) as readonly Item[];
      if (!(list.length === held.length && list.every((r, i) => r === held[i]))) {
        entities = { ...entities, [name]: list };
        changed.push(keys.entities(name));
      }
    }
    applyLeft(name, update.left as Item[] | undefined, changed);
    applyLoad(name, update.load, changed);
    if (update.views) applyViews(update.views, changed);
  }

  /** Items that left a list for good: the latest first, atop those kept. */
  function applyLeft(name: EntityName, items: readonly Item[] | undefined, changed: string[]) {
    if (!items || items.length === 0) return;
    left.set(name, [...items.slice().reverse(), ...(left.get(name) ?? NO_ITEMS)].slice(0, LEFT_KEPT));
    changed.push(keys.left(name));
  }

  function applyLoad(name: EntityName, load: LoadState | undefined, changed: string[]) {
    if (!load) return;
    const held = loads.get(name) ?? IDLE;
    if (load.state !== held.state || load.message !== held.message) {
      loads.set(name, load);
      changed.push(keys.load(name));
    }
    // Signed out: what left the list belonged to that session.
    if (load.state === "idle" && left.has(name)) {
      left.delete(name);
      changed.push(keys.left(name));
    }
  }

  function applyEntities(update: { entities: Partial<Entities>; left?: Partial<Entities>; loads?: Partial<Record<EntityName, LoadState>> }) {
    const changed: string[] = [];
    const next = { ...entities };
    for (const name of Object.keys(update.entities) as EntityName[]) {
      (next as Record<EntityName, unknown>)[name] = update.entities[name];
      changed.push(keys.entities(name));
    }
    entities = next;
    for (const name of Object.keys(update.left ?? {}) as EntityName[]) applyLeft(name, update.left![name] as Item[], changed);
    for (const name of Object.keys(update.loads ?? {}) as EntityName[]) applyLoad(name, update.loads![name], changed);
    emit(changed);
  }

  return {
    /** Applies what the core sent. Answers the live batch's seq, to acknowledge it. */
    apply(update: DataCoreUpdate): number | null {
      switch (update.kind) {
        case "live":
          applyLive(update.batch);
          return update.batch.seq;
        case "entities":
          applyEntities(update);
          return null;
        case "records": {
          const changed: string[] = [];
          applyRecords(update, changed);
          emit(changed);
          return null;
        }
        case "connection":
          connection = { state: update.state, message: update.message, heardAt: update.heardAt };
          emit([keys.connection]);
          return null;
        case "notification":
          return null;
        case "saved-ages":
          savedAges = update.ages;
          emit([keys.savedAges]);
          return null;
        case "farm-members":
          farmMembers.set(update.farmId, { members: update.members, load: update.load });
          emit([keys.farmMembers(update.farmId)]);
          return null;
      }
    },

    /** Subscribing to an MCU's live key (keys.live) makes that MCU of interest while subscribed. */
    subscribe(key: string, fn: Listener): () => void {
      let set = listeners.get(key);
      if (!set) listeners.set(key, (set = new Set()));
      set.add(fn);
      const unwatch =
        key.startsWith(LIVE_PREFIX)
          ? interest.watch(key.slice(LIVE_PREFIX.length))
          : key.startsWith(QUERY_PREFIX)
            ? queryWatch.watch(key.slice(QUERY_PREFIX.length))
            : key.startsWith(CARD_PREFIX)
              ? cardWatch.watch(key.slice(CARD_PREFIX.length))
              : key.startsWith(MANAGER_CARD_PREFIX)
                ? managerCardWatch.watch(key.slice(MANAGER_CARD_PREFIX.length))
                : key.startsWith(MEMBERS_PREFIX)
                  ? membersWatch.watch(key.slice(MEMBERS_PREFIX.length))
                  : null;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        set!.delete(fn);
        if (set!.size === 0) listeners.delete(key);
        unwatch?.();
      };
    },

    /**
     * Where the set of MACs of interest goes (the core's setInterest); it gets the current set at
     * once if any MCU is already watched.
     */
    onInterest(sink: (macs: string[]) => void) {
      interest.sendTo(sink);
    },
    /** Where the watched MCU Manager queries go (the core's setQueries), like `onInterest`. */
    onQueries(sink: (queryKeys: string[]) => void) {
      queryWatch.sendTo(sink);
    },
    /** Where the ids of the MCUs whose cards are mounted go (the core's setCardInterest), like `onInterest`. */
    onCardInterest(sink: (mcuIds: number[]) => void) {
      cardWatch.sendTo((names) => sink(names.map(Number)));
    },
    /** Where the ids of the MCUs whose MCU Manager cards are mounted go (the core's setManagerCardInterest), like `onInterest`. */
    onManagerCardInterest(sink: (mcuIds: number[]) => void) {
      managerCardWatch.sendTo((names) => sink(names.map(Number)));
    },
    /**
     * Asks the core for a wall page (by `wallRequestKey`) while the returned function is not
     * called; a page flip (unwatch, watch) in one task sends one request.
     */
    watchWall: (requestKey: string): (() => void) => wallWatch.watch(requestKey),
    /** Where the farms whose Members list is on screen go (the core's setMembersInterest), like `onInterest`. */
    onMembersInterest(sink: (farmIds: number[]) => void) {
      membersWatch.sendTo((names) => sink(names.map(Number)));
    },
    /** A farm's Members list as the core last sent it (kept after its screen closes, until a fresher one comes). */
    getFarmMembers: (farmId: number): FarmMembers => farmMembers.get(farmId) ?? NO_MEMBERS,
    /** Where the wall request goes (the core's setWall): the one watched, or null when none is. */
    onWallRequest(sink: (request: WallRequest | null) => void) {
      wallWatch.sendTo((names) => sink(names.length > 0 ? parseWallRequestKey(names[names.length - 1]!) : null));
    },
    /** The wall page the core last sent, or null before it has. */
    getWall: (): WallPage | null => wall,

    /** The MACs with live subscribers now. */
    interest: (): string[] => interest.names(),
    /** The ids of the MCUs whose cards are mounted now. */
    cardInterest: (): number[] => cardWatch.names().map(Number),
    /** The ids of the MCUs whose MCU Manager cards are mounted now. */
    managerCardInterest: (): number[] => managerCardWatch.names().map(Number),


    getLive: (mac: string): McuLive | undefined => live.get(mac),
    /** An MCU's dashboard card view as the core last sent it (kept after its card unmounts, until a fresher one comes). */
    getCard: (mcuId: number): McuCardView | undefined => cards.get(mcuId),
    /** An MCU's MCU Manager card view as the core last sent it (kept like `getCard`'s). */
    getManagerCard: (mcuId: number): McuManagerCardView | undefined => managerCards.get(mcuId),
    /** A record of a collection crossing by record, as soon as the part of its list that holds it has come. */
    getRecord: <K extends EntityName>(name: K, id: number): Entities[K][number] | undefined => records.get(name)?.get(id) as Entities[K][number] | undefined,
    /** A collection's ids in order (one crossing by record), as soon as its list's first part has come. */
    getIds: (name: EntityName): readonly number[] => recordIds.get(name) ?? NO_IDS,
    get: listOf,
    /** The items that left a collection for good in this session (its declaration's `merge`), latest first. */
    getLeft: <K extends EntityName>(name: K): Readonly<Entities[K]> => (left.get(name) ?? NO_ITEMS) as unknown as Readonly<Entities[K]>,
    /** Whether a collection is loading, ready, or failed with why (idle before its first load and when signed out). */
    getLoad: (name: EntityName): LoadState => loads.get(name) ?? IDLE,
    getConnection: () => connection,
    /** The lists shown from what this device saved, and when the server last gave each (none: all current). */
    getSavedAges: (): SavedAges => savedAges,

    /** The Dashboard's summary counts, as the core computed them over the whole fleet; null before it has. */
    getSummary: (): DashboardSummary | null => summary,
    /** The MCU Manager's stat counts, as the core computed them over the whole fleet. */
    getMcuStats: (): McuStats => mcuStats,
    /** A farm's SPEC §3 live status as the core derived it, or undefined before it has. */
    getFarmStatus: (farmId: number): FarmStatus | undefined => farmStatuses[farmId],
    /** The ids of the MCUs an MCU Manager query matches, as the core last sent them (none before). */
    getMcuQuery: (queryKey: string): readonly number[] => queryResults.get(queryKey) ?? NO_IDS,

    /** Forgets the notifications (sign-out, SPEC §4). */
    resetNotifications() {
      applyEntities({ entities: { notifications: [] as Notification[] } });
    },

    /** How many listeners are registered (tests: nothing left behind). */
    listenerCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
  };
}

export type AppStore = ReturnType<typeof createAppStore>;
