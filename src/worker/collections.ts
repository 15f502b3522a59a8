import { type } from "arktype";
import { COLLECTIONS, type CollectionSpec, type Mutations, type MutationSpec, type PatchEvents } from "../contract/collections.ts";
import { CoreError, toCoreError } from "../contract/core-error.ts";
import type { Entities, EntityName, LoadState } from "../contract/live.ts";
import { isSessionEnded } from "../contract/session-ended.ts";
import type { RestClient } from "./rest-client.ts";
import type { SavedLists } from "./saved-lists.ts";

/**
 * The lists shown from what this device saved (or kept from earlier in the page's life) because
 * the server could not be reached, each with when the server last gave it (epoch ms). A list not
 * named here is as the server last answered, or not loaded yet.
 */
export type SavedAges = Partial<Record<EntityName, number>>;

/** What changed of a collection, for the main thread. */
export interface CollectionChange<K extends EntityName> {
  /** The list, when it changed (it is replaced whole here). */
  list?: Entities[K];
  /** Items that left the list for good (its declaration's `merge`), each as its last version, in the order they left. */
  left?: Entities[K];
  /** Its load's state, when it changed. */
  load?: LoadState;
  /** A load's answer or state: it crosses at once, not held back with a burst. */
  atOnce?: boolean;
}

export interface CollectionsContext {
  /** The session-bound REST client of the moment. */
  rest(): RestClient;
  /** The started client's id; throws when there is none. */
  clientId(): number;
  /** A collection changed (sent on to the main thread). */
  changed<K extends EntityName>(name: K, change: CollectionChange<K>): void;
  /** The first screen of a long list (one declared `headFirst`), ahead of the whole list (sent on, not kept). */
  head?<K extends EntityName>(name: K, items: Entities[K]): void;
  /** Where the lists are kept on this device; without it nothing is kept. */
  saved?: SavedLists;
  now?(): number;
  /** Lists shown from what was saved, or back to what the server says (sent on to the main thread). */
  agesChanged?(ages: SavedAges): void;
  /** A list as it is saved (the MCU list with the live readings folded in); the list itself by default. */
  toSave?<K extends EntityName>(name: K, value: Entities[K]): Entities[K];
  /** A list is shown from what this device saved (the MCUs' last readings seed the live side). */
  restored?<K extends EntityName>(name: K, value: Entities[K]): void;
  /** How long a changed list waits before it is saved, so a burst of changes is saved once (ms). */
  saveDelayMs?: number;
}

const NAMES = Object.keys(COLLECTIONS) as EntityName[];
/** An item of any collection, as the one cache handles it (each declaration's schema checked it). */
type Item = Record<string, unknown>;
const specOf = (name: EntityName) => COLLECTIONS[name] as unknown as CollectionSpec<type.Any, object, Item, type.Any, EntityName>;
const savedOnDevice = (name: EntityName) => specOf(name).savedOnDevice !== false;
const idOf = (name: EntityName, item: Item) => item[specOf(name).id] as number;
const MUTATIONS = NAMES.flatMap((name) => Object.entries(specOf(name).mutations as Record<string, MutationSpec<unknown[]>>).map(([mutation, spec]) => ({ name, mutation, spec })));

/**
 * The server could not be reached (no network, the server down, a gateway without it): what the
 * device saved is the best there is. A server that answered with an error said something else,
 * and that failure is the screen's to show.
 */
export function isUnreachable(err: unknown): boolean {
  if (!(err instanceof CoreError)) return false;
  if (err.code === "NETWORK" || err.code === "TIMEOUT") return true;
  return (err.status === 502 || err.status === 504) && err.serverMessage === null;
}

const emptyEntities = (): Entities => Object.fromEntries(NAMES.map((name) => [name, []])) as unknown as Entities;

/** Items that left a list for good are remembered, at most this many per list, so that a version late behind the one that made it leave does not bring it back. */
const LEFT_REMEMBERED = 5000;

/** The page of a paged list after the one that gave `cursor`. */
const withCursor = (path: string, cursor: string) => `${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`;

/**
 * The entity collections of the core (contract/collections.ts), each replaced whole when it
 * changes: one cache runs every declaration. Each mutation is declared with what its answer changes
 * here and which other collections it invalidates: those are reloaded after it, and a failed reload
 * does not fail a mutation that succeeded.
 */
