import type { LiveReading } from "../../../contract/entities.ts";
import type { McuHistory } from "../../../contract/history.ts";
import { HISTORY_METRICS, type HistoryMetric } from "../../../contract/history-values.ts";
import { readingValues as switchValuesOf } from "../../../contract/switch-reasons-values.ts";

/**
 * One MCU's history as the detail page holds it while it is open: the server's buckets, then the
 * live readings folded into the same buckets (the current one updated, a new one appended), so
 * the charts follow the stream without asking the server again.
 *
 * Mutable on purpose: a reading changes the last bucket of a few columns in place, and the charts
 * read the columns; copying 1 440 buckets x 6 metrics per reading would be the cost of the page.
 */
export interface HistoryBuffer {
  /** Seconds per bucket, as the server chose it. */
  resolution: number;
  /** Bucket starts (epoch ms), ascending. */
  t: number[];
  columns: Record<HistoryMetric, MetricColumns>;
  /** Bumped at every change: what a chart compares to know it must redraw. */
  version: number;
}

export interface MetricColumns {
  min: (number | null)[];
  avg: (number | null)[];
  max: (number | null)[];
  count: number[];
}

const emptyColumns = (n: number): MetricColumns => ({ min: Array(n).fill(null), avg: Array(n).fill(null), max: Array(n).fill(null), count: Array(n).fill(0) });

/** The buffer of a server answer; a metric the answer lacks has empty buckets. */
export function bufferOf(history: McuHistory): HistoryBuffer {
  const n = history.t.length;
  const columns = {} as Record<HistoryMetric, MetricColumns>;
  for (const metric of HISTORY_METRICS) {
    const s = history.series[metric];
    columns[metric] = s ? { min: [...s.min], avg: [...s.avg], max: [...s.max], count: [...s.count] } : emptyColumns(n);
  }
  return { resolution: history.resolution, t: [...history.t], columns, version: 0 };
}

/** The metric values of a live reading, named as the history names them. */
export function readingValues(r: LiveReading): Partial<Record<HistoryMetric, number>> {
  // The rules' values are the history's environment metrics; the battery is the history's own.
  const values: Partial<Record<HistoryMetric, number>> = switchValuesOf(r);
  if (r.batteryLevel !== undefined) values.battery = r.batteryLevel;
  return values;
}

/** The start of the bucket holding `at` (buckets are aligned on the epoch, like the server's). */
export const bucketOf = (at: number, resolution: number) => Math.floor(at / (resolution * 1000)) * resolution * 1000;

