import { HISTORY_METRICS, type HistoryMetric } from "../../src/contract/history.ts";
import type { LiveReading } from "../../src/contract/entities.ts";

/**
 * Minute rollups folded from the live stream, in memory. This runs for every reading of every
 * device (10 000 a second per node is the target), so a reading costs a map lookup and a few
 * comparisons and additions into its MCU's accumulator, which is reused minute after minute:
 * nothing is allocated per reading. Only a finished minute becomes a row (one small object per MCU
 * and minute), handed to the writer.
 */

export const MINUTE_MS = 60_000;

/** Slots per metric in an accumulator: min, sum, max, sample count. */
const SLOTS = 4;
const MIN = 0;
const SUM = 1;
const MAX = 2;
const N = 3;
export const METRIC_SLOTS = HISTORY_METRICS.length * SLOTS;

/** Where each metric sits in an accumulator's values (HISTORY_METRICS' order). */
const AT = Object.fromEntries(HISTORY_METRICS.map((m, i) => [m, i * SLOTS])) as Record<HistoryMetric, number>;
const TEMPERATURE = AT.temperature;
const HUMIDITY = AT.humidity;
const SOIL_TEMPERATURE = AT.soil_temperature;
const CO2 = AT.co2;
const SOIL_MOISTURE = AT.soil_moisture;
const BATTERY = AT.battery;

/**
 * One MCU's minute as it is folded: per metric min, sum, max and count (sum, not average, so that
 * two parts of a minute merge exactly). Count 0 means the metric had no sample; then the other
 * slots mean nothing.
 */
export interface MinuteRow {
  mcuId: number;
  /** Start of the minute, epoch ms (UTC). */
  bucket: number;
  values: Float64Array;
}

/** Folds one value into a metric's slots; NaN and ±Infinity (a JSON 1e999) are not samples. */
function fold(v: Float64Array, i: number, x: number): void {
  if (x - x !== 0) return;
  if (v[i + N] === 0) {
    v[i + MIN] = x;
    v[i + SUM] = x;
    v[i + MAX] = x;
    v[i + N] = 1;
    return;
  }
  if (x < v[i + MIN]!) v[i + MIN] = x;
  if (x > v[i + MAX]!) v[i + MAX] = x;
  v[i + SUM]! += x;
  v[i + N]!++;
}

/** Folds a reading's metrics into `v`: what `MinuteRollups.put` does for one MCU's current minute. */
export function foldReading(v: Float64Array, reading: Pick<LiveReading, "DHT" | "SOIL_TEMP" | "CO2" | "MOISTURE" | "batteryLevel">): void {
  const dht = reading.DHT;
  if (dht !== undefined) {
    fold(v, TEMPERATURE, dht.temperature);
    fold(v, HUMIDITY, dht.humidity);
  }
  const soilTemp = reading.SOIL_TEMP;
  if (soilTemp !== undefined) fold(v, SOIL_TEMPERATURE, soilTemp.soil_temperature);
  const co2 = reading.CO2;
  if (co2 !== undefined) fold(v, CO2, co2.co2);
  const moisture = reading.MOISTURE;
  if (moisture !== undefined) fold(v, SOIL_MOISTURE, moisture.soil_moisture);
  const battery = reading.batteryLevel;
  if (battery !== undefined) fold(v, BATTERY, battery);
}

/** Folds `b` into `a` (both min/sum/max/count): the same merge the database does on a conflict. */
export function mergeValues(a: Float64Array, b: Float64Array): void {
  for (let i = 0; i < METRIC_SLOTS; i += SLOTS) {
    const nb = b[i + N]!;
    if (nb === 0) continue;
    if (a[i + N] === 0) {
      a[i + MIN] = b[i + MIN]!;
      a[i + SUM] = b[i + SUM]!;
      a[i + MAX] = b[i + MAX]!;
      a[i + N] = nb;
      continue;
    }
    if (b[i + MIN]! < a[i + MIN]!) a[i + MIN] = b[i + MIN]!;
    if (b[i + MAX]! > a[i + MAX]!) a[i + MAX] = b[i + MAX]!;
    a[i + SUM]! += b[i + SUM]!;
    a[i + N]! += nb;
  }
}

