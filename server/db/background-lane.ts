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
  /**
   * When the lane has started nothing for this long while queries wait in it, the next one runs
   * even while others keep the database busy, so exports always progress (default 250 ms).
   */
  maxWaitMs?: number;
}

export interface BackgroundLaneStats {
  /** Background queries waiting for their turn now. */
  waiting: number;
  /** Background queries run since the start, and how many of them were started because the lane had waited its longest. */
  ran: number;
  forced: number;
}

interface Queued {
  run(): void;
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
  const queue: Queued[] = [];
  let inFlight = 0;
  let running = 0;
  let ran = 0;
  let forced = 0;
  // Since when the lane has had queries waiting without starting one (the starvation clock: how
  // long one query has been queued says nothing, it may only be behind other exports' chunks).
  let waitingSince = 0;
  let scheduled: NodeJS.Immediate | undefined;
  let overdue: NodeJS.Timeout | undefined;

  function next(): void {
    scheduled = undefined;
    while (queue.length > 0 && running < concurrency) {
      const t = performance.now();
      const force = t - waitingSince >= maxWaitMs;
      if (options.yieldToOthers && !force && inFlight > 0) break;
      if (force) forced++;
      ran++;
      running++;
      waitingSince = t;
      queue.shift()!.run();
    }
    clearTimeout(overdue);
    overdue = undefined;
    if (queue.length > 0 && running < concurrency) {
      // Busy with others: try again when the lane has waited its longest (or sooner, when they end).
      overdue = setTimeout(schedule, Math.max(1, maxWaitMs - (performance.now() - waitingSince)));
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
      if (--inFlight === 0 && queue.length > 0) schedule();
    }
  }

  const background: Sql = {
    query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
      return new Promise<T[]>((resolve, reject) => {
        if (queue.length === 0 && running === 0) waitingSince = performance.now();
        queue.push({
          run() {
            db.query<T>(text, params)
              .then(resolve, reject)
              .finally(() => {
                // The wait for the next starts now, not while this one ran.
                waitingSince = performance.now();
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
