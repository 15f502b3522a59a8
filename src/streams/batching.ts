import { asyncScheduler, Observable, type SchedulerLike, type Subscription } from "rxjs";

export interface FrameBatchOptions<T> {
  /** Emits whenever something may have changed. */
  changes$: Observable<unknown>;
  /** Takes what changed since the last batch; null when nothing did. */
  drain: () => T | null;
  /** Emits when the consumer has applied the previous batch. */
  ready$: Observable<unknown>;
  frameMs?: number;
  scheduler?: SchedulerLike;
}

/**
 * Coalesces changes into batches: at most one per frame (`frameMs`, the first after a quiet spell at
 * once, in a task of its own), and never a new one while
 * the consumer has not applied the previous one. A consumer that falls behind gets fewer, larger
 * batches (each MCU once, in its latest state), not a queue. One timer for everything.
 */
export function frameBatches<T>({ changes$, drain, ready$, frameMs = 16, scheduler = asyncScheduler }: FrameBatchOptions<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    let timer: Subscription | null = null;
    let inFlight = false;
    let dirty = false;

    /** When the last batch went out: the next may go `frameMs` after it, and at once if that is past. */
    let lastSentAt = -Infinity;
    const flush = () => {
      timer = null;
      if (inFlight) return;
      dirty = false;
      const batch = drain();
      if (batch === null) return;
      inFlight = true;
      lastSentAt = scheduler.now();
      subscriber.next(batch);
    };
    // Waiting a whole frame after a quiet spell would only add latency: the changes of one socket
    // message are folded in the task that received it, and the flush runs after that task.
    const schedule = () => {
      if (timer === null && !inFlight) timer = scheduler.schedule(flush, Math.max(0, lastSentAt + frameMs - scheduler.now()));
    };

    const subs = [
      changes$.subscribe({
        next: () => {
          dirty = true;
          schedule();
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => subscriber.complete(),
      }),
      ready$.subscribe(() => {
        inFlight = false;
        if (dirty) schedule();
      }),
    ];
    return () => {
      timer?.unsubscribe();
      for (const s of subs) s.unsubscribe();
    };
  });
}
