import type { ProfileConfig } from "../../src/contract/entities.ts";
import { batchProgress, configKey, dueStep, type Batch, type ConfigChange } from "../../src/contract/grow.ts";
import { batchesRepo, type ConfigSources } from "../db/batches-repo.ts";
import type { Database } from "../db/database.ts";
import { catchUp } from "./batch-steps.ts";

/** How long closing waits for the work under way (a shutdown has 10 s in all). */
const CLOSE_WAIT_MS = 3000;

export interface PlanRunnerOptions {
  db: Database;
  /** The server's clock. */
  now: () => Date;
  /** Sends a device its config, retained (null: none, the retained one goes). */
  publish(mac: string, config: ProfileConfig | null): Promise<void>;
  /** The plan moved a batch on: the server raises batchChanged with it (which comes back here through `batchChanged`). */
  changed(clientId: number, batch: Batch): void;
  log(msg: string): void;
  /** How often due phases are looked for (default a second). */
  tickMs?: number;
  /** How often the running batches are read again from the database (default a minute): another node's changes. */
  reloadMs?: number;
  /** How often a ramping phase's config is worked out again, in the clock's time (default a minute). */
  rampMs?: number;
}

export interface PlanRunner {
  /** Reads the running batches and starts ticking; with `publishAll`, sends every device its effective config (an empty embedded broker). */
  start(options: { publishAll: boolean }): Promise<void>;
  /** A batch started or changed (batchChanged): kept (or dropped once ended), and its MCUs' configs worked out again. */
  batchChanged(batch: Batch): Promise<void>;
  /** Works out the MCUs' effective configs and sends those that changed (all of them with `force`). */
  refresh(mcuIds: number[], options?: { force?: boolean }): Promise<void>;
  /** Sends every MCU with a linked profile or a running batch its effective config, retained. */
  publishAll(): Promise<void>;
  close(): Promise<void>;
}

interface Tracked {
  batch: Batch;
  /** When its phase is due to move on; null while held. */
  dueAt: number | null;
  ramps: boolean;
  /** The clock's time its ramped config was last worked out. */
  evaluatedAt: number;
}

/** The part of a batch that decides its config. */
const planKey = (b: Batch) => [b.status, b.phase_index, b.phase_started_at, b.extra_days, b.held_ms, b.held_since].join("|");

interface Effective {
  cause: ConfigChange["cause"];
  batchId: number | null;
  detail: string;
  config: ProfileConfig | null;
}

/**
 * The plan runner: follows every running batch's plan and keeps each MCU's device on its
 * effective config: its running batch's config now (ramps included), else its linked profile's,
 * else none. It keeps the running batches in memory and ticks every second, which only compares
 * times; a due phase moves on through the same state machine as a grower's action, stored only
 * if no one moved the batch meanwhile (another node, a grower). A device is sent a config only
 * when it changed, and every change is recorded with its cause. Nothing here is on the path of
 * a device's readings.
 */
