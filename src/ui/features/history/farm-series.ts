import type { FarmHistory, HistoryMetric } from "../../../contract/history.ts";
import { bucketOf } from "./history-series.ts";

/**
 * A farm's comparison as its page holds it: every MCU's average per bucket on one time axis,
 * then the live readings of its MCUs folded in. The server gives averages without their sample
 * counts, so a bucket it listed is kept as it is; the buckets opened after it (the current one,
 * the next ones) average the readings seen here.
 */
export interface FarmBuffer {
  metric: HistoryMetric;
  resolution: number;
  t: number[];
  mcus: FarmLine[];
  /** Buckets from this index on were opened here from live readings. */
  liveFrom: number;
}

export interface FarmLine {
  mcuId: number;
  name: string;
  mac: string;
  avg: (number | null)[];
  /** Live readings folded into each bucket opened here (0 for the server's buckets). */
  count: number[];
}

export function farmBufferOf(history: FarmHistory): FarmBuffer {
  return {
    metric: history.metric,
    resolution: history.resolution,
    t: [...history.t],
    mcus: history.mcus.map((m) => ({ mcuId: m.mcu_id, name: m.name, mac: m.mac, avg: [...m.avg], count: m.avg.map(() => 0) })),
    liveFrom: history.t.length,
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
    i = buffer.t.lastIndexOf(bucket);
    if (i < buffer.liveFrom) return false;
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
  buffer.liveFrom = Math.max(0, buffer.liveFrom - n);
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
