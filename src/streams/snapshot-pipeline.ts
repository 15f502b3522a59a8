import { asyncScheduler, interval, Observable, Subject, type SchedulerLike, type Subscription } from "rxjs";
import type { FleetChanges, FleetResults, McuCardView, McuLive, McuManagerCardView, SnapshotBatch, WallPage } from "../contract/live.ts";
import { frameBatches } from "./batching.ts";
import type { CoreEvent } from "./device-snapshots.ts";
import { fleetChanges } from "./fleet.ts";
import { createFoldState, drainChanges, fold, markInterested, type FoldState } from "./fold.ts";

export interface SnapshotPipelineOptions {
  events$: Observable<CoreEvent>;
  ready$: Observable<unknown>;
  scheduler?: SchedulerLike;
  /** SPEC §9: the dashboard clock ticks every 30 000 ms. */
  tickMs?: number;
  frameMs?: number;
  freshnessMs?: number;
  /**
   * Only these MACs' snapshots are sent (the MCUs on screen); null sends every MCU. Change it
   * with `setInterest`.
   */
  interest?: Iterable<string> | null;
  /** Whole-fleet results over the fold's state; their changed parts go with the next batch. */
  summarize?: (state: FoldState) => FleetResults;
  /** Readings alone recompute the fleet results at most this often (ms). */
  fleetMs?: number;
  /** The card views that changed since the last batch (those of the mounted cards); they go with the next batch. */
  cards?: (state: FoldState) => McuCardView[];
  /** The MCU Manager card views that changed since the last batch (those of the mounted cards); they go with the next batch. */
  managerCards?: (state: FoldState) => McuManagerCardView[];
  /** The wall page on screen if it changed, else null. It walks the whole fleet, like `summarize`. */
  wall?: (state: FoldState) => WallPage | null;
  /** Readings alone recompute the wall page at most this often (ms). */
  wallMs?: number;
}

export interface SnapshotPipeline {
  batches$: Observable<SnapshotBatch>;
  state: FoldState;
  /**
   * The MCUs of interest from now on; those new to it get their current snapshot in the next
   * batch, unless the receiver has it already (the one sent last is still current).
   */
  setInterest(macs: Iterable<string> | null): void;
  /** Something `summarize` or `wall` reads besides the fold changed (the MCU or farm lists, the queries, the wall page asked for). */
  invalidate(): void;
  /** Something `cards` or `managerCards` reads besides the fold changed (the cards mounted): a batch comes if a card view changed. */
  refresh(): void;
}

/**
 * Events and the single freshness clock folded into per-MCU snapshots, sent on as batches of what
 * changed among the MCUs of interest, with the fleet results when they change: at most one batch
 * per frame and one in flight.
 */
export function snapshotPipeline(o: SnapshotPipelineOptions): SnapshotPipeline {
  const scheduler = o.scheduler ?? asyncScheduler;
  const state = createFoldState(scheduler.now(), o.freshnessMs);
  let interest: Set<string> | null = o.interest === undefined || o.interest === null ? null : new Set(o.interest);
  let lastFleet: FleetResults | null = null;
  const nudge$ = new Subject<void>();
  /**
   * Readings change the whole-fleet results (counts, statuses, the wall's order) that nobody reads
   * at frame rate: each is computed at most every so often while only readings move it, at once
   * when what it is computed over changed (`invalidate`: the lists, the watched queries, the wall
   * page asked for). The wall is read from across a room: its order and counts move at most every
   * 2 s (its tiles' values come with the card views, every frame).
   */
  const fleetPace = pace(o.fleetMs ?? 250);
  const wallPace = pace(o.wallMs ?? 2000);
  function pace(ms: number) {
    let dirty = true;
    let stale = false;
    let at = -Infinity;
    let timer: Subscription | null = null;
    return {
      invalidate() {
        dirty = true;
      },
      changed() {
        stale = true;
      },
      /** Whether to compute now; when not yet, a nudge comes when it is time. */
      due(now: number): boolean {
        if (!dirty && !stale) return false;
        if (dirty || now - at >= ms) {
          dirty = stale = false;
          at = now;
          return true;
        }
        timer ??= scheduler.schedule(() => {
          timer = null;
          nudge$.next();
        }, at + ms - now);
        return false;
      },
      stop() {
        timer?.unsubscribe();
      },
    };
  }
  // Folding happens in one subscriber of the events and the clock: every event is on the hot path,
  // so it passes no operator chain (merge, tap, share) on its way.
  const folded$ = new Observable<void>((subscriber) => {
    const onEvent = (event: CoreEvent) => {
      fold(state, event);
      subscriber.next();
    };
    const events = o.events$.subscribe({ next: onEvent, error: (e: unknown) => subscriber.error(e), complete: () => subscriber.complete() });
    const clock = interval(o.tickMs ?? 30_000, scheduler).subscribe(() => onEvent({ kind: "tick", now: scheduler.now() }));
    const nudges = nudge$.subscribe(() => subscriber.next());
    return () => {
      events.unsubscribe();
      clock.unsubscribe();
      nudges.unsubscribe();
      fleetPace.stop();
      wallPace.stop();
    };
  });
  /**
   * The snapshot last sent of each MCU. The receiver keeps every snapshot it got until it is
   * removed, so an MCU that comes back on screen unchanged needs nothing sent (and its card no
   * extra render).
   */
  const sent = new Map<string, McuLive>();
  let seq = 0;
  const drain = (): SnapshotBatch | null => {
    let fleet: FleetChanges | null = null;
    let wall: WallPage | null = null;
    if (state.changed.size > 0 || state.removed.size > 0) {
      fleetPace.changed();
      wallPace.changed();
    }
    if (o.summarize && fleetPace.due(scheduler.now())) {
      const next = o.summarize(state);
      fleet = fleetChanges(lastFleet, next);
      lastFleet = next;
    }
    if (o.wall && wallPace.due(scheduler.now())) wall = o.wall(state);
    const cards = o.cards?.(state) ?? [];
    const managerCards = o.managerCards?.(state) ?? [];
    const batch = drainChanges(state, seq + 1, interest) ?? (fleet || wall || cards.length > 0 || managerCards.length > 0 ? { seq: seq + 1, upserts: [], removed: [], clock: state.clock } : null);
    if (!batch) return null;
    if (cards.length > 0) batch.cards = cards;
    if (managerCards.length > 0) batch.managerCards = managerCards;
    if (wall) batch.wall = wall;
    for (const snap of batch.upserts) sent.set(snap.mac, snap);
    for (const mac of batch.removed) sent.delete(mac);
    if (fleet) batch.fleet = fleet;
    seq = batch.seq;
    return batch;
  };
  const batches$ = frameBatches({ changes$: folded$, drain, ready$: o.ready$, frameMs: o.frameMs, scheduler });
  return {
    batches$,
    state,
    setInterest(macs) {
      const next = macs === null ? null : new Set(macs);
      const before = interest;
      // With no filter before, everything was sent already.
      const added = before === null ? [] : [...(next ?? state.devices.keys())].filter((m) => !before.has(m) && state.devices.get(m) !== sent.get(m));
      interest = next;
      if (markInterested(state, added)) nudge$.next();
    },
    invalidate() {
      fleetPace.invalidate();
      wallPace.invalidate();
      nudge$.next();
    },
    refresh() {
      nudge$.next();
    },
  };
}
