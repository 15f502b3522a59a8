import { useRef } from "react";
import { useAppData } from "../../data/provider.tsx";
import { createLiveValue, type LiveValue } from "./live-value.ts";
import { resolveRange, type RangeChoice } from "./time-range.ts";
import { addLiveStates, lanesOf, type Lanes } from "./timeline.ts";
import { useLiveReadings } from "./use-live-readings.ts";
import { useLoad, type Load } from "./use-load.ts";

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The controllers' states over the chosen range: fetched once, then extended from the live
 * stream while the range reaches now (a reading whose controller states differ from the last
 * ones known adds a change).
 */
export function useMcuTimeline(mcuId: number, mac: string | undefined, choice: RangeChoice, rangeKey: string): { state: Load<LiveValue<Lanes>>; retry: () => void } {
  const { core } = useAppData();
  const asked = useRef({ at: 0, end: 0, live: false });
  const { state, retry } = useLoad(async () => {
    const now = Date.now();
    const range = resolveRange(choice, now);
    const timeline = await core.mcuTimeline(mcuId, { from: iso(range.from), to: iso(range.to) });
    asked.current = { at: now, end: range.sliding ? Number.POSITIVE_INFINITY : range.to, live: range.live };
    return createLiveValue(lanesOf(timeline));
  }, `${mcuId}|${rangeKey}`);

  const feed = state.status === "ready" ? state.value : null;
  useLiveReadings(mac, feed !== null && asked.current.live, (reading, at) => {
    const { at: askedAt, end } = asked.current;
    if (!feed || at < askedAt || at >= end) return;
    if (addLiveStates(feed.value, at, reading)) feed.changed();
  });
  return { state, retry };
}
