import type { Database } from "../db/database.ts";
import { partitionsRepo } from "./partitions-repo.ts";

/**
 * The history tables' partitions (migration 007): reading_minutes by UTC day
 * (`reading_minutes_pYYYYMMDD`), reading_hours, device_state_events and command_log by UTC month
 * (`<table>_pYYYYMM`). The history job creates them ahead and drops those past retention; a writer
 * that meets a missing one creates it (`ensurePartitions`) and tries again.
 */

export const PARTITIONED = ["reading_minutes", "reading_hours", "device_state_events", "command_log"] as const;
export type PartitionedTable = (typeof PARTITIONED)[number];

const DAILY: Record<PartitionedTable, boolean> = { reading_minutes: true, reading_hours: false, device_state_events: false, command_log: false };

export const DAY_MS = 86_400_000;

export interface Partition {
  table: PartitionedTable;
  name: string;
  /** Range start (inclusive) and end (exclusive), epoch ms. */
  from: number;
  to: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The partition of `table` that holds time `ms`. */
export function partitionAt(table: PartitionedTable, ms: number): Partition {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  if (DAILY[table]) {
    const from = Date.UTC(y, m, d.getUTCDate());
    return { table, name: `${table}_p${y}${pad(m + 1)}${pad(d.getUTCDate())}`, from, to: from + DAY_MS };
  }
  return { table, name: `${table}_p${y}${pad(m + 1)}`, from: Date.UTC(y, m, 1), to: Date.UTC(y, m + 1, 1) };
}

/** The partition a name stands for, or undefined for a table the job did not name. */
export function partitionNamed(table: PartitionedTable, name: string): Partition | undefined {
  const match = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})?$`).exec(name);
  if (!match) return undefined;
  const [, y, m, d] = match;
  if (DAILY[table] !== (d !== undefined)) return undefined;
  return partitionAt(table, Date.UTC(Number(y), Number(m) - 1, d === undefined ? 1 : Number(d)));
}

/** Partitions of `table` from the one holding `fromMs` to the one holding `toMs`, both included. */
export function partitionsBetween(table: PartitionedTable, fromMs: number, toMs: number): Partition[] {
  const out: Partition[] = [];
  for (let p = partitionAt(table, fromMs); p.from <= toMs; p = partitionAt(table, p.to)) out.push(p);
  return out;
}

/**
 * Creates the partitions among `wanted` that are missing (idempotent: any node may run it at any
 * time). Answers the names created.
 */
export async function createPartitions(db: Database, wanted: Partition[]): Promise<string[]> {
  if (wanted.length === 0) return [];
  const tables = [...new Set(wanted.map((p) => p.table))];
  const catalog = partitionsRepo(db);
  const existing = new Set((await Promise.all(tables.map((t) => catalog.existing(t)))).flat());
  const missing = [...new Map(wanted.filter((p) => !existing.has(p.name)).map((p) => [p.name, p])).values()];
  if (missing.length === 0) return [];
  return db.transaction(async (tx) => {
    const ddl = partitionsRepo(tx);
    await ddl.lockForDdl();
    for (const p of missing) await ddl.create(p);
    return missing.map((p) => p.name);
  });
}

/** Creates the partitions of `tables` that hold the times `times` (of rows about to be written). */
export function ensurePartitions(db: Database, tables: PartitionedTable | readonly PartitionedTable[], times: Iterable<number>): Promise<string[]> {
  const wanted = new Map<string, Partition>();
  for (const t of times) {
    for (const table of typeof tables === "string" ? [tables] : tables) {
      const p = partitionAt(table, t);
      wanted.set(p.name, p);
    }
  }
  return createPartitions(db, [...wanted.values()]);
}

/** Drops the partitions of `table` that end at or before `cutoffMs` (wholly older than retention). Answers the names dropped. */
export async function dropPartitionsBefore(db: Database, table: PartitionedTable, cutoffMs: number): Promise<string[]> {
  const old = (await partitionsRepo(db).existing(table)).map((name) => partitionNamed(table, name)).filter((p): p is Partition => p !== undefined && p.to <= cutoffMs);
  if (old.length === 0) return [];
  return db.transaction(async (tx) => {
    const ddl = partitionsRepo(tx);
    await ddl.lockForDdl();
    for (const p of old) await ddl.drop(p);
    return old.map((p) => p.name);
  });
}

/** The database refused a row because no partition of its table holds its time (SQLSTATE 23514, like a CHECK). */
export function isMissingPartition(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return e?.code === "23514" && typeof e.message === "string" && e.message.includes("no partition of relation");
}

/**
 * Runs a write of rows of `tables` (one statement may write several: a state change and the
 * command-log row of the automation's switch); if a partition is missing, creates the partitions
 * of every one of `tables` for the rows that are within retention, and runs it once more with
 * those only. Rows older than `cutoffMs` (their partition was dropped, or is about to be) are left
 * out and counted. Answers how many rows were left out.
 */
export async function writeWithPartitions<R>(
  db: Database,
  tables: PartitionedTable | readonly PartitionedTable[],
  rows: R[],
  timeOf: (row: R) => number,
  cutoffMs: number,
  write: (rows: R[]) => Promise<unknown>,
): Promise<number> {
  try {
    await write(rows);
    return 0;
  } catch (err) {
    if (!isMissingPartition(err)) throw err;
  }
  const kept = rows.filter((r) => timeOf(r) >= cutoffMs);
  await ensurePartitions(db, tables, kept.map(timeOf));
  if (kept.length > 0) await write(kept);
  return rows.length - kept.length;
}
