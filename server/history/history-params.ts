import {
  COMMAND_OUTCOMES,
  COMMAND_SOURCES,
  HISTORY_METRICS,
  HOURLY_ENOUGH_POINTS,
  MAX_POINTS,
  MAX_POINTS_GIVEN,
  MAX_SPAN_MS,
  RESOLUTIONS,
  STATE_TARGETS,
  type CommandOutcome,
  type HistoryMetric,
  type Resolution,
  type StateTarget,
} from "../../src/contract/history.ts";
import type { ErrorParams, ErrorReason } from "../../src/contract/error-reasons.ts";
import { refusal } from "../errors.ts";

/**
 * The query strings of the history API, checked and turned into what the repository takes. Every
 * problem is a 400 VALIDATION whose message says what to send instead: these parameters are typed
 * by hand into export links and scripts as often as the app sends them.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** A 400 saying what to send instead, with the reason (and its values) the app translates. */
const invalid = (reason: ErrorReason, message: string, params?: ErrorParams) => refusal("VALIDATION", reason, message, params);

/** "kind must be one of a, b, c": a parameter that takes one of a few words. */
export const notOneOf = (field: string, choices: readonly (string | number)[]) =>
  invalid("not_one_of", `${field} must be one of ${choices.join(", ")}`, { field, choices: choices.join(", ") });

/** A page cursor that is not one this server gave (`field` is its parameter, `from` the answer's field it comes from). */
export const badCursor = (field: string, from: string) => invalid("bad_cursor", `${field} must be the ${from} of a previous page`, { field, from });

/** 1234567 -> "1,234,567". */
const count = (n: number) => n.toLocaleString("en-US");

/** An instant's example in messages: what `from` and `to` look like. */
const INSTANT_HINT = "an ISO 8601 date and time with a time zone, like 2026-11-25T06:00:00Z";

/**
 * The query as single string values: a parameter this endpoint does not take, or one given twice,
 * is refused (as an unknown body field is), rather than silently ignored.
 */
export function queryOf(raw: unknown, allowed: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (raw === null || typeof raw !== "object") return out;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!allowed.includes(key)) throw invalid("unknown_parameter", `Unknown query parameter: ${key}`, { name: key });
    if (typeof value !== "string") throw invalid("parameter_repeated", `${key} must be given once`, { name: key });
    out[key] = value;
  }
  return out;
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2}):?(\d{2}))$/;

/**
 * An ISO 8601 instant, epoch ms. The zone is required: a bare local time means a different instant
 * on the server than in the farmer's browser. A space where the offset's sign belongs is a `+`
 * that an unencoded URL turned into a space (`?from=2026-11-25T08:00:00+02:00`).
 */
export function parseInstant(name: string, value: string | undefined): number {
  if (value === undefined) throw invalid("instant_required", `${name} is required: ${INSTANT_HINT}`, { field: name });
  const m = INSTANT.exec(value);
  const bad = invalid("invalid_instant", `${name} must be ${INSTANT_HINT}`, { field: name });
  if (!m) throw bad;
  const [year, month, day, hour, minute, second = 0] = m.slice(1, 7).map((s) => (s === undefined ? undefined : Number(s))) as number[];
  const ms = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
  const offsetH = m[8] ? 0 : Number(m[10]);
  const offsetM = m[8] ? 0 : Number(m[11]);
  if (month! < 1 || month! > 12 || hour! > 23 || minute! > 59 || second > 59 || offsetH > 23 || offsetM > 59) throw bad;
  // Not Date.UTC: it reads years 0 to 99 as 1900 to 1999, and 0050 is year 50.
  const at = new Date(0);
  at.setUTCFullYear(year!, month! - 1, day!);
  at.setUTCHours(hour!, minute!, second, ms);
  // The date rolls 30 February over into March: the day must survive the round trip.
  if (day! < 1 || at.getUTCDate() !== day) throw bad;
  const sign = m[9] === "-" ? -1 : 1;
  return at.getTime() - sign * (offsetH * 60 + offsetM) * 60_000;
}

/**
 * The instants a history range may start and end at, both included. Every instant reaches the
 * database as `toISOString()` text, which writes a year after 9999 as `+010000` (PostgreSQL
 * refuses it); and every bucket end too, so the last bucket must end by the last instant as well.
 * Nothing is stored before 1970 (rows are written at the server's clock), the buckets are aligned
 * on 1970-01-01, and below year 100 PGlite reads the timestamps it answers as 1900 to 1999: a
 * range before 1970 can only be a typo, and is refused rather than answered empty.
 */
export const HISTORY_INSTANTS = { firstMs: Date.parse("1970-01-01T00:00:00.000Z"), lastMs: Date.parse("9999-12-31T23:59:59.999Z") } as const;

/** An instant as the messages write it: ISO 8601 UTC, without zero milliseconds. */
const instantText = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

const FIRST_INSTANT = instantText(HISTORY_INSTANTS.firstMs);
const LAST_INSTANT = instantText(HISTORY_INSTANTS.lastMs);
const BOUNDS_HINT = `between ${FIRST_INSTANT} and ${LAST_INSTANT}`;

