import { HISTORY_METRICS, type HistoryMetric } from "../../src/contract/history.ts";
import type { Database, Sql } from "../db/database.ts";

/**
 * Test data for the history read side, written straight into the tables of 007_history.sql (the
 * write side has tests of its own): partitions for a range, rollup rows, state events, commands.
 */

const DAY_MS = 86_400_000;
const pad = (n: number) => String(n).padStart(2, "0");
const ymd = (d: Date) => `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
const ym = (d: Date) => `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}`;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The statements that create every partition [fromMs, toMs) touches (daily minutes; monthly hours, events and command log). */
export function partitionStatements(fromMs: number, toMs: number): string[] {
  const out: string[] = [];
  for (let day = Math.floor(fromMs / DAY_MS) * DAY_MS; day < toMs; day += DAY_MS) {
    out.push(`create table if not exists reading_minutes_p${ymd(new Date(day))} partition of reading_minutes for values from ('${isoDay(day)} 00:00:00+00') to ('${isoDay(day + DAY_MS)} 00:00:00+00')`);
  }
  const first = new Date(fromMs);
  for (let m = Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 1); m < toMs; ) {
    const d = new Date(m);
    const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    for (const table of ["reading_hours", "device_state_events", "command_log"]) {
      out.push(`create table if not exists ${table}_p${ym(d)} partition of ${table} for values from ('${isoDay(m)} 00:00:00+00') to ('${isoDay(next)} 00:00:00+00')`);
    }
    m = next;
  }
  return out;
}

export async function createPartitions(db: Database, fromMs: number, toMs: number): Promise<void> {
  await db.exec(partitionStatements(fromMs, toMs).join(";\n"));
}

export interface Agg {
  min: number;
  avg: number;
  max: number;
  n: number;
}

/** One rollup row (minute or hour); metrics not given have no samples. */
export async function insertRollup(sql: Sql, table: "reading_minutes" | "reading_hours", mcuId: number, bucket: string, metrics: Partial<Record<HistoryMetric, Agg>>): Promise<void> {
  const cols = ["mcu_id", "bucket"];
  const values: unknown[] = [mcuId, bucket];
  for (const m of HISTORY_METRICS) {
    const a = metrics[m];
    if (!a) continue;
    cols.push(`${m}_min`, `${m}_avg`, `${m}_max`, `${m}_n`);
    values.push(a.min, a.avg, a.max, a.n);
  }
  await sql.query(`insert into ${table} (${cols.join(", ")}) values (${values.map((_, i) => `$${i + 1}`).join(", ")})`, values);
}

/**
 * Minute rollups for every minute of [fromMs, toMs) in one statement, all six metrics with
 * plausible values that vary by minute (generate_series: a year is 525 600 rows).
 */
export async function fillMinutes(sql: Sql, mcuId: number, fromMs: number, toMs: number): Promise<void> {
  const metric = (m: HistoryMetric, base: number, amp: number) => {
    const v = `(${base} + ${amp} * sin(extract(epoch from g) / 3600.0))`;
    return `(${v} - 0.5)::real, ${v}::real, (${v} + 0.5)::real, 4`;
  };
  await sql.query(
    `insert into reading_minutes (mcu_id, bucket, ${HISTORY_METRICS.map((m) => `${m}_min, ${m}_avg, ${m}_max, ${m}_n`).join(", ")})
     select $1, g, ${[metric("temperature", 18, 3), metric("humidity", 88, 5), metric("soil_temperature", 16, 1), metric("co2", 900, 250), metric("soil_moisture", 45, 10), metric("battery", 80, 15)].join(", ")}
     from generate_series($2::timestamptz, $3::timestamptz - interval '1 minute', interval '1 minute') g`,
    [mcuId, new Date(fromMs).toISOString(), new Date(toMs).toISOString()],
  );
}

export async function insertEvent(sql: Sql, mcuId: number, at: string, target: string, status: boolean, auto: boolean, session: boolean | null = null): Promise<void> {
  await sql.query("insert into device_state_events (mcu_id, at, target, status, auto, session) values ($1, $2, $3, $4, $5, $6)", [mcuId, at, target, status, auto, session]);
}

export interface CommandInput {
  command_id: string;
  mcu_id: number;
  client_id?: number | null;
  source?: "user" | "automation";
  actor?: string | null;
  target?: string;
  type?: "auto" | "status";
  on_off?: boolean;
  at: string;
  outcome?: string;
  reason?: string | null;
  answered_at?: string | null;
}

export async function insertCommand(sql: Sql, c: CommandInput): Promise<void> {
  await sql.query(
    `insert into command_log (command_id, mcu_id, client_id, source, actor, target, type, on_off, at, outcome, reason, answered_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      c.command_id,
      c.mcu_id,
      c.client_id ?? null,
      c.source ?? "user",
      c.actor === undefined ? (c.source === "automation" ? null : "grower") : c.actor,
      c.target ?? "Irrigation",
      c.type ?? "status",
      c.on_off ?? true,
      c.at,
      c.outcome ?? (c.source === "automation" ? "reported" : "acknowledged"),
      c.reason ?? null,
      c.answered_at ?? null,
    ],
  );
}
