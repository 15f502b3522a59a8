import { type } from "arktype";
import { COLLECTIONS, type CollectionSpec, type Mutations, type MutationSpec, type PatchEvents } from "../contract/collections.ts";
import { CoreError } from "../contract/core-error.ts";
import type { Entities, EntityName } from "../contract/live.ts";
import type { RestClient } from "./rest-client.ts";
import type { SavedLists } from "./saved-lists.ts";

/**
 * The lists shown from what this device saved (or kept from earlier in the page's life) because
 * the server could not be reached, each with when the server last gave it (epoch ms). A list not
 * named here is as the server last answered, or not loaded yet.
 */
export type SavedAges = Partial<Record<EntityName, number>>;

export interface CollectionsContext {
  /** The session-bound REST client of the moment. */
  rest(): RestClient;
  /** The started client's id; throws when there is none. */
  clientId(): number;
  /** A collection was replaced (sent on to the main thread). */
  changed<K extends EntityName>(name: K, value: Entities[K]): void;
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
const specOf = (name: EntityName) => COLLECTIONS[name] as CollectionSpec;
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

  const sendAges = () => ctx.agesChanged?.(Object.fromEntries(ages));

  /** A list from the server (or changed by a mutation it answered): it is current, and saved on the device. */
  function set<K extends EntityName>(name: K, value: Entities[K]): Entities[K] {
    entities[name] = value;
    ctx.changed(name, value);
    answeredAt.set(name, now());
    unreached.delete(name);
    if (ages.delete(name)) sendAges();
    scheduleSave(name);
    return value;
  }

  /** Saves the list as it is then, once a burst of changes is over; a list shown from the saved copy is not saved again. */
  function scheduleSave(name: EntityName) {
    if (!ctx.saved || saveTimers.has(name)) return;
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
    if (!ctx.saved || savedAt === undefined || ages.has(name)) return;
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
    const value = (specOf(name).schema as type.Any)(saved.value);
    if (value instanceof type.errors) return false;
    entities[name] = value as never;
    ctx.changed(name, value as Entities[typeof name]);
    ages.set(name, saved.savedAt);
    sendAges();
    ctx.restored?.(name, value as Entities[typeof name]);
    return true;
  }

  /** Counts clears: a list that arrives after one belongs to the session that ended, and is dropped. */
  let generation = 0;
  async function load(name: EntityName): Promise<void> {
    const asOf = generation;
    try {
      await loadFromServer(name, asOf);
    } catch (err) {
      if (asOf !== generation || !isUnreachable(err)) throw err;
      if (await showSaved(name, asOf)) return;
      if (asOf === generation) unreached.add(name);
      throw err;
    }
  }
  async function loadFromServer<K extends EntityName>(name: K, asOf: number): Promise<void> {
    const spec = specOf(name);
    const schema = spec.schema as type<Entities[K]>;
    const path = typeof spec.path === "string" ? spec.path : spec.path(ctx.clientId());
    if (spec.headFirst !== undefined && entities[name].length === 0 && ctx.head) {
      // A long list's first cards paint before the whole list (megabytes) is built, sent and parsed.
      // One after the other: on one database connection the whole list would hold the first page up.
      const head = await ctx.rest().head(path, schema, spec.headFirst);
      if (asOf !== generation) return;
      if (head.total !== null && head.total <= head.items.length) return void set(name, head.items);
      ctx.head(name, head.items);
    }
    const value = await ctx.rest().get(path, schema);
    if (asOf === generation) set(name, value);
  }
  /** Reloads what a successful mutation invalidated; its failure is not the mutation's. */
  async function invalidate(names: readonly EntityName[]): Promise<void> {
    await Promise.all(names.map((n) => load(n).catch(() => undefined)));
  }

  /** What a mutation's answer does to its own collection (`effect`): the item with `id` replaced, a new one added, or it removed. */
  function apply(name: EntityName, effect: MutationSpec["effect"], id: number | null | undefined, answer: unknown) {
    if (effect === "none") return;
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
    let p = inFlight.get(name);
    if (!p) {
      p = load(name).finally(() => inFlight.delete(name));
      inFlight.set(name, p);
    }
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
        apply(name, spec.effect, id, answer);
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
      if (by) set(name, by(entities[name] as never, payload) as never);
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
    /** Whether some list waits for the server to answer again. */
    get waiting(): boolean {
      return ages.size > 0 || unreached.size > 0;
    },
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
    /** Forgets every collection (sign-out) and sends them empty at once. */
    clear(): Entities {
      generation++;
      inFlight.clear();
      for (const timer of saveTimers.values()) clearTimeout(timer);
      saveTimers.clear();
      answeredAt.clear();
      unreached.clear();
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