/** `parseInstant`, within HISTORY_INSTANTS. */
function parseRangeInstant(name: string, value: string | undefined): number {
  const ms = parseInstant(name, value);
  if (ms < HISTORY_INSTANTS.firstMs || ms > HISTORY_INSTANTS.lastMs) throw invalid("instant_out_of_bounds", `${name} must be ${BOUNDS_HINT}`, { field: name, first: FIRST_INSTANT, last: LAST_INSTANT });
  return ms;
}

export interface Range {
  fromMs: number;
  toMs: number;
}

/** `from` and `to`, both required and within HISTORY_INSTANTS, `from` first, at most MAX_SPAN_MS apart. */
export function parseRange(q: Record<string, string>): Range {
  const fromMs = parseRangeInstant("from", q.from);
  const toMs = parseRangeInstant("to", q.to);
  if (fromMs >= toMs) throw invalid("from_after_to", "from must be before to");
  if (toMs - fromMs > MAX_SPAN_MS) throw invalid("range_too_long", `The range is too long: at most ${MAX_SPAN_MS / DAY_MS} days`, { max: MAX_SPAN_MS / DAY_MS });
  return { fromMs, toMs };
}

/** `from` and `to` where both are optional filters within HISTORY_INSTANTS; when both are given, `from` comes first. */
export function parseOptionalRange(q: Record<string, string>): Partial<Range> {
  const fromMs = q.from === undefined ? undefined : parseRangeInstant("from", q.from);
  const toMs = q.to === undefined ? undefined : parseRangeInstant("to", q.to);
  if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs) throw invalid("from_after_to", "from must be before to");
  return { fromMs, toMs };
}

function metricOf(name: string): HistoryMetric {
  if (!(HISTORY_METRICS as readonly string[]).includes(name)) throw invalid("unknown_metric", `Unknown metric: ${name}`, { metric: name });
  return name as HistoryMetric;
}

/** `metrics=a,b`: the metrics asked for, in the contract's order; all of them when absent. */
export function parseMetrics(value: string | undefined): HistoryMetric[] {
  if (value === undefined) return [...HISTORY_METRICS];
  const names = value.split(",").map((s) => s.trim());
  if (names.every((n) => n === "")) throw invalid("metrics_empty", `metrics must name at least one metric: ${HISTORY_METRICS.join(", ")}`, { choices: HISTORY_METRICS.join(", ") });
  const asked = new Set(names.filter((n) => n !== "").map(metricOf));
  return HISTORY_METRICS.filter((m) => asked.has(m));
}

/** `metric=a`: exactly one metric, required (the farm comparison). */
export function parseMetric(value: string | undefined): HistoryMetric {
  if (value === undefined || value.trim() === "") throw invalid("metric_required", `metric is required: one of ${HISTORY_METRICS.join(", ")}`, { choices: HISTORY_METRICS.join(", ") });
  return metricOf(value.trim());
}

/**
 * `tz`: the IANA time zone of a CSV's local-time column (the app sends the browser's), or
 * undefined (no such column).
 */
export function parseTimeZone(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    if (value.length <= 64 && /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    // An unknown zone: the same answer as a malformed one.
  }
  throw invalid("invalid_time_zone", "tz must be an IANA time zone such as Asia/Beirut or UTC");
}

export function parseResolution(value: string | undefined): Resolution | undefined {
  if (value === undefined) return undefined;
  const r = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (!(RESOLUTIONS as readonly number[]).includes(r)) throw invalid("invalid_resolution", `resolution must be one of ${RESOLUTIONS.join(", ")} (seconds)`, { choices: RESOLUTIONS.join(", ") });
  return r as Resolution;
}

/**
 * How a range is read. Buckets are aligned on the epoch (as `date_bin` aligns them: days start at
 * 00:00 UTC) and the range is widened to whole buckets, so the first and last bucket are complete
 * and every minute or hourly rollup falls in exactly one bucket.
 */
export interface SeriesPlan {
  resolution: Resolution;
  /** The first bucket's start, epoch ms. */
  fromMs: number;
  /** The end of the last bucket, epoch ms. */
  toMs: number;
  /**
   * Hourly rollups are read before this instant and minute rollups from it on (resolutions of an
   * hour and up); undefined: minute rollups only. The history writer rebuilds the hours it wrote
   * to every few minutes: the current hour's row is partial and the last complete hour's may lack
   * its last minutes for a while, so these two hours always come from the minute rollups.
   */
  hoursBeforeMs?: number;
}

/** Buckets of `resolution` seconds that the range [fromMs, toMs) touches. */
export function bucketCount(fromMs: number, toMs: number, resolution: number): number {
  const step = resolution * 1000;
  return Math.ceil(toMs / step) - Math.floor(fromMs / step);
}

export interface PlanOptions {
  /** The resolution the request named, if any. */
  given?: Resolution;
  now: number;
  /** Minute rollups are kept this many days; a range reaching further back is read from hourly rollups. */
  minuteRetentionDays: number;
  /** JSON answers cap the points per series (MAX_POINTS when the server chooses, MAX_POINTS_GIVEN when the request does); CSV does not. */
  capped: boolean;
}

