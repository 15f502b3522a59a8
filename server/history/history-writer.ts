import type { LiveReading } from "../../src/contract/entities.ts";
import type { Database } from "../db/database.ts";
import { createCommandLog, type CommandRecorder } from "./command-log.ts";
import { DEFAULT_RETENTION, runMaintenance, type HistoryRetention, type MaintenanceReport } from "./maintenance.ts";
import { DAY_MS, ensurePartitions, isMissingPartition, writeWithPartitions } from "./partitions.ts";
import { mergeDuplicates, MINUTE_MS, MinuteRollups, type MinuteRow } from "./rollups.ts";
import { lastHeard, recomputeHours, upsertMinuteRows } from "./rollups-repo.ts";
import { insertStateChanges } from "./state-events-repo.ts";
import { StateTracker } from "./state-tracker.ts";
import { giveReasons } from "./switch-reasons-repo.ts";

const HOUR_MS = 3600_000;

export interface HistoryOptions {
  db: Database;
  now: () => Date;
  retention?: HistoryRetention;
  /** The gateway's command time-out: a pending command older than this at start was left by a previous run. */
  commandTimeoutMs: number;
  /** Minute rollups are written this long after each minute ends (readings stamped just before it are folded by then). */
  minuteDelayMs?: number;
  /** State changes and the command log are written this often: a toggle shows on the timeline within about this. */
  eventsFlushMs?: number;
  /** Hourly rollups of the hours written to are rebuilt this often. */
  hoursEveryMs?: number;
  /** The history job (partitions, retention) runs this often, and at start. */
  maintenanceEveryMs?: number;
  log?: (msg: string) => void;
}

/** This node's history counters since it started (GET /api/metrics shows them as `history`). */
export interface HistoryStats {
  minuteRowsWritten: number;
  /**
   * Minute rows written for a minute of their MCU at or before one this node had written already:
   * they merge into the stored row (a part of a minute written early by a flush, the clock
   * stepping back). A steady rise means minutes are written before their readings are in.
   */
  lateMinuteRows: number;
  stateEventsWritten: number;
  automationLogged: number;
  commandRowsWritten: number;
  /** Rows past retention met by a write (their partition was gone) and left out. */
  droppedPastRetention: number;
  /** Rows given up on because too many waited while the database failed. */
  droppedOverflow: number;
  /** Writes (and history job steps) that failed; what they held waits in `pending` for the next try. */
  writeErrors: number;
  /** What waits in memory for the next write: near 0 while the database keeps up, growing while it fails. */
  pending: { minuteRows: number; stateChanges: number; commandRows: number; hoursToRebuild: number };
  /** The history job on this node: its last run (null: none finished yet), and partitions and pending commands it handled since start. */
  maintenance: { lastRunAt: string | null; lastRunErrors: number; partitionsCreated: number; partitionsDropped: number; commandsAbandoned: number };
}

export interface History {
  /** The hot path: every reading of every MCU (`atMs`: its arrival at the server). */
  onReading(mcuId: number, reading: LiveReading, atMs: number): void;
  /** Where the gateway records the commands it sends and their outcomes. */
  commands: CommandRecorder;
  /** Writes everything pending now, the current minute too (it merges with the rest of it later), and rebuilds the hours written to. */
  flush(): Promise<void>;
  runMaintenance(): Promise<MaintenanceReport>;
  stats(): HistoryStats;
  /** Stops the timers and writes everything pending. */
  close(): Promise<void>;
}

/** Minute rows kept while the database fails (2 000 MCUs: 100 minutes); state changes likewise. */
const MAX_PENDING_ROWS = 200_000;

/**
 * Reading history's write side: minute rollups folded from the live stream and written
 * once a minute in one statement, hourly rollups rebuilt from them every few minutes, the
 * controllers' state changes and the command log written every second, and the history job.
 *
 * Timing: minutes are written 2 s after each minute ends; state changes and commands every 1 s
 * (the timeline follows a toggle within ~1-2 s); hours every 5 min (an hour's row lags its minutes
 * by at most that, and rebuilding the current hour of 2 000 MCUs reads at most 120 000 minute
 * rows); the job every 10 min (partitions exist 3 days ahead, retention is counted in days).
 */
