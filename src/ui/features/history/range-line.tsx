import { useSyncExternalStore } from "react";
import { formatDateTime } from "../../components/dates.ts";
import { describeRange, rangeTitle, type RangeChoice } from "./time-range.ts";
import type { Span, XRange } from "./x-range.ts";

let timeOnly: Intl.DateTimeFormat | undefined;
const formatTime = (ms: number) => (timeOnly ??= new Intl.DateTimeFormat(undefined, { timeStyle: "short" })).format(ms);

/** A zoomed span in words: its end without the date when both ends fall on one day. */
export function spanText([from, to]: Span): string {
  const sameDay = new Date(from).toDateString() === new Date(to).toDateString();
  return `${formatDateTime(from)} – ${sameDay ? formatTime(to) : formatDateTime(to)}`;
}

/**
 * The line under a readings heading: the range picked, and whether the charts follow the live
 * readings; while zoomed, the part zoomed to instead, which stays put as readings come, so it
 * says that it does not follow them.
 */
export function RangeLine({ choice, range, live }: { choice: RangeChoice; range: XRange; live: boolean }) {
  // The zoom's span keeps its object until the zoom changes (a slide of the range does not re-render this).
  const zoom = useSyncExternalStore(range.subscribe, () => (range.zoomed() ? range.view() : null));
  if (zoom)
    return (
      <p className="text-sm 4xl:text-xl text-gray-600">
        Zoomed to {spanText(zoom)} of {describeRange(choice, formatDateTime)}
        {live && <span className="ml-2 text-gray-700">· not following live readings (Reset zoom to follow them)</span>}
      </p>
    );
  return (
    <p className="text-sm 4xl:text-xl text-gray-600">
      {rangeTitle(choice, formatDateTime)}
      {live && (
        <span className="ml-2 inline-flex items-center gap-1 text-brand-800">
          <span aria-hidden="true" className="w-2 h-2 rounded-full bg-brand-600 animate-pulse" />following live readings
        </span>
      )}
    </p>
  );
}
