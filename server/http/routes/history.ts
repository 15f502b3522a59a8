import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import {
  HISTORY_PATHS,
  type CommandLog,
  type FarmHistory,
  type HistoryMetric,
  type McuHistory,
  type MetricSeries,
  type StateEvent,
  type StateTimeline,
} from "../../../src/contract/history.ts";
import { iso } from "../../db/rows.ts";
import { notFound, refusal } from "../../errors.ts";
import { attachment, bool, CSV_CONTENT_TYPE, csvStream, line, linesOf, localTimeIn, num, READING_DECIMALS, text, time, withLocalTimes } from "../../history/csv.ts";
import {
  encodeCursor,
  parseCursor,
  parseLimit,
  parseMetric,
  parseMetrics,
  parseOptionalRange,
  parseOutcome,
  parseRange,
  parseResolution,
  parseSource,
  parseTarget,
  parseTimeZone,
  planSeries,
  queryOf,
  type Range,
  type SeriesPlan,
} from "../../history/history-params.ts";
import { createExportGate, DEFAULT_EXPORT_LIMITS, type ExportLimits } from "../../history/export-gate.ts";
import { reasonText } from "../../../src/contract/switch-reasons.ts";
import { historyRepo, type CommandFilters, type CommandRow, type FarmSeriesRow, type McuRef, type SeriesColumns, type StateEventRow } from "../../history/history-repo.ts";
import { needs } from "../farm-access.ts";
import { idParam } from "../validate.ts";

const SEE_MCU = needs("see", (req) => ({ mcu: idParam((req.params as { mcu_id: string }).mcu_id, "MCU") }));
const SEE_FARM = needs("see", (req) => ({ farm: idParam((req.params as { farm_id: string }).farm_id, "Farm") }));

export interface HistoryRouteOptions {
  /** Minute rollups are kept this many days; older ranges are answered from hourly rollups. */
  minuteRetentionDays: number;
  /** CSV exports streaming at once, per client and on this node (default DEFAULT_EXPORT_LIMITS). */
  exports?: Partial<ExportLimits>;
}

/**
 * The most state changes one timeline answer lists. A range with more is refused with a 400
 * asking for a shorter one, rather than cut short: a timeline that stops partway would show a
 * controller in a state it left long ago. (The CSV export lists them all.)
 */
export const TIMELINE_MAX_EVENTS = 20_000;

const SERIES_PARAMS = ["from", "to", "metrics", "resolution"] as const;
const FARM_PARAMS = ["from", "to", "metric", "resolution"] as const;
const RANGE_PARAMS = ["from", "to"] as const;
const COMMAND_FILTER_PARAMS = ["from", "to", "source", "outcome", "target"] as const;

type McuParams = { Params: { mcu_id: string } };
type FarmParams = { Params: { farm_id: string } };

const eventOf = ({ atMicros: _, ...e }: StateEventRow): StateEvent => e;

function seriesOf(columns: SeriesColumns, m: HistoryMetric): MetricSeries {
  return { min: columns[`${m}_min`]!, avg: columns[`${m}_avg`]!, max: columns[`${m}_max`]!, count: columns[`${m}_n`] as number[] };
}

/** Header names per MCU: its name, with the MAC added where two MCUs of the farm share a name. */
function mcuColumns(mcus: McuRef[]): string[] {
  const seen = new Map<string, number>();
  for (const m of mcus) seen.set(m.name, (seen.get(m.name) ?? 0) + 1);
  return mcus.map((m) => (seen.get(m.name)! > 1 ? `${m.name} (${m.mac})` : m.name));
}

/**
 * A farm's per-MCU averages on one time axis: the buckets in which any MCU has a sample, and per
 * MCU (in `mcus` order) its average there or null, and its sample count there (0 where none).
 */
function farmGrid(rows: FarmSeriesRow[], mcus: McuRef[]): { t: number[]; columns: (number | null)[][]; counts: number[][] } {
  const all = new Set<number>();
  for (const r of rows) for (const t of r.t) all.add(t);
  const t = [...all].sort((x, y) => x - y);
  const index = new Map(t.map((x, i) => [x, i]));
  const byMcu = new Map(rows.map((r) => [r.mcu_id, r]));
  const counts: number[][] = [];
  const columns = mcus.map((m) => {
    const column = new Array<number | null>(t.length).fill(null);
    const count = new Array<number>(t.length).fill(0);
    const r = byMcu.get(m.mcu_id);
    if (r)
      for (let i = 0; i < r.t.length; i++) {
        const at = index.get(r.t[i]!)!;
        column[at] = r.avg[i]!;
        count[at] = r.n[i]!;
      }
    counts.push(count);
    return column;
  });
  return { t, columns, counts };
}

