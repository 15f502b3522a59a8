import type { LiveReading } from "../../src/contract/entities.ts";
import type { Sql } from "../db/database.ts";
import { mcuLiveRepo } from "../db/mcu-live-repo.ts";

/**
 * Stores the latest reading of each MCU. Readings arrive up to several times a second per MCU;
 * only the newest matters, so they are kept per MCU and written together. A few MCUs are written
 * every `flushMs`; a large fleet less often (one more `flushMs` per `perFlushMs` MCUs waiting, at
 * most `maxFlushMs`): the write of 2 000 rows costs the database 90-200 ms, a twentieth of its
 * thread at one every 4 s (the largest part of its work at 10 000 readings/s), half that at
 * one every 8 s. (Before PGlite had its own thread, a write a second held the event loop's p99 at
 * 138 ms.) At most that much of the readings is lost if the process dies (sockets already had
 * them; the REST list and a socket's first snapshot are at most that old, then live).
 */
const CHUNK = 100;

/**
 * A waiting reading is replaced by a newer one only once it is this old. Readings kept longer
 * than a young-generation collection or two are promoted to the old generation and collected
 * there at far greater cost (2 000 MCUs at 5 Hz: about a fifth of the GC work of ingest); one
 * kept per second instead of five leaves the stored reading at most a second older than the
 * newest, and `last_seen_at` exact.
 */
const REPLACE_AFTER_MS = 1000;

export function createReadingsWriter(sql: Sql, { flushMs = 1000, maxFlushMs = 10_000, perFlushMs = 250, onError = (_err: unknown) => {} } = {}) {
  const mcus = mcuLiveRepo(sql);
  const pending = new Map<number, { reading: LiveReading; readingAtMs: number; atMs: number }>();
  let flushing: Promise<void> = Promise.resolve();

  async function flush(): Promise<void> {
    if (pending.size === 0) return;
    const all = [...pending];
    pending.clear();
    // In chunks: PGlite runs on this thread, and one huge statement would stall the event loop.
    for (let i = 0; i < all.length; i += CHUNK) await mcus.writeReadings(all.slice(i, i + CHUNK));
  }

  // Every `flushMs` it looks at what waits, and writes once the fleet's interval has passed.
  let lastFlush = Date.now();
  const interval = () => Math.min(maxFlushMs, flushMs * Math.max(1, Math.ceil(pending.size / perFlushMs)));
  const timer = setInterval(() => {
    if (Date.now() - lastFlush < interval() - flushMs / 2) return;
    lastFlush = Date.now();
    flushing = flushing.then(flush).catch(onError);
  }, flushMs);
  timer.unref();

  return {
    put(mcuId: number, reading: LiveReading, at: Date): void {
      const atMs = at.getTime();
      const waiting = pending.get(mcuId);
      if (waiting === undefined) pending.set(mcuId, { reading, readingAtMs: atMs, atMs });
      else {
        waiting.atMs = atMs;
        if (atMs - waiting.readingAtMs >= REPLACE_AFTER_MS || atMs < waiting.readingAtMs) {
          waiting.reading = reading;
          waiting.readingAtMs = atMs;
        }
      }
    },
    /** Writes what is pending now (shutdown, tests). */
    async flush(): Promise<void> {
      flushing = flushing.then(flush).catch(onError);
      await flushing;
    },
    async close(): Promise<void> {
      clearInterval(timer);
      await this.flush();
    },
  };
}

export type ReadingsWriter = ReturnType<typeof createReadingsWriter>;
