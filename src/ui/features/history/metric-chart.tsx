import type { TFunction } from "i18next";
import { memo, useEffect, useId, useMemo, useSyncExternalStore } from "react";
import { Trans, useTranslation } from "react-i18next";
import type uPlot from "uplot";
import type { HistoryMetric } from "../../../contract/history-values.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { METRIC_COLORS, PROFILE_FILL, PROFILE_STROKE, withAlpha, type ChartLayout } from "./chart-layout.ts";
import { framesOf } from "./chart-frames.ts";
import { baseOptions, timeValue } from "./chart-options.ts";
import { chartColumns, summarize, type HistoryBuffer } from "./history-series.ts";
import { metricLabel } from "./history-words.ts";
import { limitsPlugin, limitsRange } from "./limits-plugin.ts";
import type { LiveValue } from "./live-value.ts";
import { formatMetric } from "./metric-format.ts";
import type { MetricLimits } from "./profile-limits.ts";
import { useUplot } from "../../components/use-uplot.ts";
import "./history-charts.css";
import type { XRange } from "./x-range.ts";
import { xRangePlugin } from "./x-range-plugin.ts";

interface MetricChartProps {
  metric: HistoryMetric;
  feed: LiveValue<HistoryBuffer>;
  limits: MetricLimits | null;
  range: XRange;
  syncKey: string;
  layout: ChartLayout;
  /** The range in words, for the summary read by screen readers. */
  rangeText: string;
}

function metricOptions(t: TFunction<"history">, { metric, limits, range, syncKey, layout }: Omit<MetricChartProps, "feed" | "rangeText">): uPlot.Options {
  const color = METRIC_COLORS[metric];
  const value = (_u: uPlot, v: number | null) => formatMetric(metric, v);
  const edge = { stroke: withAlpha(color, 0.45), width: 1, points: { show: false }, value };
  return {
    ...baseOptions(layout, syncKey),
    width: 0,
    scales: { y: { range: limitsRange(limits) } },
    series: [
      { label: t("chart.time"), value: timeValue },
      { ...edge, label: t("chart.low") },
      { ...edge, label: t("chart.high") },
      { label: t("chart.average"), stroke: color, width: layout.lineWidth, value },
    ],
    // The min–max spread of each bucket, shaded between the Low and High series.
    bands: [{ series: [2, 1], fill: withAlpha(color, 0.16) }],
    plugins: [xRangePlugin(range), ...(limits ? [limitsPlugin(limits, layout.lineWidth)] : [])],
  };
}

/**
 * One metric over the range (a figure): the average as a line, each bucket's min–max shaded
 * around it, the linked profile's limits behind them, and the latest, lowest and highest values
 * in words under it. New readings reach it through `feed`: the chart takes the new columns and
 * the words follow, without a request.
 *
 * Test hooks: `data-points` counts the buckets drawn, `data-latest-*` tell the newest bucket (its
 * start and samples: a reading folded in shows there), `data-limit-*` hold the limits drawn.
 */
export const MetricChart = memo(function MetricChart({ metric, feed, limits, range, syncKey, layout, rangeText }: MetricChartProps) {
  const { t } = useTranslation("history");
  useLocale();
  const titleId = useId();
  const summaryId = useId();
  const version = useSyncExternalStore(feed.subscribe, feed.version);
  const options = useMemo(() => metricOptions(t, { metric, limits, range, syncKey, layout }), [t, metric, limits, range, syncKey, layout]);
  const { hostRef, plotRef } = useUplot(options, () => chartColumns(feed.value, metric));

  useEffect(() => {
    // A reading changed the buffer: the chart takes its columns again in its next frame on screen.
    if (plotRef.current) framesOf(plotRef.current).data(() => chartColumns(feed.value, metric));
  }, [version, feed, metric, plotRef]);

  const summary = summarize(feed.value, metric);
  return (
    <figure
      aria-labelledby={titleId}
      aria-describedby={summaryId}
      data-metric={metric}
      data-points={summary.points}
      data-latest={summary.latest ?? undefined}
      data-latest-at={summary.latestAt ?? undefined}
      data-latest-samples={summary.latestSamples}
      data-limit-low={limits?.band?.low}
      data-limit-high={limits?.band?.high}
      data-limit-line={limits?.line ?? undefined}
      data-profile={limits?.fromProfile ? "linked" : "none"}
      data-plan-pieces={limits?.plan?.length ?? 0}
      className="card p-3 sm:p-4 4xl:p-6 min-w-0 flex flex-col gap-2 4xl:gap-3"
    >
      <figcaption className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 id={titleId} className="font-semibold text-gray-900 4xl:text-3xl">
          {metricLabel(t, metric)} <span className="font-normal text-gray-500">({t(`units.${metric}`)})</span>
        </h3>
        {limits && (
          <p className="flex items-center gap-1.5 text-xs 4xl:text-xl text-gray-700">
            <span
              aria-hidden="true"
              className="inline-block w-4 h-2.5 4xl:w-7 4xl:h-4 rounded-sm"
              style={limits.band ? { background: PROFILE_FILL, border: `1px dashed ${PROFILE_STROKE}` } : { borderTop: `2px dashed ${PROFILE_STROKE}` }}
            />
            {limits.text}
          </p>
        )}
      </figcaption>
      <div ref={hostRef} dir="ltr" className="history-chart min-w-0" aria-hidden="true" />
      <p id={summaryId} className="text-sm 4xl:text-2xl text-gray-700 tabular-nums">
        <Trans
          t={t}
          i18nKey="chart.summary"
          values={{ latest: formatMetric(metric, summary.latest), lowest: formatMetric(metric, summary.min), highest: formatMetric(metric, summary.max), range: rangeText }}
          components={{ strong: <strong className="font-semibold text-gray-900" />, sr: <span className="sr-only" /> }}
        />
      </p>
    </figure>
  );
});
