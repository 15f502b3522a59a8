import type { FarmHistory, HistoryMetric } from "../../../contract/history.ts";
import { bucketOf } from "./history-series.ts";

/**
 * A farm's comparison as its page holds it: every MCU's average per bucket on one time axis,
 * then the live readings of its MCUs folded in. The server gives each average with its sample
 * count, so a reading taken after the request weighs into the bucket it falls in (the current
 * one the server listed, or one opened here) as one more sample.
 */
export interface FarmBuffer {
  metric: HistoryMetric;
  resolution: number;
  t: number[];
  mcus: FarmLine[];
}

export interface FarmLine {
  mcuId: number;
  name: string;
  mac: string;
  avg: (number | null)[];
  /** Samples in each bucket: the server's, then one more per live reading folded in. */
  count: number[];
}

export function farmBufferOf(history: FarmHistory): FarmBuffer {
  return {
    metric: history.metric,
    resolution: history.resolution,
    t: [...history.t],
    mcus: history.mcus.map((m) => ({ mcuId: m.mcu_id, name: m.name, mac: m.mac, avg: [...m.avg], count: [...m.count] })),
  };
}

/** Folds a reading of MCU `mac` taken at `at` into the farm's buffer; answers whether it changed. */
export function addFarmReading(buffer: FarmBuffer, mac: string, at: number, value: number | undefined): boolean {
  if (value === undefined || !Number.isFinite(value)) return false;
  const line = buffer.mcus.find((m) => m.mac === mac);
  if (!line) return false;
  const bucket = bucketOf(at, buffer.resolution);
  const last = buffer.t.length - 1;
  let i: number;
  if (last < 0 || bucket > buffer.t[last]!) {
    buffer.t.push(bucket);
    for (const m of buffer.mcus) {
      m.avg.push(null);
      m.count.push(0);
    }
    i = last + 1;
  } else {
    // A reading older than the newest bucket (late, out of order) is left to the server's next answer.
    i = buffer.t.lastIndexOf(bucket);
    if (i < 0) return false;
  }
  const n = line.count[i]!;
  line.avg[i] = n === 0 || line.avg[i] === null ? value : (line.avg[i]! * n + value) / (n + 1);
  line.count[i] = n + 1;
  return true;
}

/** Drops the buckets that ended before `from`. */
export function dropFarmBefore(buffer: FarmBuffer, from: number): number {
  const width = buffer.resolution * 1000;
  let n = 0;
  while (n < buffer.t.length && buffer.t[n]! + width <= from) n++;
  if (n === 0) return 0;
  buffer.t.splice(0, n);
  for (const m of buffer.mcus) {
    m.avg.splice(0, n);
    m.count.splice(0, n);
  }
  return n;
}

/** The chart's columns: [x, one average column per MCU]; missing buckets break the lines. */
export function farmColumns(buffer: FarmBuffer): [number[], ...(number | null)[][]] {
  const gap = buffer.resolution * 1000 * 2;
  const x: number[] = [];
  const ys: (number | null)[][] = buffer.mcus.map(() => []);
  for (let i = 0; i < buffer.t.length; i++) {
    const t = buffer.t[i]!;
    const prev = x[x.length - 1];
    if (prev !== undefined && t - prev > gap) {
      x.push(prev + buffer.resolution * 1000);
      for (const y of ys) y.push(null);
    }
    x.push(t);
    buffer.mcus.forEach((m, j) => ys[j]!.push(m.avg[i] ?? null));
  }
  return [x, ...ys];
}

export interface FarmLineSummary {
  name: string;
  latest: number | null;
}

/** Each MCU's latest average, and the lowest and highest average of any MCU over the range. */
export function summarizeFarm(buffer: FarmBuffer): { lines: FarmLineSummary[]; min: number | null; max: number | null; points: number } {
  let min: number | null = null;
  let max: number | null = null;
  let points = 0;
  const lines = buffer.mcus.map((m) => {
    let latest: number | null = null;
    for (const v of m.avg) {
      if (v === null) continue;
      points++;
      latest = v;
      if (min === null || v < min) min = v;
      if (max === null || v > max) max = v;
    }
    return { name: m.name, latest };
  });
  return { lines, min, max, points };
}
