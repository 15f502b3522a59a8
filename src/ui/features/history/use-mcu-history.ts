import { useRef } from "react";
import { useAppData } from "../../data/provider.tsx";
import { addReading, bufferOf, dropBefore, readingValues, type HistoryBuffer } from "./history-series.ts";
import { createLiveValue, type LiveValue } from "./live-value.ts";
import { resolveRange, type RangeChoice } from "./time-range.ts";
import { useLiveReadings } from "./use-live-readings.ts";
import { useLoad, type Load } from "./use-load.ts";

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * An MCU's readings over the chosen range: fetched once, then kept current from the live stream
 * while the range reaches now (a reading updates its bucket or opens the next one; a sliding
 * range lets its oldest buckets go). Readings stamped before the request's end are in the answer
 * already and are not counted twice.
 */
export function useMcuHistory(mcuId: number, mac: string | undefined, choice: RangeChoice, rangeKey: string): { state: Load<LiveValue<HistoryBuffer>>; retry: () => void } {
  const { core } = useAppData();
  const asked = useRef({ at: 0, end: 0, live: false, sliding: false, span: 0 });
  const { state, retry } = useLoad(async () => {
    const now = Date.now();
    const range = resolveRange(choice, now);
    const history = await core.mcuHistory(mcuId, { from: iso(range.from), to: iso(range.to) });
    // A preset has no end; a custom range that ends ahead takes readings until its end.
    asked.current = { at: now, end: range.sliding ? Number.POSITIVE_INFINITY : range.to, live: range.live, sliding: range.sliding, span: range.to - range.from };
    return createLiveValue(bufferOf(history));
  }, `${mcuId}|${rangeKey}`);

  const feed = state.status === "ready" ? state.value : null;
  useLiveReadings(mac, feed !== null && asked.current.live, (reading, at) => {
    const { at: askedAt, end, sliding, span } = asked.current;
    if (!feed || at < askedAt || at >= end) return;
    let changed = addReading(feed.value, at, readingValues(reading));
    if (sliding) changed = dropBefore(feed.value, Math.max(Date.now(), at) - span) > 0 || changed;
    if (changed) feed.changed();
  });
  return { state, retry };
}