/** Whether any metric holds a sample. */
export function hasSamples(v: Float64Array): boolean {
  for (let i = N; i < METRIC_SLOTS; i += SLOTS) if (v[i] !== 0) return true;
  return false;
}

/** A metric of a row as it is stored: min, avg, max (null without samples) and count. */
export function metricOf(v: Float64Array, metric: HistoryMetric): { min: number | null; avg: number | null; max: number | null; n: number } {
  const i = AT[metric];
  const n = v[i + N]!;
  if (n === 0) return { min: null, avg: null, max: null, n: 0 };
  return { min: v[i + MIN]!, avg: v[i + SUM]! / n, max: v[i + MAX]!, n };
}

/** An MCU's current minute, reused for every minute it reports. */
interface Accumulator {
  /** Start of the minute being folded (epoch ms), or -1 before the first reading. */
  minute: number;
  values: Float64Array;
}

/**
 * Every MCU's current minute. A reading belongs to the minute of its arrival at the server (`at`);
 * when an MCU's minute changes, the finished one moves to `finished`, and `harvest` moves the
 * minutes of MCUs that went quiet. A minute that shows up again later (a node's partial minute
 * written at shutdown, another node folding readings of the same MCU and minute, the clock
 * stepping back) is simply another row for that minute: the database merges the two.
 */
export class MinuteRollups {
  private readonly byMcu = new Map<number, Accumulator>();
  private finished: MinuteRow[] = [];

  /** The hot path: folds a reading into its MCU's minute. */
  put(mcuId: number, reading: LiveReading, atMs: number): void {
    let acc = this.byMcu.get(mcuId);
    if (acc === undefined) {
      acc = { minute: -1, values: new Float64Array(METRIC_SLOTS) };
      this.byMcu.set(mcuId, acc);
    }
    const minute = atMs - (atMs % MINUTE_MS);
    if (minute !== acc.minute) {
      this.close(mcuId, acc);
      acc.minute = minute;
    }
    foldReading(acc.values, reading);
  }

  /** Moves an MCU's minute (if it holds samples) to the finished rows and empties its accumulator. */
  private close(mcuId: number, acc: Accumulator): void {
    if (acc.minute >= 0 && hasSamples(acc.values)) this.finished.push({ mcuId, bucket: acc.minute, values: acc.values.slice() });
    acc.values.fill(0);
  }

  /**
   * Moves every minute that ended by `nowMs` to the finished rows (with `all`, the current ones
   * too: shutdown, tests). An MCU quiet for `forgetAfterMs` is forgotten (a deleted MCU, a device
   * switched off); it gets a new accumulator when it reports again.
   */
  harvest(nowMs: number, { all = false, forgetAfterMs = 3600_000 } = {}): void {
    const current = nowMs - (nowMs % MINUTE_MS);
    for (const [mcuId, acc] of this.byMcu) {
      if (all || acc.minute < current) {
        this.close(mcuId, acc);
        if (acc.minute < current - forgetAfterMs) this.byMcu.delete(mcuId);
        else if (all) acc.minute = -1;
      }
    }
  }

  /** Takes the finished rows (the caller writes them). */
  take(): MinuteRow[] {
    const rows = this.finished;
    this.finished = [];
    return rows;
  }

  /** MCUs with an accumulator (tests, metrics). */
  get size(): number {
    return this.byMcu.size;
  }
}

/**
 * Merges rows of the same MCU and minute into one: one INSERT ... ON CONFLICT DO UPDATE may not
 * touch a row twice. Rows arrive in time order, so this is rare (a retried flush, a clock step).
 */
export function mergeDuplicates(rows: MinuteRow[]): MinuteRow[] {
  const seen = new Map<string, MinuteRow>();
  let merged = false;
  for (const row of rows) {
    const key = `${row.mcuId}:${row.bucket}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, row);
    else {
      mergeValues(first.values, row.values);
      merged = true;
    }
  }
  return merged ? [...seen.values()] : rows;
}
