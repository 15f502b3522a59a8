import { HISTORY_METRICS } from "../../src/contract/history.ts";
import type { Sql } from "../db/database.ts";
import { metricOf, type MinuteRow } from "./rollups.ts";

/**
 * The SQL of the rollup tables: minute rows written from memory, merged into what a minute already
 * holds, and hourly rows rebuilt from minutes. Every metric has four columns: `<m>_min`,
 * `<m>_avg`, `<m>_max` (null when the bucket has no sample of it) and `<m>_n`.
 */

const METRIC_COLUMNS = HISTORY_METRICS.flatMap((m) => [`${m}_min`, `${m}_avg`, `${m}_max`, `${m}_n`]);

/** Rows per statement. Each column is one array parameter, so this bounds the statement's size, not its parameter count. */
export const MINUTE_CHUNK = 2000;

/**
 * Merging a bucket with new samples of it: min of mins, max of maxes, sum of counts, and the
 * average weighted by counts (a side without samples of a metric has a null average and weighs 0).
 */
const MERGE = HISTORY_METRICS.map(
  (m) => `${m}_min = least(r.${m}_min, excluded.${m}_min),
    ${m}_max = greatest(r.${m}_max, excluded.${m}_max),
    ${m}_avg = case when r.${m}_n + excluded.${m}_n = 0 then null
      else (coalesce(r.${m}_avg::float8 * r.${m}_n, 0) + coalesce(excluded.${m}_avg::float8 * excluded.${m}_n, 0)) / (r.${m}_n + excluded.${m}_n) end,
    ${m}_n = r.${m}_n + excluded.${m}_n`,
).join(",\n    ");

const UPSERT_MINUTES = `insert into reading_minutes as r (mcu_id, bucket, ${METRIC_COLUMNS.join(", ")})
  select v.* from unnest($1::int[], $2::timestamptz[], ${METRIC_COLUMNS.map((c, i) => `$${i + 3}::${c.endsWith("_n") ? "int" : "real"}[]`).join(", ")})
    as v(mcu_id, bucket, ${METRIC_COLUMNS.join(", ")})
  where exists (select 1 from mcus m where m.mcu_id = v.mcu_id)
  on conflict (mcu_id, bucket) do update set
    ${MERGE}`;

/**
 * Writes minute rows in one statement (per MINUTE_CHUNK rows), merging each into the minute's row
 * if it exists: a late reading, a partial minute written at shutdown, another node's share of the
 * same minute. The rows must be distinct by MCU and minute (`mergeDuplicates`), and in that
 * order when other nodes may write the same minutes (locks taken in one order cannot deadlock).
 * Rows of an MCU deleted meanwhile are skipped.
 */
export async function upsertMinuteRows(sql: Sql, rows: MinuteRow[], chunkSize = MINUTE_CHUNK): Promise<void> {
  for (let i = 0; i < rows.length; i += chunkSize) {
    const chunk = rows.slice(i, i + chunkSize);
    const columns: (number | null)[][] = METRIC_COLUMNS.map(() => new Array<number | null>(chunk.length));
    chunk.forEach((row, r) => {
      HISTORY_METRICS.forEach((metric, m) => {
        const { min, avg, max, n } = metricOf(row.values, metric);
        columns[m * 4]![r] = min;
        columns[m * 4 + 1]![r] = avg;
        columns[m * 4 + 2]![r] = max;
        columns[m * 4 + 3]![r] = n;
      });
    });
    await sql.query(UPSERT_MINUTES, [chunk.map((r) => r.mcuId), chunk.map((r) => new Date(r.bucket).toISOString()), ...columns]);
  }
}

/** Aggregating minutes into a coarser bucket: min of mins, max of maxes, sum of counts, count-weighted average. */
export const AGGREGATE_METRICS = HISTORY_METRICS.map(
  (m) => `min(${m}_min) as ${m}_min,
    sum(${m}_avg::float8 * ${m}_n) / nullif(sum(${m}_n), 0) as ${m}_avg,
    max(${m}_max) as ${m}_max,
    coalesce(sum(${m}_n), 0) as ${m}_n`,
).join(",\n    ");

const RECOMPUTE_HOURS = `insert into reading_hours as h (mcu_id, bucket, ${METRIC_COLUMNS.join(", ")})
  select mcu_id, date_trunc('hour', bucket, 'UTC') as hour,
    ${AGGREGATE_METRICS}
  from reading_minutes
  where mcu_id = any($3::int[]) and bucket >= $1 and bucket < $2
  group by mcu_id, hour
  order by mcu_id, hour
  on conflict (mcu_id, bucket) do update set
    ${METRIC_COLUMNS.map((c) => `${c} = excluded.${c}`).join(", ")}`;

/**
 * Rebuilds the hourly rows of `mcuIds` for the hours from the one holding `fromMs` up to (not
 * including) the one starting at or after `toMs`, from their minutes. Rebuilding (not adding)
 * makes it safe to run again, from any node: an hour is always what its minutes are now. An hour
 * whose minutes are gone (past minute retention) has nothing to build from and keeps its row.
 * The MCUs are named so that the minutes are found by the primary key (MCU, minute). Rows are
 * written in key order, so two nodes rebuilding the same hours lock them in the same order.
 */
export async function recomputeHours(sql: Sql, mcuIds: readonly number[], fromMs: number, toMs: number): Promise<void> {
  const from = fromMs - (fromMs % 3600_000);
  const to = toMs % 3600_000 === 0 ? toMs : toMs - (toMs % 3600_000) + 3600_000;
  if (to <= from || mcuIds.length === 0) return;
  await sql.query(RECOMPUTE_HOURS, [new Date(from).toISOString(), new Date(to).toISOString(), mcuIds]);
}

/**
 * The latest time any MCU was heard (null when none ever was) and every MCU's id: a run that
 * crashed left the hour just before it unrebuilt. (The rollup tables have no index led by time,
 * so asking them for their latest bucket would read whole partitions.)
 */
export async function lastHeard(sql: Sql): Promise<{ last: Date | null; ids: number[] | null } | undefined> {
  const [row] = await sql.query<{ last: Date | null; ids: number[] | null }>("select max(last_seen_at) as last, array_agg(mcu_id) as ids from mcus");
  return row;
}