/** The index of `t` in the ascending `ts`, or -1. */
function indexOf(ts: readonly number[], t: number): number {
  let lo = 0;
  let hi = ts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = ts[mid]!;
    if (v === t) return mid;
    if (v < t) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Folds one reading taken at `at` into its bucket: min, max, count and a running average, as
 * the server's rollup does. A reading older than the last bucket goes into its bucket if that
 * one is listed, and is dropped otherwise (a chart does not insert into its past). Answers
 * whether anything changed.
 */
export function addReading(buffer: HistoryBuffer, at: number, values: Partial<Record<HistoryMetric, number>>): boolean {
  const metrics = (Object.keys(values) as HistoryMetric[]).filter((m) => Number.isFinite(values[m]));
  if (metrics.length === 0) return false;
  const bucket = bucketOf(at, buffer.resolution);
  const last = buffer.t.length - 1;
  let i: number;
  if (last < 0 || bucket > buffer.t[last]!) {
    buffer.t.push(bucket);
    for (const metric of HISTORY_METRICS) {
      const c = buffer.columns[metric];
      c.min.push(null);
      c.avg.push(null);
      c.max.push(null);
      c.count.push(0);
    }
    i = last + 1;
  } else {
    i = bucket === buffer.t[last] ? last : indexOf(buffer.t, bucket);
    if (i < 0) return false;
  }
  for (const metric of metrics) {
    const v = values[metric]!;
    const c = buffer.columns[metric];
    const n = c.count[i]!;
    const avg = c.avg[i];
    c.avg[i] = n > 0 && avg !== null && avg !== undefined ? (avg * n + v) / (n + 1) : v;
    c.min[i] = n > 0 && c.min[i] !== null ? Math.min(c.min[i]!, v) : v;
    c.max[i] = n > 0 && c.max[i] !== null ? Math.max(c.max[i]!, v) : v;
    c.count[i] = n + 1;
  }
  buffer.version++;
  return true;
}

/** Drops the buckets that ended before `from` (a sliding range moves on); answers how many went. */
export function dropBefore(buffer: HistoryBuffer, from: number): number {
  const width = buffer.resolution * 1000;
  let n = 0;
  while (n < buffer.t.length && buffer.t[n]! + width <= from) n++;
  if (n === 0) return 0;
  buffer.t.splice(0, n);
  for (const metric of HISTORY_METRICS) {
    const c = buffer.columns[metric];
    c.min.splice(0, n);
    c.avg.splice(0, n);
    c.max.splice(0, n);
    c.count.splice(0, n);
  }
  buffer.version++;
  return n;
}

/** The metrics with at least one sample in the buffer, in HISTORY_METRICS order. */
export function metricsWithData(buffer: HistoryBuffer): HistoryMetric[] {
  return HISTORY_METRICS.filter((m) => buffer.columns[m].count.some((n) => n > 0));
}

/** Buckets of a metric that hold a sample: the chart's points. */
export function pointCount(buffer: HistoryBuffer, metric: HistoryMetric): number {
  let n = 0;
  for (const c of buffer.columns[metric].count) if (c > 0) n++;
  return n;
}

/**
 * A metric's columns as uPlot draws them: [x, min, max, avg], x in ms. Buckets without a sample
 * of it are left out, and a null is put where buckets are missing (the device was off or out of
 * reach), so the line breaks there instead of drawing a straight line across the silence.
 */
export function chartColumns(buffer: HistoryBuffer, metric: HistoryMetric): [number[], (number | null)[], (number | null)[], (number | null)[]] {
  const c = buffer.columns[metric];
  const x: number[] = [];
  const min: (number | null)[] = [];
  const max: (number | null)[] = [];
  const avg: (number | null)[] = [];
  // Two empty buckets in a row make a gap; one may be a minute the server has not written yet.
  const gap = buffer.resolution * 1000 * 2;
  let prev: number | null = null;
  for (let i = 0; i < buffer.t.length; i++) {
    if (c.count[i] === 0 || c.avg[i] === null) continue;
    const t = buffer.t[i]!;
    if (prev !== null && t - prev > gap) {
      x.push(prev + buffer.resolution * 1000);
      min.push(null);
      max.push(null);
      avg.push(null);
    }
    x.push(t);
    min.push(c.min[i] ?? null);
    max.push(c.max[i] ?? null);
    avg.push(c.avg[i] ?? null);
    prev = t;
  }
  return [x, min, max, avg];
}

/** What a chart's text says of its metric over the range: the latest average, the lowest low and the highest high. */
export interface MetricSummary {
  latest: number | null;
  latestAt: number | null;
  /** Samples in the latest bucket: a reading folded into it counts there. */
  latestSamples: number;
  min: number | null;
  max: number | null;
  points: number;
}

export function summarize(buffer: HistoryBuffer, metric: HistoryMetric): MetricSummary {
  const c = buffer.columns[metric];
  let latest: number | null = null;
  let latestAt: number | null = null;
  let latestSamples = 0;
  let min: number | null = null;
  let max: number | null = null;
  let points = 0;
  for (let i = 0; i < buffer.t.length; i++) {
    if (c.count[i] === 0) continue;
    points++;
    const lo = c.min[i] ?? c.avg[i];
    const hi = c.max[i] ?? c.avg[i];
    if (lo !== null && lo !== undefined && (min === null || lo < min)) min = lo;
    if (hi !== null && hi !== undefined && (max === null || hi > max)) max = hi;
    if (c.avg[i] !== null && c.avg[i] !== undefined) {
      latest = c.avg[i]!;
      latestAt = buffer.t[i]!;
      latestSamples = c.count[i]!;
    }
  }
  return { latest, latestAt, latestSamples, min, max, points };
}