/**
 * The resolution and the rollups a range is read from. Chosen by the server: the smallest
 * resolution whose buckets stay within MAX_POINTS, counted on the aligned grid (as
 * `resolutionFor`, but a range that starts mid-bucket counts its partial first bucket, so it may
 * be one step coarser), or an hour when that still gives HOURLY_ENOUGH_POINTS. Beyond minute retention, an hour at least, whatever was asked: the minutes
 * are gone, or about to be.
 */
export function planSeries({ fromMs, toMs }: Range, { given, now, minuteRetentionDays, capped }: PlanOptions): SeriesPlan {
  const beyondMinutes = fromMs < now - minuteRetentionDays * DAY_MS;
  let resolution: Resolution;
  if (given !== undefined) resolution = given;
  else if (capped) {
    resolution = RESOLUTIONS.find((r) => bucketCount(fromMs, toMs, r) <= MAX_POINTS) ?? RESOLUTIONS[RESOLUTIONS.length - 1]!;
    if (resolution < 3600 && bucketCount(fromMs, toMs, 3600) >= HOURLY_ENOUGH_POINTS) resolution = 3600;
  } else resolution = 60;
  if (beyondMinutes && resolution < 3600) resolution = 3600;
  const points = bucketCount(fromMs, toMs, resolution);
  if (capped && given !== undefined && points > MAX_POINTS_GIVEN) {
    throw invalid("too_many_points", `With resolution ${resolution} that range has ${count(points)} points; at most ${count(MAX_POINTS_GIVEN)}`, { resolution, points, max: MAX_POINTS_GIVEN });
  }
  const step = resolution * 1000;
  const plan: SeriesPlan = { resolution, fromMs: Math.floor(fromMs / step) * step, toMs: Math.ceil(toMs / step) * step };
  // The first bucket cannot start before HISTORY_INSTANTS.firstMs: every resolution divides a day,
  // and that is the start of a day. The last one's end is `to` rounded up, and may pass lastMs.
  if (plan.toMs > HISTORY_INSTANTS.lastMs) {
    const latest = Math.floor(HISTORY_INSTANTS.lastMs / step) * step;
    throw invalid("range_past_end", `With resolution ${resolution} the last bucket would end after ${LAST_INSTANT}: to may be ${instantText(latest)} at the latest`, { resolution, last: LAST_INSTANT, latest: instantText(latest) });
  }
  if (resolution >= 3600) plan.hoursBeforeMs = Math.floor(now / HOUR_MS) * HOUR_MS - HOUR_MS;
  return plan;
}

export function parseSource(value: string | undefined): (typeof COMMAND_SOURCES)[number] | undefined {
  if (value === undefined) return undefined;
  if (!(COMMAND_SOURCES as readonly string[]).includes(value)) throw invalid("not_one_of", `source must be ${COMMAND_SOURCES.join(" or ")}`, { field: "source", choices: COMMAND_SOURCES.join(", ") });
  return value as (typeof COMMAND_SOURCES)[number];
}

export function parseOutcome(value: string | undefined): CommandOutcome | undefined {
  if (value === undefined) return undefined;
  if (!(COMMAND_OUTCOMES as readonly string[]).includes(value)) throw notOneOf("outcome", COMMAND_OUTCOMES);
  return value as CommandOutcome;
}

export function parseTarget(value: string | undefined): StateTarget | undefined {
  if (value === undefined) return undefined;
  if (!(STATE_TARGETS as readonly string[]).includes(value)) throw notOneOf("target", STATE_TARGETS);
  return value as StateTarget;
}

export const COMMANDS_PAGE = { default: 100, max: 500 } as const;

export function parseLimit(value: string | undefined): number {
  if (value === undefined) return COMMANDS_PAGE.default;
  const n = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= COMMANDS_PAGE.max)) throw invalid("out_of_range", `limit must be a whole number from 1 to ${COMMANDS_PAGE.max}`, { min: 1, max: COMMANDS_PAGE.max });
  return n;
}

/**
 * Where a page of the command log ends: its last entry's time (in microseconds, the database's
 * precision, so entries in the same millisecond are neither skipped nor repeated) and id.
 * Opaque to the app: it only passes `next_before` back as `before`.
 */
export interface CommandCursor {
  atMicros: string;
  commandId: string;
}

export function encodeCursor(c: CommandCursor): string {
  return Buffer.from(JSON.stringify([c.atMicros, c.commandId])).toString("base64url");
}

/** `field` and `from`: the parameter and the answer's field it comes from (the alarm list pages with the same kind of cursor, `cursor` from `next`). */
export function parseCursor(value: string | undefined, field = "before", from = "next_before"): CommandCursor | undefined {
  if (value === undefined) return undefined;
  const bad = badCursor(field, from);
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(value)) throw bad;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    throw bad;
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw bad;
  const [atMicros, commandId] = decoded as unknown[];
  if (typeof atMicros !== "string" || !/^-?\d{1,18}$/.test(atMicros) || typeof commandId !== "string" || commandId.length === 0 || commandId.length > 200) throw bad;
  return { atMicros, commandId };
}
