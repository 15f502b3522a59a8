import type { Database, PlainDatabase, Sql } from "./database.ts";

export interface BackgroundLaneOptions {
  /**
   * Wait for the database to be idle before each background query. Right for PGlite: it runs one
   * query at a time, so a long query ahead of a sign-in or a farm list is time they wait. A
   * PostgreSQL pool runs queries side by side: there the lane only caps how many run at once.
   */
  yieldToOthers: boolean;
  /** Background queries running at once (default 1): exports of every client take turns. */
  concurrency?: number;
  /** A background query that has waited this long runs even while others keep the database busy, so exports always progress (default 250 ms). */
  maxWaitMs?: number;
  /**
   * While other queries have run within this long (default 1 s), background queries leave the
   * database idle after each one for as long as it ran: at most half its time goes to bulk reads,
   * so a query that arrives finds it free at least half the time. With nothing else going on,
   * background queries run back to back. Only with `yieldToOthers`.
   */
  activeWindowMs?: number;
}

export interface BackgroundLaneStats {
  /** Background queries waiting for their turn now. */
  waiting: number;
  /** Background queries run since the start, and how many of them ran after waiting their longest. */
  ran: number;
  forced: number;
}

interface Queued {
  run(): void;
  since: number;
}

/**
 * Puts bulk reads behind everything else. Every query, transaction and script of `db` counts as
 * in flight while it runs; a background query starts only when none is (after one more turn of the
 * event loop, so a request's next query, issued as its previous one returns, goes first), one at a
 * time, oldest first. Exports that each ask for one chunk at a time thereby take turns, and an
 * interactive query waits at most for the one chunk that is running, never for a queue of them.
 */
export function withBackgroundLane(db: PlainDatabase, options: BackgroundLaneOptions): Database {
  const concurrency = options.concurrency ?? 1;
  const maxWaitMs = options.maxWaitMs ?? 250;
  const activeWindowMs = options.activeWindowMs ?? 1000;
  let lastOtherEnd = -Infinity;
  // The earliest a background query may start (the idle time owed by the previous one).
  let notBefore = 0;
  const queue: Queued[] = [];
  let inFlight = 0;
  let running = 0;
  let ran = 0;
  let forced = 0;
  let scheduled: NodeJS.Immediate | undefined;
  let overdue: NodeJS.Timeout | undefined;

  function next(): void {
    scheduled = undefined;
    while (queue.length > 0 && running < concurrency) {
      const t = performance.now();
      const force = t - queue[0]!.since >= maxWaitMs;
      if (options.yieldToOthers && !force && (inFlight > 0 || t < notBefore)) break;
      if (force) forced++;
      ran++;
      running++;
      queue.shift()!.run();
    }
    clearTimeout(overdue);
    overdue = undefined;
    if (queue.length > 0 && running < concurrency) {
      // Busy with others: try again when the idle time owed is over, or when the oldest has waited
      // its longest (or sooner, when the others end).
      const t = performance.now();
      const wait = inFlight > 0 ? maxWaitMs - (t - queue[0]!.since) : Math.min(notBefore - t, maxWaitMs - (t - queue[0]!.since));
      overdue = setTimeout(schedule, Math.max(1, wait));
      overdue.unref();
    }
  }
  function schedule(): void {
    scheduled ??= setImmediate(next);
  }

  async function tracked<T>(work: () => Promise<T>): Promise<T> {
    inFlight++;
    try {
      return await work();
    } finally {
      lastOtherEnd = performance.now();
      if (--inFlight === 0 && queue.length > 0) schedule();
    }
  }

  const background: Sql = {
    query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
      return new Promise<T[]>((resolve, reject) => {
        queue.push({
          since: performance.now(),
          run() {
            const started = performance.now();
            db.query<T>(text, params)
              .then(resolve, reject)
              .finally(() => {
                const ended = performance.now();
                if (ended - lastOtherEnd < activeWindowMs || inFlight > 0) notBefore = Math.max(notBefore, ended + (ended - started));
                running--;
                schedule();
              });
          },
        });
        schedule();
      });
    },
  };

  return {
    kind: db.kind,
    query<T>(text: string, params?: readonly unknown[]) {
      return tracked(() => db.query<T>(text, params));
    },
    transaction: (fn) => tracked(() => db.transaction(fn)),
    exec: (script) => tracked(() => db.exec(script)),
    close: async () => {
      clearTimeout(overdue);
      await db.close();
    },
    background,
    backgroundStats: () => ({ waiting: queue.length, ran, forced }),
  };
}
