import { asyncScheduler, interval, Observable, type SchedulerLike } from "rxjs";
import { frameBatches } from "./batching.ts";
import type { CoreEvent } from "./device-snapshots.ts";
import { createFoldState, drainChanges, fold, type FoldState, type SnapshotBatch } from "./fold.ts";

export interface SnapshotPipelineOptions {
  events$: Observable<CoreEvent>;
  ready$: Observable<unknown>;
  scheduler?: SchedulerLike;
  /** SPEC §9: the dashboard clock ticks every 30 000 ms. */
  tickMs?: number;
  frameMs?: number;
  freshnessMs?: number;
}

/**
 * Events and the single freshness clock folded into per-MCU snapshots, sent on as batches of what
 * changed, at most one per frame and one in flight.
 */
export function snapshotPipeline(o: SnapshotPipelineOptions): { batches$: Observable<SnapshotBatch>; state: FoldState } {
  const scheduler = o.scheduler ?? asyncScheduler;
  const state = createFoldState(scheduler.now(), o.freshnessMs);
  // Folding happens in one subscriber of the events and the clock: every event is on the hot path,
  // so it passes no operator chain (merge, tap, share) on its way.
  const folded$ = new Observable<void>((subscriber) => {
    const onEvent = (event: CoreEvent) => {
      fold(state, event);
      subscriber.next();
    };
    const events = o.events$.subscribe({ next: onEvent, error: (e: unknown) => subscriber.error(e), complete: () => subscriber.complete() });
    const clock = interval(o.tickMs ?? 30_000, scheduler).subscribe(() => onEvent({ kind: "tick", now: scheduler.now() }));
    return () => {
      events.unsubscribe();
      clock.unsubscribe();
    };
  });
  let seq = 0;
  const drain = () => {
    const batch = drainChanges(state, seq + 1);
    if (batch) seq = batch.seq;
    return batch;
  };
  const batches$ = frameBatches({ changes$: folded$, drain, ready$: o.ready$, frameMs: o.frameMs, scheduler });
  return { batches$, state };
}
