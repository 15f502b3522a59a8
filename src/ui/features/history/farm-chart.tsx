import type { TFunction } from "i18next";
import { useEffect, useId, useMemo, useSyncExternalStore } from "react";
import { Trans, useTranslation } from "react-i18next";
import type uPlot from "uplot";
import type { HistoryMetric } from "../../../contract/history-values.ts";
import { formatFixed } from "../../i18n/format.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { SERIES_PALETTE, type ChartLayout } from "./chart-layout.ts";
import { framesOf } from "./chart-frames.ts";
import { baseOptions, timeValue } from "./chart-options.ts";
import { farmColumns, summarizeFarm, type FarmBuffer } from "./farm-series.ts";
import { metricLabel } from "./history-words.ts";
import { limitsRange } from "./limits-plugin.ts";
import type { LiveValue } from "./live-value.ts";
import { formatMetric } from "./metric-format.ts";
import { useUplot } from "../../components/use-uplot.ts";
import "./history-charts.css";
import type { XRange } from "./x-range.ts";
import { xRangePlugin } from "./x-range-plugin.ts";

/** A farm's chart is the page's one chart: taller than an MCU's. */
const FARM_HEIGHT_FACTOR = 1.6;

function farmOptions(t: TFunction<"history">, lines: readonly { name: string }[], metric: HistoryMetric, range: XRange, syncKey: string, layout: ChartLayout): uPlot.Options {
  const value = (_u: uPlot, v: number | null) => formatMetric(metric, v);
  return {
    ...baseOptions(layout, syncKey),
    width: 0,
    height: Math.round(layout.height * FARM_HEIGHT_FACTOR),
    scales: { y: { range: limitsRange(null) } },
    series: [
      { label: t("chart.time"), value: timeValue },
      // A colour per MCU; past the palette the colours come again, dashed.
      ...lines.map((m, i) => ({
        label: m.name,
        stroke: SERIES_PALETTE[i % SERIES_PALETTE.length],
        dash: i >= SERIES_PALETTE.length ? [6, 4] : undefined,
        width: layout.lineWidth,
        value,
      })),
    ],
    plugins: [xRangePlugin(range)],
  };
}

/** The farm's MCUs on one metric, a line each, with a legend of their names (scrollable when long) and the spread in words. */
export function FarmChart({ feed, range, syncKey, layout, rangeText }: { feed: LiveValue<FarmBuffer>; range: XRange; syncKey: string; layout: ChartLayout; rangeText: string }) {
  const { t } = useTranslation("history");
  useLocale();
  const titleId = useId();
  const summaryId = useId();
  const version = useSyncExternalStore(feed.subscribe, feed.version);
  const { metric, mcus } = feed.value;
  const options = useMemo(() => farmOptions(t, mcus, metric, range, syncKey, layout), [t, mcus, metric, range, syncKey, layout]);
  const { hostRef, plotRef } = useUplot(options, () => farmColumns(feed.value));

  useEffect(() => {
    if (plotRef.current) framesOf(plotRef.current).data(() => farmColumns(feed.value));
  }, [version, feed, plotRef]);

  const summary = summarizeFarm(feed.value);
  const reporting = summary.lines.filter((l) => l.latest !== null);
  const sorted = [...reporting].sort((a, b) => a.latest! - b.latest!);
  const lowest = sorted[0];
  const highest = sorted[sorted.length - 1];
  return (
    <figure aria-labelledby={titleId} aria-describedby={summaryId} data-metric={metric} data-series={mcus.length} data-points={summary.points} className="card p-3 sm:p-4 4xl:p-6 min-w-0 flex flex-col gap-2 4xl:gap-3">
      <figcaption>
        <h3 id={titleId} className="font-semibold text-gray-900 4xl:text-3xl">
          <Trans t={t} i18nKey="farmChart.title" values={{ metric: metricLabel(t, metric), unit: t(`units.${metric}`) }} components={{ unit: <span className="font-normal text-gray-500" /> }} />
        </h3>
      </figcaption>
      <div ref={hostRef} dir="ltr" className={`history-chart min-w-0 ${mcus.length > 6 ? "many-series" : ""}`} aria-hidden="true" />
      <p id={summaryId} className="text-sm 4xl:text-2xl text-gray-700">
        {reporting.length === 0 ? (
          t("farmChart.noneReported")
        ) : (
          <>
            {t("farmChart.reported", {
              count: mcus.length,
              reporting: formatFixed(reporting.length, 0),
              range: rangeText,
              min: formatMetric(metric, summary.min),
              max: formatMetric(metric, summary.max),
            })}
            {lowest && highest && lowest !== highest && (
              <>
                {" "}
                {t("farmChart.latest", { highest: highest.name, highestValue: formatMetric(metric, highest.latest), lowest: lowest.name, lowestValue: formatMetric(metric, lowest.latest) })}
              </>
            )}
          </>
        )}
      </p>
    </figure>
  );
}