export function createPlanRunner(o: PlanRunnerOptions): PlanRunner {
  const repo = batchesRepo(o.db);
  const tickMs = o.tickMs ?? 1000;
  const reloadMs = o.reloadMs ?? 60_000;
  const rampMs = o.rampMs ?? 60_000;
  const running = new Map<number, Tracked>();
  /** The config key each MCU's device was last sent by this node. */
  const sent = new Map<number, string>();
  /** What each MCU's latest record says (cause, batch, config), as far as this node knows. */
  const recorded = new Map<number, string>();
  const stepping = new Set<number>();
  let ticker: NodeJS.Timeout | undefined;
  let reloader: NodeJS.Timeout | undefined;
  let ticking = false;
  let closed = false;
  /** Sends and records one after another: a later config never overtakes an earlier one. */
  let chain: Promise<void> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work);
    chain = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  };

  function track(batch: Batch): void {
    if (batch.status !== "running") {
      running.delete(batch.batch_id);
      return;
    }
    const now = o.now().getTime();
    const p = batchProgress(batch, now);
    running.set(batch.batch_id, { batch, dueAt: batch.held_since === null ? p.endsAt : null, ramps: p.phase.ramps.length > 0, evaluatedAt: now });
  }

  function batchConfig(batch: Batch, now: number): Effective {
    const p = batchProgress(batch, now);
    return { cause: "batch", batchId: batch.batch_id, detail: `${p.phase.name}, day ${p.day}`, config: p.config };
  }

  async function effectiveOf(s: ConfigSources, now: number): Promise<Effective> {
    if (s.batch_id !== null) {
      let tracked = running.get(s.batch_id);
      if (!tracked) {
        // Started on another node and not read yet.
        const batch = await repo.get(s.client_id, s.batch_id);
        if (batch) track(batch);
        tracked = running.get(s.batch_id);
      }
      if (tracked) return batchConfig(tracked.batch, now);
    }
    if (s.profile_config) return { cause: "profile", batchId: null, detail: s.profile_name ?? "", config: s.profile_config };
    return { cause: "none", batchId: null, detail: "", config: null };
  }

  async function deliver(s: ConfigSources, e: Effective, force: boolean, now: number): Promise<void> {
    const key = configKey(e.config);
    if (force || sent.get(s.mcu_id) !== key) {
      await o.publish(s.mac, e.config);
      sent.set(s.mcu_id, key);
    }
    const record = `${e.cause}|${e.batchId}|${key}`;
    if (recorded.get(s.mcu_id) !== record) {
      await repo.recordConfigChange({ mcu_id: s.mcu_id, at: new Date(now), cause: e.cause, batch_id: e.batchId, detail: e.detail, config: e.config });
      recorded.set(s.mcu_id, record);
    }
  }

  const refresh = (mcuIds: number[] | undefined, force: boolean) =>
    serial(async () => {
      if (mcuIds?.length === 0) return;
      const now = o.now().getTime();
      for (const s of await repo.configSources(mcuIds)) await deliver(s, await effectiveOf(s, now), force, now);
    });

  /**
   * Keeps `batch`; answers whether its plan moved since this node last saw it (then its devices
   * are sent their config whatever this node last sent them: another node may have sent another).
   */
  function retrack(batch: Batch): boolean {
    const before = running.get(batch.batch_id);
    track(batch);
    return !before || planKey(before.batch) !== planKey(batch);
  }

  async function reload(publish: boolean): Promise<void> {
    const batches = await repo.running();
    const ids = new Set(batches.map((b) => b.batch_id));
    const moved: number[] = [];
    for (const [id, t] of running) {
      if (!ids.has(id) && !stepping.has(id)) {
        // Ended elsewhere: its MCUs are back on their profiles.
        running.delete(id);
        moved.push(...t.batch.mcu_ids);
      }
    }
    for (const b of batches) if (!stepping.has(b.batch_id) && retrack(b)) moved.push(...b.mcu_ids);
    if (publish && moved.length > 0) await refresh(moved, true);
  }

  /** Moves a batch on through every step due by now, if it is still as this node last saw it. */
  async function step(t: Tracked, now: number): Promise<void> {
    const b = t.batch;
    const { state, events } = catchUp(b, now);
    if (events.length === 0) return void track(b);
    const saved = await o.db.transaction((tx) => batchesRepo(tx).saveStep(b.batch_id, b, state, events, new Date(now)));
    const fresh = await repo.get(b.client_id, b.batch_id);
    if (!fresh) return void running.delete(b.batch_id);
    track(fresh);
    // Moved by someone else meanwhile: what they stored is what is told.
    if (saved) o.changed(b.client_id, fresh);
    else await refresh(fresh.mcu_ids, false);
  }

  async function tick(): Promise<void> {
    if (ticking || closed) return;
    ticking = true;
    try {
      const now = o.now().getTime();
      for (const t of [...running.values()]) {
        const id = t.batch.batch_id;
        if (stepping.has(id)) continue;
        if (t.dueAt !== null && now >= t.dueAt && dueStep(t.batch, now) !== null) {
          stepping.add(id);
          await step(t, now)
            .catch((err: Error) => o.log(`plan of batch ${id}: ${err.message}`))
            .finally(() => stepping.delete(id));
        } else if (t.ramps && t.dueAt !== null && now - t.evaluatedAt >= rampMs) {
          t.evaluatedAt = now;
          // Ramped values move in tenths: most minutes change nothing the device is told.
          const key = configKey(batchProgress(t.batch, now).config);
          const stale = t.batch.mcu_ids.filter((m) => sent.get(m) !== key);
          if (stale.length > 0) await refresh(stale, false).catch((err: Error) => o.log(`config of batch ${id}: ${err.message}`));
        }
      }
    } finally {
      ticking = false;
    }
  }

  return {
    async start({ publishAll }) {
      await reload(false);
      if (publishAll) await refresh(undefined, true);
      else await refresh([...running.values()].flatMap((t) => t.batch.mcu_ids), false);
      ticker = setInterval(() => void tick(), tickMs);
      reloader = setInterval(() => void reload(true).catch((err: Error) => o.log(`plan runner: reload: ${err.message}`)), reloadMs);
      ticker.unref();
      reloader.unref();
    },
    async batchChanged(batch) {
      // A harvest or a new name changes nothing a device is told.
      const moved = stepping.has(batch.batch_id) || retrack(batch);
      await refresh(batch.mcu_ids, moved);
    },
    refresh: (mcuIds, options) => refresh(mcuIds, options?.force ?? false),
    publishAll: () => refresh(undefined, true),
    async close() {
      closed = true;
      clearInterval(ticker);
      clearInterval(reloader);
      // What is under way may finish, within a bound: its work is kept either way (configs are
      // retained and sent again at the next start, a phase's step is stored only if unchanged).
      let bound: ReturnType<typeof setTimeout> | undefined;
      const waited = await Promise.race([chain.then(() => true), new Promise<boolean>((resolve) => (bound = setTimeout(() => resolve(false), CLOSE_WAIT_MS)))]);
      clearTimeout(bound);
      if (!waited) o.log(`plan runner: closed with work still under way after ${CLOSE_WAIT_MS} ms`);
    },
  };
}
