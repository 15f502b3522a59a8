import { STATE_TARGETS, type CommandLogEntry, type CommandOutcome, type HistoryMetric, type StateEvent, type StateTarget } from "../../src/contract/history.ts";
import type { SwitchReason } from "../../src/contract/switch-reasons.ts";
import type { Sql } from "../db/database.ts";
import { iso, isoOrNull } from "../db/rows.ts";
import type { CommandCursor, SeriesPlan } from "./history-params.ts";
import { READING_DECIMALS } from "./csv.ts";
import { USER_COMMAND_WINDOW_MS } from "./state-events-repo.ts";

/**
 * Reads of reading history: rollup series of one MCU or of a farm's MCUs, device
 * state events and the command log. Everything a client reads here is scoped by the caller
 * (`mcu`/`farm` check ownership; the rest takes ids that were checked).
 *
 * Series are read from the rollup tables by their primary key (mcu_id, bucket): a range names
 * only the partitions it touches, and a range no partition covers reads nothing.
 */

/**
 * An MCU's series as columns: `t` (each bucket's start, epoch ms, ascending) and per metric
 * `<m>_min`, `<m>_avg`, `<m>_max` (null where the bucket has no sample of it) and `<m>_n`.
 */
export type SeriesColumns = { t: number[] } & Record<string, (number | null)[]>;

/** One MCU's averages of a farm's series, at the buckets where it has samples (ascending), with their sample counts. */
export interface FarmSeriesRow {
  mcu_id: number;
  t: number[];
  avg: number[];
  n: number[];
}

export interface McuRef {
  mcu_id: number;
  name: string;
  mac: string;
}

export interface CommandFilters {
  fromMs?: number;
  toMs?: number;
  source?: "user" | "automation";
  outcome?: CommandOutcome;
  target?: StateTarget;
}

/** A state event and its time in microseconds (the keyset of the CSV export). */
export type StateEventRow = StateEvent & { atMicros: string };
/** A command log entry and its page cursor. */
export type CommandRow = CommandLogEntry & { cursor: CommandCursor };

/*
 * Chunk sizes of the CSV exports. PGlite runs one query at a time, so an interactive query that
 * arrives while an export's chunk runs waits for what is left of it: each chunk is kept to a few
 * milliseconds (measured on a year of minutes: 500 buckets of every metric ~3.5 ms, of which
 * ~1 ms is the query's own overhead), so that another tenant's request waits ~2 ms at worst.
 */
/** Buckets per query when a series is read in chunks (CSV): ~75 kB of CSV each. */
export const SERIES_CHUNK_BUCKETS = 500;
/** Cells (MCUs × buckets) per query of a farm's series read in chunks. */
export const FARM_CHUNK_CELLS = 4000;
/** Rows per query of state events and commands read in chunks. */
export const ROWS_CHUNK = 1000;

const isoParam = (ms: number) => new Date(ms).toISOString();

/** Positional parameters for a query being built. */
function params() {
  const values: unknown[] = [];
  return { values, p: (v: unknown) => `$${values.push(v)}` };
}

/**
 * The rollup rows of the window [fromMs, toMs) (bucket-aligned): hourly rows before the plan's
 * `hoursBeforeMs`, minute rows from it on. `where` selects the MCU(s).
 */
function rollupSource(columns: string, where: string, plan: SeriesPlan, fromMs: number, toMs: number, p: (v: unknown) => string): string {
  const mid = plan.hoursBeforeMs === undefined ? fromMs : Math.min(Math.max(plan.hoursBeforeMs, fromMs), toMs);
  const parts: string[] = [];
  if (mid > fromMs) {
    parts.push(`select mcu_id, bucket, ${columns} from reading_hours where ${where} and bucket >= ${p(isoParam(fromMs))}::timestamptz and bucket < ${p(isoParam(mid))}::timestamptz`);
  }
  if (toMs > mid) {
    parts.push(`select mcu_id, bucket, ${columns} from reading_minutes where ${where} and bucket >= ${p(isoParam(mid))}::timestamptz and bucket < ${p(isoParam(toMs))}::timestamptz`);
  }
  return parts.join(" union all ");
}

// Column names are built from HISTORY_METRICS (requests name metrics that were checked against it).
const columnsOf = (metrics: readonly HistoryMetric[]) => metrics.flatMap((m) => [`${m}_min`, `${m}_avg`, `${m}_max`, `${m}_n`]).join(", ");

