import type { TFunction } from "i18next";
import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "../../i18n/i18n.ts";
import { formatMoment, formatTimeOfDay } from "./history-words.ts";
import { describeRange, rangeTitle, type RangeChoice } from "./time-range.ts";
import type { Span, XRange } from "./x-range.ts";

/** A zoomed span in words: its end without the date when both ends fall on one day. */
export function spanText(t: TFunction<"history">, [from, to]: Span): string {
  const sameDay = new Date(from).toDateString() === new Date(to).toDateString();
  return t("range.span", { from: formatMoment(from), to: sameDay ? formatTimeOfDay(to) : formatMoment(to) });
}

/**
 * The line under a readings heading: the range picked, and whether the charts follow the live
 * readings; while zoomed, the part zoomed to instead, which stays put as readings come, so it
 * says that it does not follow them.
 */
export function RangeLine({ choice, range, live }: { choice: RangeChoice; range: XRange; live: boolean }) {
  const { t } = useTranslation("history");
  useLocale();
  // The zoom's span keeps its object until the zoom changes (a slide of the range does not re-render this).
  const zoom = useSyncExternalStore(range.subscribe, () => (range.zoomed() ? range.view() : null));
  if (zoom)
    return (
      <p className="text-sm 4xl:text-xl text-gray-600">
        {t("range.zoomedTo", { span: spanText(t, zoom), range: describeRange(t, choice, formatMoment) })}
        {live && <span className="ms-2 text-gray-700">{t("range.notFollowing")}</span>}
      </p>
    );
  return (
    <p className="text-sm 4xl:text-xl text-gray-600">
      {rangeTitle(t, choice, formatMoment)}
      {live && (
        <span className="ms-2 inline-flex items-center gap-1 text-brand-800">
          <span aria-hidden="true" className="w-2 h-2 rounded-full bg-brand-600 animate-pulse" />
          {t("range.following")}
        </span>
      )}
    </p>
  );
}