/** A local-time writer, or none. */
type LocalTime = ((ms: number) => string) | undefined;

/** The time fields of a CSV line: UTC, and local time when the export asked for a time zone. */
const times = (ms: number, local: LocalTime): string[] => (local ? [time(ms), local(ms)] : [time(ms)]);
const timeHeader = (local: LocalTime): string[] => (local ? ["time", "local_time"] : ["time"]);

/** A farm's series as CSV lines: time, then each MCU's average. */
async function* farmCsv(chunks: AsyncIterable<FarmSeriesRow[]>, mcus: McuRef[], local: LocalTime): AsyncGenerator<string> {
  for await (const rows of chunks) {
    const { t, columns } = farmGrid(rows, mcus);
    let out = "";
    for (let i = 0; i < t.length; i++) out += line([...times(t[i]!, local), ...columns.map((c) => num(c[i], READING_DECIMALS))]);
    yield out;
  }
}

async function* withLocal(chunks: AsyncIterable<string>, local: LocalTime): AsyncGenerator<string> {
  for await (const csv of chunks) yield local ? withLocalTimes(csv, local) : csv;
}

async function* prepend<T>(first: T[], rest: AsyncIterable<T[]>): AsyncGenerator<T[]> {
  if (first.length > 0) yield first;
  yield* rest;
}

const stateLine = (local: LocalTime) => (e: StateEventRow) => line([...times(Date.parse(e.at), local), e.target, bool(e.status), bool(e.auto), bool(e.session)]);

/** `reason`: the device's refusal or why no answer came for a command, the reason sentence (switch-reasons.ts) for the automation's switch. */
const commandLine = (local: LocalTime) => (c: CommandRow) =>
  line([...times(Date.parse(c.at), local), c.source, text(c.actor), c.target, c.type, bool(c.on_off), c.outcome, text(c.reason ?? automationReason(c)), c.answered_at ? time(Date.parse(c.answered_at)) : "", text(c.command_id)]);

const automationReason = (c: CommandRow): string | null =>
  c.source === "automation" ? reasonText({ target: c.target, on: c.on_off, source: c.source, actor: c.actor, why: c.why }) : null;

/** The local-time writer a CSV request asks for with `tz`. */
const localOf = (q: Record<string, string>): LocalTime => {
  const tz = parseTimeZone(q.tz);
  return tz === undefined ? undefined : localTimeIn(tz);
};