export function createCollections(ctx: CollectionsContext) {
  const entities = emptyEntities();
  const now = ctx.now ?? Date.now;

  /** When each list last came from the server (or a mutation the server answered), in this page's life. */
  const answeredAt = new Map<EntityName, number>();
  /** The lists shown from what was saved or kept, and when the server last gave them. */
  const ages = new Map<EntityName, number>();
  /** The lists whose load found neither the server nor a saved copy. */
  const unreached = new Set<EntityName>();
  const saveTimers = new Map<EntityName, ReturnType<typeof setTimeout>>();

  /** Each list's load state (none: idle), and the lists a load has answered in this session. */
  const loadStates = new Map<EntityName, LoadState>();
  const loadedOnce = new Set<EntityName>();
  /** Loads started of each list, and the latest of them whose answer was taken: an answer older than that one is dropped. */
  const loadsStarted = new Map<EntityName, number>();
  const loadTaken = new Map<EntityName, number>();
  /**
   * Of a list with `merge`, the versions heard (events, answers to its mutations) while a load of it
   * was under way, latest of each: the load's answer may predate them (or, paged, partly), so they
   * are laid over it rather than lost. With how many of its loads are under way.
   */
  const heard = new Map<EntityName, { loads: number; items: Map<number, Item> }>();
  /** The ids of the items that left each list for good, oldest first. */
  const leftIds = new Map<EntityName, Set<number>>();

  const sendAges = () => ctx.agesChanged?.(Object.fromEntries(ages));

  /** A list from the server (or changed by a mutation it answered): it is current, and saved on the device. */
  function set<K extends EntityName>(name: K, value: Entities[K], change: Omit<CollectionChange<K>, "list"> = {}): Entities[K] {
    entities[name] = value;
    ctx.changed(name, { ...change, list: value });
    answeredAt.set(name, now());
    unreached.delete(name);
    if (ages.delete(name)) sendAges();
    scheduleSave(name);
    return value;
  }

  /** A list's load state changed: it crosses at once. */
  function setLoad(name: EntityName, next: LoadState) {
    const held = loadStates.get(name) ?? { state: "idle" };
    if (held.state === next.state && held.message === next.message) return;
    loadStates.set(name, next);
    ctx.changed(name, { load: next, atOnce: true });
  }

  /** Saves the list as it is then, once a burst of changes is over; a list shown from the saved copy is not saved again. */
  function scheduleSave(name: EntityName) {
    if (!ctx.saved || !savedOnDevice(name) || saveTimers.has(name)) return;
    const asOf = generation;
    saveTimers.set(
      name,
      setTimeout(() => {
        saveTimers.delete(name);
        if (asOf === generation) void save(name);
      }, ctx.saveDelayMs ?? 250),
    );
  }
  async function save(name: EntityName, savedAt = answeredAt.get(name)): Promise<void> {
    if (!ctx.saved || !savedOnDevice(name) || savedAt === undefined || ages.has(name)) return;
    let clientId: number;
    try {
      clientId = ctx.clientId();
    } catch {
      return;
    }
    const value = ctx.toSave ? ctx.toSave(name, entities[name]) : entities[name];
    // A device that cannot keep it (storage full, refused) shows the server's lists as before.
    await ctx.saved.write(clientId, name, { value, savedAt }).catch((err: unknown) => console.warn(`The ${name} list could not be saved on this device`, err));
  }

  /**
   * The server could not be reached: the list stays what this page already has from it, or becomes
   * what this device saved. False when there is neither.
   */
  async function showSaved(name: EntityName, asOf: number): Promise<boolean> {
    if (ages.has(name)) return true;
    const kept = answeredAt.get(name);
    if (kept !== undefined) {
      ages.set(name, kept);
      sendAges();
      return true;
    }
    if (!ctx.saved) return false;
    let clientId: number;
    try {
      clientId = ctx.clientId();
    } catch {
      return false;
    }
    const saved = await ctx.saved.read(clientId, name);
    if (asOf !== generation) return false;
    // The server answered another load of it meanwhile.
    if (answeredAt.has(name)) return true;
    if (!saved) return false;
    const value = specOf(name).schema(saved.value);
    if (value instanceof type.errors) return false;
    entities[name] = value as never;
    ctx.changed(name, { list: value as Entities[typeof name], atOnce: true });
    ages.set(name, saved.savedAt);
    sendAges();
    ctx.restored?.(name, value as Entities[typeof name]);
    return true;
  }

  /** Counts clears: a list that arrives after one belongs to the session that ended, and is dropped. */
  let generation = 0;
  async function load(name: EntityName): Promise<void> {
    const asOf = generation;
    const ticket = (loadsStarted.get(name) ?? 0) + 1;
    loadsStarted.set(name, ticket);
    // A list this session has is shown while it loads again (a reconnect): it is not "loading".
    if (!loadedOnce.has(name)) setLoad(name, { state: "loading" });
    const hearing = specOf(name).merge ? startHearing(name) : null;
    // What its items are shown with loads alongside (joining a load of it under way): they wait for it.
    for (const other of shownWithUnanswered(name)) shared(other).catch(() => undefined);
    try {
      await loadFromServer(name, asOf, ticket);
    } catch (err) {
      if (asOf !== generation) throw err;
      if (isUnreachable(err) && savedOnDevice(name)) {
        const shown = shownWithLoads(name);
        if (shown) await shown;
        if (await showSaved(name, asOf)) {
          if (asOf === generation) setLoad(name, { state: "ready" });
          return;
        }
        if (asOf === generation) unreached.add(name);
      }
      // Only the latest load's failure is the list's; a session that ended is not a failure to show.
      if (asOf === generation && ticket === loadsStarted.get(name) && !isSessionEnded(err)) setLoad(name, { state: "error", message: toCoreError(err).message });
      throw err;
    } finally {
      if (hearing && asOf === generation && --hearing.loads === 0) heard.delete(name);
    }
  }
  function startHearing(name: EntityName) {
    let hearing = heard.get(name);
    if (!hearing) heard.set(name, (hearing = { loads: 0, items: new Map() }));
    hearing.loads++;
    return hearing;
  }
  async function loadFromServer<K extends EntityName>(name: K, asOf: number, ticket: number): Promise<void> {
    const spec = specOf(name);
    const schema = spec.schema as type<Entities[K]>;
    const path = typeof spec.path === "string" ? spec.path : spec.path(ctx.clientId());
    if (spec.headFirst !== undefined && entities[name].length === 0 && ctx.head) {
      // A long list's first cards paint before the whole list (megabytes) is built, sent and parsed.
      // One after the other: on one database connection the whole list would hold the first page up.
      const head = await ctx.rest().head(path, schema, spec.headFirst);
      const shown = shownWithLoads(name);
      if (shown) await shown;
      if (asOf !== generation) return;
      if (head.total !== null && head.total <= head.items.length) return void answered(name, head.items, ticket);
      ctx.head(name, head.items);
    }
    const value = spec.pages ? ((await fetchPages(name, path, asOf)) as Entities[K]) : await ctx.rest().get(path, schema);
    const shown = shownWithLoads(name);
    if (shown) await shown;
    if (asOf === generation) answered(name, value, ticket);
  }
  /** The lists `name` is shown with (`shownWith`) that have not answered in this session; one shown from what this device saved counts as answered. */
  function shownWithUnanswered(name: EntityName): EntityName[] {
    return (specOf(name).shownWith ?? []).filter((other) => !loadedOnce.has(other) && !ages.has(other));
  }
  /**
   * Settles when the loads under way of the lists `name` is shown with that have not answered yet
   * have answered or failed: its items wait for them before they cross, and then cross with what
   * they are shown with (an MCU's card with its batch line) instead of growing when it lands. Null
   * when there is none to wait for: the answer then crosses at once.
   */
  function shownWithLoads(name: EntityName): Promise<unknown> | null {
    const under = shownWithUnanswered(name).flatMap((other) => inFlight.get(other) ?? []);
    return under.length === 0 ? null : Promise.all(under.map((p) => p.catch(() => undefined)));
  }
  /** Every page of a paged list, following each page's cursor. */
  async function fetchPages(name: EntityName, path: string, asOf: number): Promise<Item[]> {
    const spec = specOf(name);
    const pages = spec.pages!;
    const all = new Map<number, Item>();
    const cursors = new Set<string>();
    let cursor: string | null = null;
    do {
      const page: unknown = await ctx.rest().get(cursor === null ? path : withCursor(path, cursor), pages.schema);
      if (asOf !== generation) break;
      for (const item of pages.items(page)) all.set(idOf(name, item), item);
      cursor = pages.next(page);
      // A cursor seen before would page forever.
      if (cursor !== null && cursors.has(cursor)) break;
      if (cursor !== null) cursors.add(cursor);
    } while (cursor !== null);
    return [...all.values()];
  }
  /** A load's answer becomes the list, unless a load started after it has answered already. */
  function answered<K extends EntityName>(name: K, value: Entities[K], ticket: number) {
    if (ticket < (loadTaken.get(name) ?? 0)) return;
    loadTaken.set(name, ticket);
    loadedOnce.add(name);
    const load: LoadState | null = loadStates.get(name)?.state === "ready" ? null : { state: "ready" };
    if (load) loadStates.set(name, load);
    // The list and its new state cross in one message.
    set(name, specOf(name).merge ? (overHeard(name, value as unknown as Item[]) as unknown as Entities[K]) : value, { atOnce: true, ...(load ? { load } : {}) });
  }
  /** A load's answer of a list with `merge`, with the versions heard meanwhile laid over it and the items that left kept out. */
  function overHeard(name: EntityName, value: readonly Item[]): Item[] {
    const merge = specOf(name).merge!;
    const fetched = new Map(value.map((item) => [idOf(name, item), item]));
    for (const [id, version] of heard.get(name)?.items ?? []) {
      const kept = merge(fetched.get(id), version);
      if (kept === "leaves") fetched.delete(id);
      else fetched.set(id, kept);
    }
    const left = leftIds.get(name);
    return [...fetched.values()].filter((item) => !left?.has(idOf(name, item)));
  }

  /**
   * New versions of items of a list with `merge` (a live event, a mutation's answer): each meets
   * the version held; an item that leaves is remembered, and crosses as it left.
   */
  function upsert(name: EntityName, incoming: readonly Item[]) {
    const merge = specOf(name).merge!;
    const hearing = heard.get(name);
    let left = leftIds.get(name);
    const list = entities[name] as unknown as Item[];
    let next: Item[] | null = null;
    const gone: Item[] = [];
    for (const item of incoming) {
      const id = idOf(name, item);
      if (hearing) {
        const before = hearing.items.get(id);
        const latest = merge(before, item);
        hearing.items.set(id, latest === "leaves" ? item : latest);
      }
      if (left?.has(id)) continue;
      const current = next ?? list;
      const at = current.findIndex((x) => idOf(name, x) === id);
      const held = at >= 0 ? current[at] : undefined;
      const kept = merge(held, item);
      if (kept === held) continue;
      if (kept === "leaves") {
        if (!left) leftIds.set(name, (left = new Set()));
        left.add(id);
        if (left.size > LEFT_REMEMBERED) left.delete(left.values().next().value!);
        gone.push(item);
        if (at < 0) continue;
        next ??= [...list];
        next.splice(at, 1);
      } else {
        next ??= [...list];
        if (at >= 0) next[at] = kept;
        else next.push(kept);
      }
    }
    const change = gone.length > 0 ? { left: gone as never } : {};
    if (next) set(name, next as never, change);
    else if (gone.length > 0) ctx.changed(name, change);
  }

  /** Reloads what a successful mutation invalidated; its failure is not the mutation's. */
  async function invalidate(names: readonly EntityName[]): Promise<void> {
    await Promise.all(names.map((n) => load(n).catch(() => undefined)));
  }

  /** What a mutation's answer does to its own collection (`effect`): the item with `id` replaced, a new one added, or it removed. */
  function apply(name: EntityName, spec: MutationSpec<unknown[]>, id: number | null | undefined, answer: unknown) {
    const effect = spec.effect;
    if (effect === "none") return;
    if (effect === "upsert" && specOf(name).merge) return upsert(name, (spec.items ? spec.items(answer) : [answer]) as Item[]);
    const key = specOf(name).id;
    const list = entities[name] as Record<string, unknown>[];
    const matches = (item: Record<string, unknown>) => item[key] === id;
    if (effect === "remove") set(name, list.filter((item) => !matches(item)) as never);
    // A new item may be in the list already: its live event can arrive before the answer.
    else if (id === null || id === undefined) set(name, [...list.filter((item) => item[key] !== (answer as Record<string, unknown>)[key]), answer] as never);
    else set(name, list.map((item) => (matches(item) ? answer : item)) as never);
  }

  /**
   * A screen's load joins one already under way (the start's prefetch, another screen's): one
   * request, one answer. Reloads after a mutation never join (they must see the mutation).
   */
  const inFlight = new Map<EntityName, Promise<void>>();
  function shared(name: EntityName): Promise<void> {
    return inFlight.get(name) ?? fresh(name);
  }
  /** A load that joins none under way (its answer must be newer than what came before); later screen loads join it. */
  function fresh(name: EntityName): Promise<void> {
    const p: Promise<void> = load(name).finally(() => {
      if (inFlight.get(name) === p) inFlight.delete(name);
    });
    inFlight.set(name, p);
    return p;
  }

  /** Each collection's load, by the name screens call it (`loadFarms`: a screen's load of the farms). */
  const loaders = Object.fromEntries(NAMES.map((name) => [`load${name[0]!.toUpperCase()}${name.slice(1)}`, () => shared(name)])) as {
    [K in EntityName as `load${Capitalize<K>}`]: () => Promise<void>;
  };

  /** Every declared mutation, by its declared name. */
  const mutations = Object.fromEntries(
    MUTATIONS.map(({ name, mutation, spec }) => [
      mutation,
      async (...args: unknown[]) => {
        const { path, body, id } = spec.request(ctx.clientId, ...args);
        const method = spec.method === "POST|PUT" ? (id === null || id === undefined ? "POST" : "PUT") : spec.method;
        const answer: unknown = await ctx.rest().send(method, path, spec.answer, body);
        apply(name, spec, id, answer);
        if (spec.invalidates) await invalidate(spec.invalidates as EntityName[]);
        if (spec.reloads) await Promise.all((spec.reloads as EntityName[]).map((n) => load(n)));
        return spec.result ? spec.result(answer as never) : answer;
      },
    ]),
  ) as unknown as Mutations;

  /** A live event changed the collections that declare a patch for it. */
  function patch<E extends keyof PatchEvents>(event: E, payload: PatchEvents[E]): void {
    for (const name of NAMES) {
      const by = specOf(name).patches?.[event];
      if (by === "reload") fresh(name).catch(() => undefined);
      else if (by === "upsert") upsert(name, [payload as Item]);
      else if (by) set(name, by(entities[name] as never, payload) as never);
    }
  }

  return {
    entities,
    set,
    /**
     * Loads again the lists the server could not give (shown from the saved copy, or not at all):
     * it answers again. Each joins a load of it under way.
     */
    reloadUnreached(): void {
      for (const name of new Set([...ages.keys(), ...unreached])) shared(name).catch(() => undefined);
    },
    /**
     * The socket (re)authenticated: the lists declared `loadsOnConnect` load again, each afresh (one
     * under way may predate the events lost while the socket was down). Failures are their load states.
     */
    connected(): void {
      for (const name of NAMES) if (specOf(name).loadsOnConnect) fresh(name).catch(() => undefined);
    },
    /** Whether some list waits for the server to answer again. */
    get waiting(): boolean {
      return ages.size > 0 || unreached.size > 0;
    },
    /** Whether a load of the list has answered in this session (what it holds is the server's, not only what events said). */
    loaded: (name: EntityName): boolean => loadedOnce.has(name),
    /**
     * Saves a current list again as of `savedAt` (the MCU list, for the live readings that came since
     * it loaded); a list shown from the saved copy is left as it was saved.
     */
    saveAgain(name: EntityName, savedAt: number): Promise<void> {
      const answered = answeredAt.get(name);
      return answered === undefined ? Promise.resolve() : save(name, Math.max(answered, savedAt));
    },
    /** Forgets every list saved on this device (sign-out). */
    forgetSaved(): Promise<void> {
      return ctx.saved ? ctx.saved.clear().catch((err: unknown) => console.warn("The lists saved on this device could not be removed", err)) : Promise.resolve();
    },
    /** Forgets every collection (sign-out) and answers them empty, for the caller to send at once (their load states are idle). */
    clear(): Entities {
      generation++;
      inFlight.clear();
      for (const timer of saveTimers.values()) clearTimeout(timer);
      saveTimers.clear();
      answeredAt.clear();
      unreached.clear();
      loadStates.clear();
      loadedOnce.clear();
      heard.clear();
      leftIds.clear();
      if (ages.size > 0) {
        ages.clear();
        sendAges();
      }
      Object.assign(entities, emptyEntities());
      return { ...entities };
    },
    /** A screen's load of a collection (it joins one under way). */
    load: shared,
    loaders,
    mutations,
    patch,
  };
}

export type Collections = ReturnType<typeof createCollections>;