const EPOCH = "timestamptz '1970-01-01 00:00:00+00'";

/** A metric's rollups combined: min of mins, max of maxes, the count-weighted mean, the sample count. */
const aggregates = (m: HistoryMetric) =>
  `min(${m}_min) as ${m}_min, (sum(${m}_avg::float8 * ${m}_n) / nullif(sum(${m}_n), 0))::real as ${m}_avg, max(${m}_max) as ${m}_max, coalesce(sum(${m}_n), 0)::int as ${m}_n`;

/**
 * One row per bucket of the plan's resolution that holds a sample of one of `metrics`: `b` (the
 * bucket's start) and each metric's `<m>_min`, `<m>_avg`, `<m>_max`, `<m>_n`. At 60 s the minute
 * rollups are the buckets (no grouping: the common 24 h chart and CSV export skip a sort).
 */
function buckets(metrics: readonly HistoryMetric[], source: string, plan: SeriesPlan, p: (v: unknown) => string): string {
  const anySample = metrics.map((m) => `${m}_n > 0`).join(" or ");
  if (plan.resolution === 60) return `select bucket as b, ${columnsOf(metrics)} from (${source}) s where ${anySample}`;
  return `select b, ${metrics.map(aggregates).join(", ")}
    from (select date_bin(${p(plan.resolution)}::int * interval '1 second', bucket, ${EPOCH}) as b, ${columnsOf(metrics)} from (${source}) s where ${anySample}) s
    group by b`;
}

const epochMs = (col: string) => `(extract(epoch from ${col}) * 1000)::float8`;
const csvTime = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

const STATE_EVENT_COLUMNS = "at, target, status, auto, session, (extract(epoch from at) * 1000000)::bigint::text as at_micros";

interface StateEventDbRow {
  at: Date;
  target: StateTarget;
  status: boolean;
  auto: boolean;
  session: boolean | null;
  at_micros: string;
}

function stateEventOf(r: StateEventDbRow & { cause_source?: "user" | "automation" | null; cause_actor?: string | null; cause_why?: SwitchReason | null }): StateEventRow {
  const e: StateEventRow = { at: iso(r.at), target: r.target, status: r.status, auto: r.auto, atMicros: r.at_micros };
  if (r.target === "Irrigation" || r.session !== null) e.session = r.session;
  if (r.cause_source) e.cause = { source: r.cause_source, actor: r.cause_actor ?? null, why: r.cause_why ?? null };
  return e;
}

/**
 * Who made a change, from the command log: the automation's row of that change (same time), or a
 * person's command for that status within the window before it (the writer's own rule).
 */
const CAUSE_JOIN = `left join lateral (
    select c.source as cause_source, c.actor as cause_actor, c.why as cause_why from command_log c
    where c.mcu_id = e.mcu_id and c.target = e.target and c.type = 'status' and c.on_off = e.status
      and c.at <= e.at and c.at > e.at - ${USER_COMMAND_WINDOW_MS} * interval '1 millisecond'
      and ((c.source = 'automation' and c.at = e.at) or (c.source = 'user' and c.outcome in ('pending', 'acknowledged')))
    order by c.at desc limit 1
  ) c on true`;

interface CommandDbRow {
  command_id: string;
  mcu_id: number;
  source: "user" | "automation";
  actor: string | null;
  target: StateTarget;
  type: "auto" | "status";
  on_off: boolean;
  at: Date;
  outcome: CommandOutcome;
  reason: string | null;
  answered_at: Date | null;
  why: SwitchReason | null;
  at_micros: string;
}

function commandOf(r: CommandDbRow): CommandRow {
  return {
    command_id: r.command_id,
    mcu_id: r.mcu_id,
    source: r.source,
    actor: r.actor,
    target: r.target,
    type: r.type,
    on_off: r.on_off,
    at: iso(r.at),
    outcome: r.outcome,
    reason: r.reason,
    answered_at: isoOrNull(r.answered_at),
    why: r.why,
    cursor: { atMicros: r.at_micros, commandId: r.command_id },
  };
}

/** A microsecond count (as text) back to a timestamptz, exactly (a double would round it). */
const fromMicros = (p: string) => `(timestamptz '1970-01-01 00:00:00+00' + ${p}::bigint * interval '1 microsecond')`;