export async function startHistory(o: HistoryOptions): Promise<History> {
  const { db, now } = o;
  const log = o.log ?? (() => {});
  const retention = o.retention ?? DEFAULT_RETENTION;
  const minuteDelayMs = o.minuteDelayMs ?? 2000;
  const stats: Omit<HistoryStats, "pending"> = {
    minuteRowsWritten: 0,
    lateMinuteRows: 0,
    stateEventsWritten: 0,
    automationLogged: 0,
    commandRowsWritten: 0,
    droppedPastRetention: 0,
    droppedOverflow: 0,
    writeErrors: 0,
    maintenance: { lastRunAt: null, lastRunErrors: 0, partitionsCreated: 0, partitionsDropped: 0, commandsAbandoned: 0 },
  };
  /** The newest minute written of each MCU this node has heard (to count late rows). */
  const lastMinuteWritten = new Map<number, number>();

  const rollups = new MinuteRollups();
  const commandLog = createCommandLog();
  const tracker = new StateTracker(commandLog.userCaused);
  /** Minute rows whose write failed, tried again with the next ones. */
  let unwritten: MinuteRow[] = [];
  /** Hours written to since they were last rebuilt, and the MCUs written to in each. */
  let touchedHours = new Map<number, Set<number>>();
  const touch = (hour: number, mcuId: number) => {
    let mcus = touchedHours.get(hour);
    if (!mcus) touchedHours.set(hour, (mcus = new Set()));
    mcus.add(mcuId);
  };

  // While the database is down every write fails (the state events' once a second): each kind is logged once a minute at most.
  const lastLogged = new Map<string, { at: number; skipped: number }>();
  const failed = (what: string) => (err: unknown) => {
    stats.writeErrors++;
    const wallMs = Date.now();
    const last = lastLogged.get(what);
    if (last && wallMs - last.at < 60_000) return void last.skipped++;
    log(`history: ${what}: ${(err as Error).message}${last?.skipped ? ` (and ${last.skipped} more failures since the last message)` : ""}`);
    lastLogged.set(what, { at: wallMs, skipped: 0 });
  };

  async function writeMinutes(all: boolean): Promise<void> {
    const nowMs = now().getTime();
    rollups.harvest(nowMs, { all });
    // In key order: nodes writing the same minutes at the same time then lock rows in the same order (no deadlock).
    const rows = mergeDuplicates(unwritten.concat(rollups.take())).sort((a, b) => a.mcuId - b.mcuId || a.bucket - b.bucket);
    unwritten = [];
    if (rows.length === 0) return;
    try {
      stats.droppedPastRetention += await writeWithPartitions(db, "reading_minutes", rows, (r) => r.bucket, nowMs - retention.minuteDays * DAY_MS, (part) =>
        upsertMinuteRows(db, part),
      );
    } catch (err) {
      unwritten = rows.length > MAX_PENDING_ROWS ? rows.slice(rows.length - MAX_PENDING_ROWS) : rows;
      stats.droppedOverflow += rows.length - unwritten.length;
      throw err;
    }
    stats.minuteRowsWritten += rows.length;
    for (const r of rows) {
      touch(r.bucket - (r.bucket % HOUR_MS), r.mcuId);
      const last = lastMinuteWritten.get(r.mcuId);
      if (last !== undefined && r.bucket <= last) stats.lateMinuteRows++;
      else lastMinuteWritten.set(r.mcuId, r.bucket);
    }
  }

  /** Rebuilds the hours written to, one statement per hour. */
  async function rebuildHours(): Promise<void> {
    if (touchedHours.size === 0) return;
    const hours = [...touchedHours].sort(([a], [b]) => a - b);
    touchedHours = new Map();
    const cutoff = now().getTime() - retention.hourDays * DAY_MS;
    for (const [i, [hour, mcus]] of hours.entries()) {
      if (hour + HOUR_MS <= cutoff) continue;
      const ids = [...mcus];
      try {
        await recomputeHours(db, ids, hour, hour + HOUR_MS).catch(async (err: unknown) => {
          if (!isMissingPartition(err)) throw err;
          await ensurePartitions(db, "reading_hours", [hour]);
          await recomputeHours(db, ids, hour, hour + HOUR_MS);
        });
      } catch (err) {
        for (const [h, m] of hours.slice(i)) for (const id of m) touch(h, id);
        throw err;
      }
    }
  }

  /** `all`: the changes held for the current second too (a flush), else those of the seconds that ended. */
  async function writeEvents(all: boolean): Promise<void> {
    const nowMs = now().getTime();
    // Commands first: a change the user asked for must find the user's row when it is compared.
    stats.commandRowsWritten += await commandLog.flush(db, nowMs);
    const changes = all ? tracker.take() : tracker.take(nowMs);
    if (changes.length === 0) return;
    try {
      // The reasons of the automation's switches: one query for the batch's MCUs, not one per reading.
      await giveReasons(db, changes);
      let written = { events: 0, automation: 0 };
      // One statement writes the events and the automation's command-log rows: a missing month is created in both.
      stats.droppedPastRetention += await writeWithPartitions(db, ["device_state_events", "command_log"], changes, (c) => c.at, nowMs - retention.hourDays * DAY_MS, async (part) => {
        written = await insertStateChanges(db, part);
      });
      stats.stateEventsWritten += written.events;
      stats.automationLogged += written.automation;
    } catch (err) {
      stats.droppedOverflow += tracker.putBack(changes, MAX_PENDING_ROWS);
      throw err;
    }
  }

  // Each kind of write runs one at a time, in order; a failure is logged and the next run retries.
  let minuteChain: Promise<void> = Promise.resolve();
  let eventChain: Promise<void> = Promise.resolve();
  const onMinutes = (fn: () => Promise<void>, what: string) => (minuteChain = minuteChain.then(fn).catch(failed(what)));
  const onEvents = (all: boolean) => (eventChain = eventChain.then(() => writeEvents(all)).catch(failed("state events and command log")));

  const maintain = async (abandonAfterMs: number) => {
    const report = await runMaintenance(db, { nowMs: now().getTime(), retention, abandonAfterMs });
    const m = stats.maintenance;
    m.lastRunAt = now().toISOString();
    m.lastRunErrors = report.errors.length;
    m.partitionsCreated += report.created.length;
    m.partitionsDropped += report.dropped.length;
    m.commandsAbandoned += report.commandsAbandoned;
    for (const err of report.errors) failed("history job")(err);
    if (report.dropped.length > 0) log(`history: dropped ${report.dropped.join(", ")} (past retention)`);
    return report;
  };

  // At start: partitions for now, and the commands a previous run of this node left pending.
  await maintain(o.commandTimeoutMs).catch(failed("history job"));
  // A run that stopped cleanly rebuilt its hours; one that crashed left up to 5 min of minutes out
  // of them, just before the last reading it stored: rebuild the hour around that.
  onMinutes(async () => {
    const row = await lastHeard(db);
    const nowMs = now().getTime();
    const lastMs = Math.min(row?.last ? new Date(row.last).getTime() : nowMs, nowMs);
    for (let h = lastMs - (lastMs % HOUR_MS) - HOUR_MS; h <= lastMs; h += HOUR_MS) for (const id of row?.ids ?? []) touch(h, id);
    await rebuildHours();
  }, "hourly rollups");

  let minuteTimer: NodeJS.Timeout | undefined;
  const scheduleMinute = () => {
    const wallMs = Date.now();
    minuteTimer = setTimeout(() => {
      onMinutes(() => writeMinutes(false), "minute rollups");
      scheduleMinute();
    }, MINUTE_MS - (wallMs % MINUTE_MS) + minuteDelayMs);
    minuteTimer.unref();
  };
  scheduleMinute();
  const eventTimer = setInterval(() => onEvents(false), o.eventsFlushMs ?? 1000);
  eventTimer.unref();
  const hourTimer = setInterval(() => onMinutes(rebuildHours, "hourly rollups"), o.hoursEveryMs ?? 300_000);
  hourTimer.unref();
  // Another node may have sent a command and stopped; its outcome arrives within the time-out plus a write.
  const maintenanceTimer = setInterval(() => void maintain(o.commandTimeoutMs + 60_000).catch(failed("history job")), o.maintenanceEveryMs ?? 600_000);
  maintenanceTimer.unref();

  async function flush(): Promise<void> {
    onEvents(true);
    onMinutes(() => writeMinutes(true), "minute rollups");
    onMinutes(rebuildHours, "hourly rollups");
    await Promise.all([eventChain, minuteChain]);
  }

  return {
    onReading(mcuId, reading, atMs) {
      rollups.put(mcuId, reading, atMs);
      tracker.observe(mcuId, reading, atMs);
    },
    commands: commandLog.recorder,
    flush,
    runMaintenance: () => maintain(o.commandTimeoutMs + 60_000),
    stats: () => ({
      ...stats,
      droppedOverflow: stats.droppedOverflow + commandLog.dropped(),
      pending: { minuteRows: unwritten.length, stateChanges: tracker.pendingCount, commandRows: commandLog.waiting(), hoursToRebuild: touchedHours.size },
      maintenance: { ...stats.maintenance },
    }),
    async close() {
      clearTimeout(minuteTimer);
      clearInterval(eventTimer);
      clearInterval(hourTimer);
      clearInterval(maintenanceTimer);
      await flush();
    },
  };
}
