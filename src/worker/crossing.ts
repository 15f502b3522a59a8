import { COLLECTIONS, type CollectionSpec } from "../contract/collections.ts";
import type { CoreUpdate, Entities, EntityName, LoadState, McuViews, RecordsOf } from "../contract/live.ts";
import type { CollectionChange } from "./collections.ts";

/** Records in each part after the first of a long list crossing by record. */
const PART = 200;

type Item = Record<string, unknown>;
const specOf = (name: EntityName) => COLLECTIONS[name] as unknown as CollectionSpec<never, object, Item>;
/** A records message: its items are its collection's, as the cache holds them. */
type RecordsMessage = Omit<RecordsOf<EntityName>, "kind" | "changed" | "left"> & { changed: Item[]; left?: Item[] };
const records = (m: RecordsMessage) => ({ kind: "records", ...m }) as unknown as CoreUpdate;

export interface CrossingDeps {
  send(update: CoreUpdate): void;
  /** What the first part of a list crossing by record carries with its records (the MCU cards' views), so they paint with it. */
  views?<K extends EntityName>(name: K, records: Entities[K]): McuViews | undefined;
}

/** What has not crossed yet of one collection. */
interface Pending {
  list?: Item[];
  left: Item[];
  load?: LoadState;
}

/**
 * How the collections cross to the main thread, as each declaration says (`crossing`, `burstMs`):
 * whole, or by record, where the JSON of each record last sent is kept so that a list sends only
 * the records that changed. A long list (one declared `headFirst`) goes in parts, one per task: the
 * first part holds the first screen's records (what a wall shows), so the first cards paint before
 * the rest has crossed; another list goes in one message.
 * Changes of a collection with `burstMs` wait that long, so a burst crosses as one message; a
 * load's answer or state crosses at once, with what waited.
 */
export function createCrossing(deps: CrossingDeps) {
  const pending = new Map<EntityName, Pending>();
  const burstTimers = new Map<EntityName, ReturnType<typeof setTimeout>>();
  /** By record: the JSON of each record last sent, and the later parts of a list still to go. */
  const sent = new Map<EntityName, Map<number, string>>();
  const partTimers = new Map<EntityName, ReturnType<typeof setTimeout>>();

  function flush(name: EntityName) {
    const timer = burstTimers.get(name);
    if (timer !== undefined) clearTimeout(timer);
    burstTimers.delete(name);
    const p = pending.get(name);
    pending.delete(name);
    if (!p) return;
    if (specOf(name).crossing === "by-record") return byRecord(name, p.list ?? null, false, p);
    deps.send({
      kind: "entities",
      entities: p.list ? { [name]: p.list } : {},
      ...(p.left.length > 0 ? { left: { [name]: p.left } } : {}),
      ...(p.load ? { loads: { [name]: p.load } } : {}),
    });
  }

  /**
   * A list crossing by record: every id in order, then the records not sent as they are, in parts.
   * Null: the list is as last sent (only what left or the load state goes). The head of a list is
   * not the list: what it lacks is not gone, and it is sent as more to come.
   */
  function byRecord(name: EntityName, list: Item[] | null, head: boolean, extra: Omit<Pending, "list">) {
    const key = specOf(name).id;
    const json = sent.get(name) ?? new Map<number, string>();
    sent.set(name, json);
    const withExtra = { ...(extra.left.length > 0 ? { left: extra.left } : {}), ...(extra.load ? { load: extra.load } : {}) };
    if (!list) return void deps.send(records({ name, key, changed: [], ...withExtra }));
    const partTimer = partTimers.get(name);
    if (partTimer !== undefined) clearTimeout(partTimer);
    partTimers.delete(name);
    const ids = list.map((item) => item[key] as number);
    const listed = new Set(ids);
    if (!head) for (const id of [...json.keys()]) if (!listed.has(id)) json.delete(id);
    const changed: { item: Item; text: string }[] = [];
    for (const item of list) {
      const text = JSON.stringify(item);
      if (json.get(item[key] as number) !== text) changed.push({ item, text });
    }
    const firstPart = specOf(name).headFirst ?? Number.POSITIVE_INFINITY;
    let from = 0;
    const sendPart = () => {
      partTimers.delete(name);
      const first = from === 0;
      const size = first ? firstPart : PART;
      const part = changed.slice(from, from + size);
      from += size;
      for (const { item, text } of part) json.set(item[key] as number, text);
      const more = head || from < changed.length;
      const items = part.map((c) => c.item);
      const views = first && items.length > 0 ? deps.views?.(name, items as never) : undefined;
      deps.send(records({ name, key, ids, changed: items, ...(more ? { more } : {}), ...(first ? withExtra : {}), ...(views ? { views } : {}) }));
      // A later list cancels the rest; its comparison finds the records not sent yet as changed.
      if (from < changed.length) partTimers.set(name, setTimeout(sendPart, 0));
    };
    sendPart();
  }

  return {
    /** A collection changed (the cache's report). */
    changed<K extends EntityName>(name: K, change: CollectionChange<K>) {
      let p = pending.get(name);
      if (!p) pending.set(name, (p = { left: [] }));
      if (change.list) p.list = change.list as unknown as Item[];
      if (change.left) p.left.push(...(change.left as unknown as Item[]));
      if (change.load) p.load = change.load;
      const burstMs = specOf(name).burstMs;
      if (change.atOnce || !burstMs) flush(name);
      else if (!burstTimers.has(name)) burstTimers.set(name, setTimeout(() => flush(name), burstMs));
    },

    /** The first screen of a long list, ahead of the list: only a list crossing by record shows it (a whole one would be replaced by it). */
    head<K extends EntityName>(name: K, items: Entities[K]) {
      if (specOf(name).crossing === "by-record") byRecord(name, items as unknown as Item[], true, { left: [] });
    },

    /**
     * Every collection emptied (sign-out), sent at once with their load states idle; what had not
     * crossed yet belonged to the session that ended.
     */
    clear(emptied: Entities) {
      for (const timer of [...burstTimers.values(), ...partTimers.values()]) clearTimeout(timer);
      burstTimers.clear();
      partTimers.clear();
      pending.clear();
      const names = Object.keys(emptied) as EntityName[];
      const idle: LoadState = { state: "idle" };
      const whole = names.filter((name) => specOf(name).crossing !== "by-record");
      deps.send({ kind: "entities", entities: Object.fromEntries(whole.map((name) => [name, emptied[name]])), loads: Object.fromEntries(whole.map((name) => [name, idle])) });
      for (const name of names) if (!whole.includes(name)) byRecord(name, emptied[name] as unknown as Item[], false, { left: [], load: idle });
    },
  };
}

export type Crossing = ReturnType<typeof createCrossing>;
