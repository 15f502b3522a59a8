import type { McuStatus } from "../../src/contract/entities.ts";
import type { Sql } from "../db/database.ts";
import { mcuLiveRepo, type McuEntry } from "../db/mcu-live-repo.ts";

export type { McuEntry };

/**
 * A read-through cache from MAC to MCU, so a reading costs no query. An entry is read again after
 * `ttlMs` (other server nodes may change MCUs too), in the background: until then the old entry
 * answers, and the MACs falling due are read together (`refreshDelayMs` after the first),
 * `batch` at a time, one query in flight. (Each read
 * on its own cost a fleet of 2 000 MCUs 2 000 queries at once every 30 s, queued in front of
 * every API request.) This node drops entries at once when it changes an MCU or a profile link.
 * A MAC with no registered MCU is remembered briefly as such.
 */
export function createMcuDirectory(sql: Sql, { ttlMs = 30_000, missTtlMs = 5_000, batch = 500, refreshDelayMs = 100, now = () => Date.now(), onError = (_err: unknown) => {} } = {}) {
  const mcus = mcuLiveRepo(sql);
  const cache = new Map<string, { entry: McuEntry | null; until: number }>();
  const loading = new Map<string, Promise<McuEntry | null>>();
  /** MACs whose entries are due to be read again. */
  const due = new Set<string>();
  let refreshing = false;
  let scheduled = false;
  /** Bumped by every invalidation: a read that began before one does not fill the cache. */
  let generation = 0;

  function store(mac: string, entry: McuEntry | null): void {
    // Spread over a tenth of the TTL, so that a fleet read at once is not due at once again.
    const ttl = entry ? ttlMs * (0.9 + Math.random() * 0.1) : missTtlMs;
    cache.set(mac, { entry, until: now() + ttl });
  }

  async function load(mac: string): Promise<McuEntry | null> {
    const startedIn = generation;
    const entry = await mcus.entryOfMac(mac);
    if (startedIn === generation) store(mac, entry);
    return entry;
  }

  /** Reads the due MACs again, a batch per query, until none is due. */
  async function refresh(): Promise<void> {
    if (refreshing) return;
    refreshing = true;
    try {
      while (due.size > 0) {
        const macs = [...due].slice(0, batch);
        for (const mac of macs) due.delete(mac);
        const startedIn = generation;
        const entries = await mcus.entriesOfMacs(macs);
        if (startedIn !== generation) continue;
        const found = new Map(entries.map((e) => [e.mac, e]));
        for (const mac of macs) {
          // An entry dropped meanwhile (invalidated) is read on its next lookup, not here.
          if (!cache.has(mac)) continue;
          const entry = found.get(mac) ?? null;
          const old = cache.get(mac)!.entry;
          // Keep the object the gateway and alerts hold, with what the database says now.
          if (old && entry && old.mcuId === entry.mcuId) store(mac, Object.assign(old, entry));
          else store(mac, entry);
        }
      }
    } catch (err) {
      onError(err);
    } finally {
      refreshing = false;
    }
  }

  function hit(mac: string): McuEntry | null | undefined {
    const h = cache.get(mac);
    if (!h) return undefined;
    if (h.until <= now() && !due.has(mac)) {
      due.add(mac);
      // A moment later, so that the MACs falling due together are read together.
      if (!scheduled) {
        scheduled = true;
        setTimeout(() => {
          scheduled = false;
          void refresh();
        }, refreshDelayMs).unref();
      }
    }
    return h.entry;
  }

  return {
    /** The cached answer for `mac` without waiting (a due one too, while it is read again); undefined when it was never read. */
    cached(mac: string): McuEntry | null | undefined {
      return hit(mac);
    },

    async lookup(mac: string): Promise<McuEntry | null> {
      const cached = hit(mac);
      if (cached !== undefined) return cached;
      let pending = loading.get(mac);
      if (!pending) {
        const started = load(mac).finally(() => {
          if (loading.get(mac) === started) loading.delete(mac);
        });
        pending = started;
        loading.set(mac, pending);
      }
      return pending;
    },

    /** Keeps the cached status in step with what the device reported. */
    setStatus(mac: string, status: McuStatus): void {
      const h = cache.get(mac);
      if (h?.entry) h.entry.status = status;
    },

    /** Keeps the cached config in step with the one the device was just sent (a batch's phase or ramp step): readings are judged against it. */
    setConfig(mac: string, config: McuEntry["config"]): void {
      const h = cache.get(mac);
      if (h?.entry) h.entry.config = config;
    },

    /** Forgets every MCU of a client, and every unknown MAC (one may just have been registered). */
    invalidateClient(clientId: number): void {
      for (const [mac, { entry }] of cache) if (!entry || entry.clientId === clientId) cache.delete(mac);
      // A read under way may have read the database before the change: the next lookup reads again.
      generation++;
      loading.clear();
    },
  };
}

export type McuDirectory = ReturnType<typeof createMcuDirectory>;
