import type { EntityName } from "../contract/live.ts";
import { SAVED_LISTS_DB, SAVED_LISTS_STORE } from "./saved-lists-db.ts";

/**
 * The lists the data core last had from the server, kept on this device per signed-in client, so a
 * screen opened while the server cannot be reached shows them (with their age) instead of nothing.
 * IndexedDB is reachable from the worker (localStorage is not) and holds a large fleet's list.
 */

/** A list as saved: its records and when the server last gave them (epoch ms). */
export interface SavedList {
  value: unknown;
  savedAt: number;
}

export interface SavedLists {
  /** The client's saved list, or null when there is none (or it cannot be read). */
  read(clientId: number, name: EntityName): Promise<SavedList | null>;
  write(clientId: number, name: EntityName, list: SavedList): Promise<void>;
  /** Forgets every client's lists on this device (sign-out). */
  clear(): Promise<void>;
}

/** One key per client and list: a client never reads another's. */
const keyOf = (clientId: number, name: EntityName) => `${clientId}/${name}`;

interface Row extends SavedList {
  clientId: number;
  name: EntityName;
}

const done = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

const committed = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });

/**
 * The lists in IndexedDB. Where it is missing or refused (a private window may refuse it), nothing
 * is kept and every read finds nothing: the app then behaves as it did without saved lists.
 */
export function createIndexedDbSavedLists(factory: IDBFactory | undefined = globalThis.indexedDB): SavedLists {
  let opened: Promise<IDBDatabase | null> | null = null;
  /** Opens the database at `version` (the current one when undefined), with its store. */
  const open = (version?: number) =>
    new Promise<IDBDatabase | null>((resolve) => {
      if (!factory) return resolve(null);
      try {
        const request = factory.open(SAVED_LISTS_DB, version);
        request.onupgradeneeded = () => {
          if (!request.result.objectStoreNames.contains(SAVED_LISTS_STORE)) request.result.createObjectStore(SAVED_LISTS_STORE);
        };
        request.onsuccess = () => {
          const database = request.result;
          // Another tab needs a new version of the database: let it have it, and open again next time.
          database.onversionchange = () => {
            database.close();
            opened = null;
          };
          resolve(database);
        };
        request.onerror = () => resolve(null);
        request.onblocked = () => resolve(null);
      } catch {
        resolve(null);
      }
    });
  function db(): Promise<IDBDatabase | null> {
    opened ??= open().then(async (database) => {
      if (!database || database.objectStoreNames.contains(SAVED_LISTS_STORE)) return database;
      // A database of that name without the store (made by someone who only looked): add it.
      const next = database.version + 1;
      database.close();
      return open(next);
    });
    return opened;
  }

  return {
    async read(clientId, name) {
      try {
        const database = await db();
        if (!database) return null;
        const row = (await done(database.transaction(SAVED_LISTS_STORE).objectStore(SAVED_LISTS_STORE).get(keyOf(clientId, name)))) as Row | undefined;
        return row && row.clientId === clientId && typeof row.savedAt === "number" ? { value: row.value, savedAt: row.savedAt } : null;
      } catch {
        return null;
      }
    },
    async write(clientId, name, list) {
      const database = await db();
      if (!database) return;
      const tx = database.transaction(SAVED_LISTS_STORE, "readwrite");
      tx.objectStore(SAVED_LISTS_STORE).put({ clientId, name, value: list.value, savedAt: list.savedAt } satisfies Row, keyOf(clientId, name));
      await committed(tx);
    },
    async clear() {
      const database = await db();
      if (!database) return;
      const tx = database.transaction(SAVED_LISTS_STORE, "readwrite");
      tx.objectStore(SAVED_LISTS_STORE).clear();
      await committed(tx);
    },
  };
}

/** The lists in memory (tests, and a core that must not touch the device's storage). */
export function createMemorySavedLists(): SavedLists & { rows: Map<string, SavedList> } {
  const rows = new Map<string, SavedList>();
  return {
    rows,
    read: async (clientId, name) => rows.get(keyOf(clientId, name)) ?? null,
    async write(clientId, name, list) {
      // A copy, as IndexedDB's structured clone makes: later changes to the list are not saved.
      rows.set(keyOf(clientId, name), structuredClone(list));
    },
    async clear() {
      rows.clear();
    },
  };
}
