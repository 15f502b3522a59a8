import type { Database } from "../db/database.ts";
import { batchesRepo } from "../db/batches-repo.ts";
import { commandLogRepo } from "./command-log-repo.ts";
import { auditRepo } from "../db/audit-repo.ts";
import { pushDeliveriesRepo } from "../db/push-deliveries-repo.ts";
import { createPartitions, DAY_MS, dropPartitionsBefore, partitionAt, partitionsBetween, type Partition } from "./partitions.ts";

/** How long history is kept, in days (HISTORY_MINUTE_RETENTION_DAYS, HISTORY_HOUR_RETENTION_DAYS). */
export interface HistoryRetention {
  minuteDays: number;
  /** Hourly rollups, and also device state events, the command log and the configs MCUs were sent. */
  hourDays: number;
}

export const DEFAULT_RETENTION: HistoryRetention = { minuteDays: 30, hourDays: 730 };

/** Daily minute partitions made ahead: today and the next 3 days (so 3 days of the job failing lose nothing). */
const MINUTE_DAYS_AHEAD = 3;

export interface MaintenanceReport {
  created: string[];
  dropped: string[];
  /** Pending commands of a node that stopped, marked timed out. */
  commandsAbandoned: number;
  /** Config changes past retention, deleted. */
  configChangesDropped: number;
  /** Audit entries older than the command log keeps. */
  auditDropped: number;
  /** Push deliveries as old. */
  pushesDropped: number;
  /** Steps that failed (the others ran); the next run tries them again. */
  errors: Error[];
}

/**
 * The history job: creates partitions ahead, drops the partitions wholly older than retention
 * (DROP TABLE, not DELETE: no dead rows, no vacuum; the command log too, which holds every switch
 * the devices' automation makes), and finishes commands left pending by a node that stopped. A
 * month is dropped once its last day is past retention, so up to a month more than the retention
 * stays (of the hourly rollups, state events and command log). Every step is
 * idempotent (partition DDL also takes an advisory lock), so several server nodes may run it at
 * the same time; a step that fails does not stop the others.
 */
export async function runMaintenance(
  db: Database,
  { nowMs, retention = DEFAULT_RETENTION, abandonAfterMs }: { nowMs: number; retention?: HistoryRetention; abandonAfterMs: number },
): Promise<MaintenanceReport> {
  const report: MaintenanceReport = { created: [], dropped: [], commandsAbandoned: 0, configChangesDropped: 0, auditDropped: 0, pushesDropped: 0, errors: [] };
  const step = async (fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      report.errors.push(err as Error);
    }
  };

  const nextMonth = partitionAt("reading_hours", nowMs).to;
  const ahead: Partition[] = [
    ...partitionsBetween("reading_minutes", nowMs, nowMs + MINUTE_DAYS_AHEAD * DAY_MS),
    ...partitionsBetween("reading_hours", nowMs, nextMonth),
    ...partitionsBetween("device_state_events", nowMs, nextMonth),
    ...partitionsBetween("command_log", nowMs, nextMonth),
  ];
  await step(async () => {
    report.created = await createPartitions(db, ahead);
  });

  const minuteCutoff = nowMs - retention.minuteDays * DAY_MS;
  const hourCutoff = nowMs - retention.hourDays * DAY_MS;
  for (const [table, cutoff] of [
    ["reading_minutes", minuteCutoff],
    ["reading_hours", hourCutoff],
    ["device_state_events", hourCutoff],
    ["command_log", hourCutoff],
  ] as const) {
    await step(async () => {
      report.dropped.push(...(await dropPartitionsBefore(db, table, cutoff)));
    });
  }
  // Kept as long as the command log: what the devices were told to run on beside what they switched.
  await step(async () => {
    report.configChangesDropped = await batchesRepo(db).sweepConfigChanges(new Date(hourCutoff));
    // The audit trail too: who changed what is kept as long as what the devices did.
    report.auditDropped = await auditRepo(db).sweep(new Date(hourCutoff));
    // And which pushes reached whom: an alarm's calls are read beside them.
    report.pushesDropped = await pushDeliveriesRepo(db).sweep(new Date(hourCutoff));
  });
  await step(async () => {
    report.commandsAbandoned = await commandLogRepo(db).sweepAbandoned(nowMs - abandonAfterMs, nowMs);
  });
  return report;
}