/** Reading history of an MCU and of a farm, device timelines and the command log, as JSON and as CSV. */
export const historyRoutes: FastifyPluginAsync<HistoryRouteOptions> = async (app, options) => {
  const repo = app.repos.history;
  // Exports read their chunks behind every other query of this node, so that one client's
  // exports never hold up another client's sign-in or farm list.
  const bulk = app.repos.bulkHistory;
  const exportGate = createExportGate({ ...DEFAULT_EXPORT_LIMITS, ...options.exports });

  /** The account the request acts in (a member's: the farm's) and the id in the path (400 for a malformed id). */
  function request(req: FastifyRequest, id: string | undefined, what: "MCU" | "Farm") {
    return { clientId: req.acting.tenant, id: idParam(id, what) };
  }

  /** The client's own MCU: another client's answers 404, as a missing one does. */
  async function ownMcu(clientId: number, mcuId: number): Promise<McuRef> {
    const mcu = await repo.mcu(clientId, mcuId);
    if (!mcu) throw notFound("MCU");
    return mcu;
  }

  const plan = (range: Range, resolution: string | undefined, capped: boolean): SeriesPlan =>
    planSeries(range, { given: parseResolution(resolution), now: app.now().getTime(), minuteRetentionDays: options.minuteRetentionDays, capped });

  /** Streams an export once it has a slot (a 429 otherwise); `body` reads nothing before the slot is taken. */
  function sendCsv(reply: FastifyReply, clientId: number, disposition: string, body: NodeJS.ReadableStream) {
    exportGate.enter(clientId, reply);
    reply.header("content-type", CSV_CONTENT_TYPE);
    reply.header("content-disposition", disposition);
    reply.header("cache-control", "no-store");
    return reply.send(body);
  }

  // ---- one MCU's readings ----

  async function mcuSeriesRequest(req: FastifyRequest<McuParams>, capped: boolean) {
    const { clientId, id } = request(req, req.params.mcu_id, "MCU");
    // Charts are capped; exports are not, and may add a local-time column.
    const q = queryOf(req.query, capped ? SERIES_PARAMS : [...SERIES_PARAMS, "tz"]);
    const range = parseRange(q);
    const metrics = parseMetrics(q.metrics);
    const series = plan(range, q.resolution, capped);
    const local = localOf(q);
    return { clientId, mcu: await ownMcu(clientId, id), range, metrics, series, local };
  }

  app.get<McuParams>(HISTORY_PATHS.mcuHistory.pattern, SEE_MCU, async (req): Promise<McuHistory> => {
    const { mcu, range, metrics, series } = await mcuSeriesRequest(req, true);
    const columns = await repo.mcuSeries(mcu.mcu_id, metrics, series);
    return {
      mcu_id: mcu.mcu_id,
      from: iso(new Date(range.fromMs)),
      to: iso(new Date(range.toMs)),
      resolution: series.resolution,
      t: columns.t,
      series: Object.fromEntries(metrics.map((m) => [m, seriesOf(columns, m)])),
    };
  });

  /**
   * Columns: time (each bucket's start, UTC), local_time with `tz`, then min, avg, max and count of
   * each metric (two decimals). No point cap: 60 s buckets by default.
   */
  app.get<McuParams>(HISTORY_PATHS.mcuHistoryCsv.pattern, SEE_MCU, async (req, reply) => {
    const { clientId, mcu, range, metrics, series, local } = await mcuSeriesRequest(req, false);
    const header = [...timeHeader(local), ...metrics.flatMap((m) => [`${m}_min`, `${m}_avg`, `${m}_max`, `${m}_count`])];
    const body = withLocal(bulk.mcuSeriesCsvChunks(mcu.mcu_id, metrics, series), local);
    return sendCsv(reply, clientId, attachment(mcu.name, "history", range.fromMs, range.toMs), csvStream(header, body));
  });

  // ---- a farm's MCUs on one metric ----

  async function farmSeriesRequest(req: FastifyRequest<FarmParams>, capped: boolean) {
    const { clientId, id } = request(req, req.params.farm_id, "Farm");
    const q = queryOf(req.query, capped ? FARM_PARAMS : [...FARM_PARAMS, "tz"]);
    const metric = parseMetric(q.metric);
    const range = parseRange(q);
    const series = plan(range, q.resolution, capped);
    const local = localOf(q);
    const farm = await repo.farm(clientId, id);
    if (!farm) throw notFound("Farm");
    return { clientId, farm, range, metric, series, local };
  }

  app.get<FarmParams>(HISTORY_PATHS.farmHistory.pattern, SEE_FARM, async (req): Promise<FarmHistory> => {
    const { farm, range, metric, series } = await farmSeriesRequest(req, true);
    const ids = farm.mcus.map((m) => m.mcu_id);
    const { t, columns, counts } = farmGrid(await repo.farmSeries(ids, metric, series), farm.mcus);
    return {
      farm_id: farm.farm_id,
      metric,
      from: iso(new Date(range.fromMs)),
      to: iso(new Date(range.toMs)),
      resolution: series.resolution,
      t,
      mcus: farm.mcus.map((m, i) => ({ mcu_id: m.mcu_id, name: m.name, mac: m.mac, avg: columns[i]!, count: counts[i]! })),
    };
  });

  /** Columns: time (UTC), local_time with `tz`, then each MCU's average (headed by its name). */
  app.get<FarmParams>(HISTORY_PATHS.farmHistoryCsv.pattern, SEE_FARM, async (req, reply) => {
    const { clientId, farm, range, metric, series, local } = await farmSeriesRequest(req, false);
    const ids = farm.mcus.map((m) => m.mcu_id);
    const header = [...timeHeader(local), ...mcuColumns(farm.mcus).map(text)];
    return sendCsv(reply, clientId, attachment(farm.name, metric, range.fromMs, range.toMs), csvStream(header, farmCsv(bulk.farmSeriesChunks(ids, metric, series), farm.mcus, local)));
  });

  // ---- device state timeline ----

  async function timelineRequest(req: FastifyRequest<McuParams>, csv: boolean) {
    const { clientId, id } = request(req, req.params.mcu_id, "MCU");
    const q = queryOf(req.query, csv ? [...RANGE_PARAMS, "tz"] : RANGE_PARAMS);
    const range = parseRange(q);
    const local = localOf(q);
    return { clientId, mcu: await ownMcu(clientId, id), range, local };
  }

  app.get<McuParams>(HISTORY_PATHS.timeline.pattern, SEE_MCU, async (req): Promise<StateTimeline> => {
    const { mcu, range } = await timelineRequest(req, false);
    const initial = await repo.initialStates(mcu.mcu_id, range.fromMs);
    const events = await repo.eventsWithCauses(mcu.mcu_id, range.fromMs, range.toMs, TIMELINE_MAX_EVENTS + 1);
    if (events.length > TIMELINE_MAX_EVENTS) {
      throw refusal("VALIDATION", "range_too_busy", `That range has more than ${TIMELINE_MAX_EVENTS.toLocaleString("en-US")} state changes; choose a shorter range`, { max: TIMELINE_MAX_EVENTS });
    }
    return { mcu_id: mcu.mcu_id, from: iso(new Date(range.fromMs)), to: iso(new Date(range.toMs)), initial: initial.map(eventOf), events: events.map(eventOf) };
  });

  /** Each controller's state at `from` (its last change before it, with that change's time), then every change in the range. */
  app.get<McuParams>(HISTORY_PATHS.timelineCsv.pattern, SEE_MCU, async (req, reply) => {
    const { clientId, mcu, range, local } = await timelineRequest(req, true);
    const initial = await repo.initialStates(mcu.mcu_id, range.fromMs);
    const rows = prepend(initial, bulk.eventChunks(mcu.mcu_id, range.fromMs, range.toMs));
    const header = [...timeHeader(local), "target", "status", "auto", "session"];
    return sendCsv(reply, clientId, attachment(mcu.name, "timeline", range.fromMs, range.toMs), csvStream(header, linesOf(rows, stateLine(local))));
  });

  // ---- command log ----

  function commandFilters(q: Record<string, string>): CommandFilters {
    return { ...parseOptionalRange(q), source: parseSource(q.source), outcome: parseOutcome(q.outcome), target: parseTarget(q.target) };
  }

  app.get<McuParams>(HISTORY_PATHS.commands.pattern, SEE_MCU, async (req): Promise<CommandLog> => {
    const { clientId, id } = request(req, req.params.mcu_id, "MCU");
    const q = queryOf(req.query, [...COMMAND_FILTER_PARAMS, "limit", "before"]);
    const filters = commandFilters(q);
    const limit = parseLimit(q.limit);
    const before = parseCursor(q.before);
    const mcu = await ownMcu(clientId, id);
    const rows = await repo.commandsPage(mcu.mcu_id, filters, limit + 1, before);
    const page = rows.slice(0, limit);
    return {
      mcu_id: mcu.mcu_id,
      entries: page.map(({ cursor: _, ...entry }) => entry),
      next_before: rows.length > limit ? encodeCursor(page[page.length - 1]!.cursor) : null,
    };
  });

  /** Every matching command, oldest first, no paging. */
  app.get<McuParams>(HISTORY_PATHS.commandsCsv.pattern, SEE_MCU, async (req, reply) => {
    const { clientId, id } = request(req, req.params.mcu_id, "MCU");
    const q = queryOf(req.query, [...COMMAND_FILTER_PARAMS, "tz"]);
    const filters = commandFilters(q);
    const local = localOf(q);
    const mcu = await ownMcu(clientId, id);
    const header = [...timeHeader(local), "source", "actor", "target", "type", "value", "outcome", "reason", "answered_at", "command_id"];
    return sendCsv(reply, clientId, attachment(mcu.name, "commands", filters.fromMs, filters.toMs), csvStream(header, linesOf(bulk.commandChunks(mcu.mcu_id, filters), commandLine(local))));
  });
};
