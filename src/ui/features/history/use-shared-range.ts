import { useEffect, useMemo } from "react";
import { resolveRange, type RangeChoice } from "./time-range.ts";
import { useLiveReadings } from "./use-live-readings.ts";
import { createXRange, type XRange } from "./x-range.ts";

/** A zoom narrower than this shows too few buckets to read. */
const MIN_ZOOM_MS = 5 * 60_000;
/** How often a range that ends now moves on when no reading comes (an MCU gone quiet shows its silence). */
const SLIDE_EVERY_MS = 15_000;

/**
 * The page's shared time span for `choice`: a new one for each range picked. A preset's span
 * slides with the clock, at each reading of the MCU `mac` and every few seconds between them.
 */
export function useSharedRange(choice: RangeChoice, rangeKey: string, mac: string | undefined): XRange {
  // rangeKey names the choice: a new span only when another range is picked.
  const range = useMemo(() => {
    const r = resolveRange(choice, Date.now());
    return createXRange([r.from, r.to], MIN_ZOOM_MS);
  }, [rangeKey]);
  const sliding = choice.kind === "preset";

  useEffect(() => {
    if (!sliding) return;
    const span = range.full()[1] - range.full()[0];
    const slide = () => {
      const now = Date.now();
      range.setFull([now - span, now]);
    };
    const timer = setInterval(slide, SLIDE_EVERY_MS);
    return () => clearInterval(timer);
  }, [range, sliding]);

  useLiveReadings(mac, sliding, (_reading, at) => {
    const [from, to] = range.full();
    // The server's clock may run a little ahead of this one: the newest point stays in view.
    const end = Math.max(Date.now(), at);
    if (end > to) range.setFull([end - (to - from), end]);
  });

  return range;
}
