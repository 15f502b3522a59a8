import { useRef } from "react";
import type { HistoryMetric } from "../../../contract/history.ts";
import { useAppData } from "../../data/provider.tsx";
import { addFarmReading, dropFarmBefore, farmBufferOf, type FarmBuffer } from "./farm-series.ts";
import { readingValues } from "./history-series.ts";
import { createLiveValue, type LiveValue } from "./live-value.ts";
import { resolveRange, type RangeChoice } from "./time-range.ts";
import { useLiveReadingsOf } from "./use-live-readings.ts";
import { useLoad, type Load } from "./use-load.ts";

/**
 * Beyond this many MCUs the comparison does not follow the live stream: every one of them would
 * become "of interest" and cross from the worker at every reading, for a line a pixel wide.
 */
export const FARM_LIVE_MAX_MCUS = 60;

const iso = (ms: number) => new Date(ms).toISOString();
const NO_MACS: readonly string[] = [];

/** Every MCU of a farm on one metric over the range, kept current from the live stream while it reaches now. */
export function useFarmHistory(farmId: number, metric: HistoryMetric, choice: RangeChoice, rangeKey: string): { state: Load<LiveValue<FarmBuffer>>; retry: () => void } {
  const { core } = useAppData();
  const asked = useRef({ at: 0, end: 0, live: false, sliding: false, span: 0 });
  const { state, retry } = useLoad(async () => {
    const now = Date.now();
    const range = resolveRange(choice, now);
    const history = await core.farmHistory(farmId, { metric, from: iso(range.from), to: iso(range.to) });
    asked.current = { at: now, end: range.sliding ? Number.POSITIVE_INFINITY : range.to, live: range.live, sliding: range.sliding, span: range.to - range.from };
    return createLiveValue(farmBufferOf(history));
  }, `${farmId}|${metric}|${rangeKey}`);

  const feed = state.status === "ready" ? state.value : null;
  const macs = useRef<{ feed: unknown; list: readonly string[] }>({ feed: null, list: NO_MACS });
  if (macs.current.feed !== feed) macs.current = { feed, list: feed ? feed.value.mcus.map((m) => m.mac) : NO_MACS };
  const follow = feed !== null && asked.current.live && macs.current.list.length <= FARM_LIVE_MAX_MCUS;
  useLiveReadingsOf(macs.current.list, follow, (mac, reading, at) => {
    const { at: askedAt, end, sliding, span } = asked.current;
    if (!feed || at < askedAt || at >= end) return;
    let changed = addFarmReading(feed.value, mac, at, readingValues(reading)[metric]);
    if (sliding) changed = dropFarmBefore(feed.value, Math.max(Date.now(), at) - span) > 0 || changed;
    if (changed) feed.changed();
  });
  return { state, retry };
}