export function historyRepo(sql: Sql) {
  /**
   * The series comes back as one JSON text of columns, built by the database: each value a row
   * would carry costs PGlite's result parser a few microseconds (a chart of every metric is
   * 35 000 of them), and a text crosses from PGlite's thread as one string (a parsed object would
   * be cloned value by value); JSON.parse reads it here in a millisecond or two.
   */
  async function mcuSeries(mcuId: number, metrics: readonly HistoryMetric[], plan: SeriesPlan): Promise<SeriesColumns> {
    const { values, p } = params();
    const source = rollupSource(columnsOf(metrics), `mcu_id = ${p(mcuId)}`, plan, plan.fromMs, plan.toMs, p);
    const keys = ["t", ...metrics.flatMap((m) => [`${m}_min`, `${m}_avg`, `${m}_max`, `${m}_n`])];
    const [row] = await sql.query<{ series: string }>(
      `select json_build_object(${keys.map((k) => `'${k}', coalesce(json_agg(${k} order by b), '[]')`).join(", ")})::text as series
       from (select b, ${epochMs("b")} as t, ${columnsOf(metrics)} from (${buckets(metrics, source, plan, p)}) g) g`,
      values,
    );
    return JSON.parse(row!.series) as SeriesColumns;
  }

  /** The CSV lines of the buckets in [fromMs, toMs): time, then min, avg, max and count per metric; "" when none. */
  async function mcuSeriesCsv(mcuId: number, metrics: readonly HistoryMetric[], plan: SeriesPlan, fromMs: number, toMs: number): Promise<string> {
    const { values, p } = params();
    const source = rollupSource(columnsOf(metrics), `mcu_id = ${p(mcuId)}`, plan, fromMs, toMs, p);
    // Rounded half up as csv.ts `num` rounds (a 4-byte float's exact text carries noise: 99.666664),
    // in floating point: a cast to numeric costs twice the whole query (measured on a year's export:
    // 1 000 buckets 11 ms with numeric, 6.6 ms so, 4.6 ms not rounded). The rounded value is
    // printed as a 4-byte float, the precision it was stored with.
    const scale = 10 ** READING_DECIMALS;
    const rounded = (col: string) => `coalesce((floor(${col}::float8 * ${scale} + 0.5) / ${scale})::real::text, '')`;
    const fields = metrics.flatMap((m) => [rounded(`${m}_min`), rounded(`${m}_avg`), rounded(`${m}_max`), `${m}_n::text`]);
    const [row] = await sql.query<{ csv: string | null }>(
      `select string_agg(concat_ws(',', ${csvTime("b")}, ${fields.join(", ")}) || E'\r\n', '' order by b) as csv
       from (${buckets(metrics, source, plan, p)}) g`,
      values,
    );
    return row?.csv ?? "";
  }

  /**
   * Each MCU's averages per bucket, one row per MCU with samples (arrays, for the same reason as
   * above). One query, but each MCU is aggregated on its own (a lateral subquery): a farm's week
   * is half a million minute rows, and grouping them all at once sorts them on disk (beyond
   * work_mem), while an MCU's 10 000 sort in memory.
   */
  async function farmSeries(mcuIds: readonly number[], metric: HistoryMetric, plan: SeriesPlan, fromMs = plan.fromMs, toMs = plan.toMs): Promise<FarmSeriesRow[]> {
    if (mcuIds.length === 0) return [];
    const { values, p } = params();
    const ids = p(mcuIds);
    const source = rollupSource(`${metric}_avg, ${metric}_n`, "mcu_id = m.id", plan, fromMs, toMs, p);
    const perBucket =
      plan.resolution === 60
        ? `select bucket as b, ${metric}_avg as avg, ${metric}_n as n from (${source}) s where ${metric}_n > 0`
        : `select b, (sum(${metric}_avg::float8 * ${metric}_n) / sum(${metric}_n))::real as avg, sum(${metric}_n)::int as n
           from (select date_bin(${p(plan.resolution)}::int * interval '1 second', bucket, ${EPOCH}) as b, ${metric}_avg, ${metric}_n from (${source}) s where ${metric}_n > 0) s
           group by b`;
    const rows = await sql.query<{ mcu_id: number; t: string; avg: string; n: string }>(
      `select m.id as mcu_id, x.t::text, x.avg::text, x.n::text from unnest(${ids}::int[]) as m(id) cross join lateral (
         select json_agg(${epochMs("b")} order by b) as t, json_agg(avg order by b) as avg, json_agg(n order by b) as n from (${perBucket}) g
       ) x where x.t is not null`,
      values,
    );
    return rows.map((r) => ({ mcu_id: r.mcu_id, t: JSON.parse(r.t) as number[], avg: JSON.parse(r.avg) as number[], n: JSON.parse(r.n) as number[] }));
  }

  /**
   * Changes in [fromMs, toMs) oldest first, at most `limit`, starting after `after`: the first
   * `skip` rows at `atMicros` were read already. Rows are ordered by every column, so rows that
   * share a time keep their order from one query to the next (identical rows are interchangeable).
   */
  async function events(mcuId: number, fromMs: number, toMs: number, limit: number, after?: { atMicros: string; skip: number }): Promise<StateEventRow[]> {
    const { values, p } = params();
    const start = after ? `at >= ${fromMicros(p(after.atMicros))}` : `at >= ${p(isoParam(fromMs))}::timestamptz`;
    const rows = await sql.query<StateEventDbRow>(
      `select ${STATE_EVENT_COLUMNS} from device_state_events
       where mcu_id = ${p(mcuId)} and ${start} and at < ${p(isoParam(toMs))}::timestamptz
       order by at, target, status, auto, session nulls first limit ${p(limit)} offset ${p(after?.skip ?? 0)}`,
      values,
    );
    return rows.map(stateEventOf);
  }

  /** The changes in [fromMs, toMs) as `events` reads them, at most `limit`, each with who made it and why (the timeline's; the CSV export has no use for it). */
  async function eventsWithCauses(mcuId: number, fromMs: number, toMs: number, limit: number): Promise<StateEventRow[]> {
    const rows = await sql.query<StateEventDbRow>(
      `select e.at, e.target, e.status, e.auto, e.session, (extract(epoch from e.at) * 1000000)::bigint::text as at_micros, c.*
       from device_state_events e ${CAUSE_JOIN}
       where e.mcu_id = $1 and e.at >= $2::timestamptz and e.at < $3::timestamptz
       order by e.at, e.target, e.status, e.auto, e.session nulls first limit $4`,
      [mcuId, isoParam(fromMs), isoParam(toMs), limit],
    );
    return rows.map(stateEventOf);
  }

  async function commandsPage(mcuId: number, f: CommandFilters, order: "asc" | "desc", limit: number, after?: CommandCursor): Promise<CommandRow[]> {
    const { values, p } = params();
    const where = [`mcu_id = ${p(mcuId)}`];
    if (f.fromMs !== undefined) where.push(`at >= ${p(isoParam(f.fromMs))}::timestamptz`);
    if (f.toMs !== undefined) where.push(`at < ${p(isoParam(f.toMs))}::timestamptz`);
    if (f.source) where.push(`source = ${p(f.source)}`);
    if (f.outcome) where.push(`outcome = ${p(f.outcome)}`);
    if (f.target) where.push(`target = ${p(f.target)}`);
    if (after) where.push(`(at, command_id) ${order === "desc" ? "<" : ">"} (${fromMicros(p(after.atMicros))}, ${p(after.commandId)})`);
    const rows = await sql.query<CommandDbRow>(
      `select command_id, mcu_id, source, actor, target, type, on_off, at, outcome, reason, answered_at, why,
         (extract(epoch from at) * 1000000)::bigint::text as at_micros
       from command_log where ${where.join(" and ")} order by at ${order}, command_id ${order} limit ${p(limit)}`,
      values,
    );
    return rows.map(commandOf);
  }

  return {
    /** The client's MCU, or undefined (another client's MCU is as absent as a missing one). */
    async mcu(clientId: number, mcuId: number): Promise<McuRef | undefined> {
      const [row] = await sql.query<McuRef>("select mcu_id, name, mac from mcus where client_id = $1 and mcu_id = $2", [clientId, mcuId]);
      return row;
    },

    /** The client's farm and its MCUs (by name), or undefined. */
    async farm(clientId: number, farmId: number): Promise<{ farm_id: number; name: string; mcus: McuRef[] } | undefined> {
      const [farm] = await sql.query<{ farm_id: number; name: string }>("select farm_id, name from farms where client_id = $1 and farm_id = $2", [clientId, farmId]);
      if (!farm) return undefined;
      const mcus = await sql.query<McuRef>("select mcu_id, name, mac from mcus where client_id = $1 and farm_id = $2 order by name, mcu_id", [clientId, farmId]);
      return { ...farm, mcus };
    },

    mcuSeries,

    /** The whole series as CSV lines, oldest first, SERIES_CHUNK_BUCKETS buckets per query: each query's work is bounded. */
    async *mcuSeriesCsvChunks(mcuId: number, metrics: readonly HistoryMetric[], plan: SeriesPlan, chunkBuckets = SERIES_CHUNK_BUCKETS): AsyncGenerator<string> {
      const step = plan.resolution * 1000 * chunkBuckets;
      for (let from = plan.fromMs; from < plan.toMs; from += step) {
        const csv = await mcuSeriesCsv(mcuId, metrics, plan, from, Math.min(from + step, plan.toMs));
        if (csv !== "") yield csv;
      }
    },

    farmSeries,

    /** A farm's series in windows of about FARM_CHUNK_CELLS cells (MCUs × buckets), oldest first. */
    async *farmSeriesChunks(mcuIds: readonly number[], metric: HistoryMetric, plan: SeriesPlan): AsyncGenerator<FarmSeriesRow[]> {
      if (mcuIds.length === 0) return;
      const step = plan.resolution * 1000 * Math.max(1, Math.floor(FARM_CHUNK_CELLS / mcuIds.length));
      for (let from = plan.fromMs; from < plan.toMs; from += step) {
        const rows = await farmSeries(mcuIds, metric, plan, from, Math.min(from + step, plan.toMs));
        if (rows.length > 0) yield rows;
      }
    },

    /** Each target's last change before `fromMs`: its state at the start of the range. */
    async initialStates(mcuId: number, fromMs: number): Promise<StateEventRow[]> {
      // One short backward index scan per target rather than DISTINCT ON over the MCU's whole past.
      const rows = await sql.query<StateEventDbRow>(
        `select e.* from unnest($2::text[]) as k(target) cross join lateral (
           select ${STATE_EVENT_COLUMNS} from device_state_events
           where mcu_id = $1 and target = k.target and at < $3::timestamptz order by at desc limit 1
         ) e order by e.at, e.target`,
        [mcuId, [...STATE_TARGETS], isoParam(fromMs)],
      );
      return rows.map(stateEventOf);
    },

    events,
    eventsWithCauses,

    /** Every change in [fromMs, toMs), oldest first, in chunks of ROWS_CHUNK. */
    async *eventChunks(mcuId: number, fromMs: number, toMs: number): AsyncGenerator<StateEventRow[]> {
      let after: { atMicros: string; skip: number } | undefined;
      for (;;) {
        const rows = await events(mcuId, fromMs, toMs, ROWS_CHUNK, after);
        if (rows.length > 0) yield rows;
        if (rows.length < ROWS_CHUNK) return;
        const last = rows[rows.length - 1]!.atMicros;
        const atLast = rows.filter((r) => r.atMicros === last).length;
        // A chunk whose rows all share the previous chunk's last time adds to what is skipped there.
        after = { atMicros: last, skip: after?.atMicros === last ? after.skip + atLast : atLast };
      }
    },

    /** A page of the command log, newest first, after the cursor. */
    commandsPage: (mcuId: number, f: CommandFilters, limit: number, before?: CommandCursor) => commandsPage(mcuId, f, "desc", limit, before),

    /** Every matching command, oldest first, in chunks of ROWS_CHUNK (keyset on (at, command_id)). */
    async *commandChunks(mcuId: number, f: CommandFilters): AsyncGenerator<CommandRow[]> {
      let after: CommandCursor | undefined;
      for (;;) {
        const rows = await commandsPage(mcuId, f, "asc", ROWS_CHUNK, after);
        if (rows.length > 0) yield rows;
        if (rows.length < ROWS_CHUNK) return;
        after = rows[rows.length - 1]!.cursor;
      }
    },
  };
}

export type HistoryRepo = ReturnType<typeof historyRepo>;
