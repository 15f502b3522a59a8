import { useMemo, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import type { ProfileConfig } from "../../../contract/entities.ts";
import type { Batch } from "../../../contract/grow.ts";
import type { HistoryMetric } from "../../../contract/history.ts";
import { EmptyState, LoadError } from "../../components/states.tsx";
import { useLocale } from "../../i18n/i18n.ts";
import { useChartLayout } from "./chart-layout.ts";
import { metricsWithData, type HistoryBuffer } from "./history-series.ts";
import type { LiveValue } from "./live-value.ts";
import { MetricChart } from "./metric-chart.tsx";
import { limitsWithPlan } from "./plan-limits.ts";
import { limitsFor, type MetricLimits } from "./profile-limits.ts";
import type { Load } from "./use-load.ts";
import type { XRange } from "./x-range.ts";

/** Charts side by side: one per row on a phone and a small laptop, two from 1280 px, three on a wall. */
export const CHART_GRID = "grid gap-4 4xl:gap-6 xl:grid-cols-2 4xl:grid-cols-3";

/** The charts' place while the history loads: grey boxes of their size, and the words for screen readers. */
export function ChartSkeletons({ count, label }: { count: number; label: string }) {
  return (
    <div role="status" aria-live="polite">
      <span className="sr-only">{label}</span>
      <div className={CHART_GRID} aria-hidden="true">
        {Array.from({ length: count }, (_, i) => (
          <div key={i} className="card p-4 4xl:p-6 flex flex-col gap-3">
            <div className="h-5 4xl:h-8 w-40 4xl:w-72 rounded bg-gray-200 animate-pulse" />
            <div className="h-[190px] sm:h-[230px] 4xl:h-[380px] rounded-lg bg-gray-100 animate-pulse" />
            <div className="h-4 4xl:h-7 w-56 4xl:w-96 rounded bg-gray-200 animate-pulse" />
          </div>
        ))}
      </div>
    </div>
  );
}

/** The metrics that have data: known again at each reading, compared by value so the list stays the same object. */
function useMetricsWithData(feed: LiveValue<HistoryBuffer>): readonly HistoryMetric[] {
  const key = useSyncExternalStore(feed.subscribe, () => metricsWithData(feed.value).join(","));
  return useMemo(() => (key ? (key.split(",") as HistoryMetric[]) : []), [key]);
}

interface HistoryChartsProps {
  load: Load<LiveValue<HistoryBuffer>>;
  retry: () => void;
  profile: ProfileConfig | null;
  /** The batches the MCU was in: their plans' limits are drawn where they ran. */
  batches?: readonly Batch[];
  range: XRange;
  syncKey: string;
  rangeText: string;
  /** The range reaches now: an empty one fills as readings come. */
  live: boolean;
}

/** The MCU's charts, one per metric that has data, in their loading, empty and error states. */
export function HistoryCharts({ load, retry, ...rest }: HistoryChartsProps) {
  const { t } = useTranslation("history");
  if (load.status === "loading") return <ChartSkeletons count={4} label={t("charts.loading")} />;
  if (load.status === "error") return <LoadError text={t("charts.failed", { reason: load.message })} onRetry={retry} />;
  return <ChartGrid feed={load.value} {...rest} />;
}

const NO_BATCHES: readonly Batch[] = [];

function ChartGrid({ feed, profile, batches = NO_BATCHES, range, syncKey, rangeText, live }: Omit<HistoryChartsProps, "load" | "retry"> & { feed: LiveValue<HistoryBuffer> }) {
  const { t } = useTranslation("history");
  const { tag } = useLocale();
  const layout = useChartLayout();
  const metrics = useMetricsWithData(feed);
  // One limits object per metric, profile, batch list and language, so a chart keeps its options (and its canvas) across renders.
  const limitsOf = useMemo(() => {
    const made = new Map<HistoryMetric, MetricLimits | null>();
    const now = Date.now();
    return (m: HistoryMetric) => {
      if (!made.has(m)) made.set(m, limitsWithPlan(t, m, limitsFor(t, m, profile), batches, now));
      return made.get(m)!;
    };
    // The limits' words are in the person's digits: another choice of digits words them again.
  }, [t, tag, profile, batches]);
  if (metrics.length === 0) {
    return (
      <EmptyState title={t("charts.empty")}>
        <p>{live ? t("charts.emptyLive") : t("charts.emptyPast")}</p>
      </EmptyState>
    );
  }
  return (
    <div className={CHART_GRID}>
      {metrics.map((metric) => (
        <MetricChart key={metric} metric={metric} feed={feed} limits={limitsOf(metric)} range={range} syncKey={syncKey} layout={layout} rangeText={rangeText} />
      ))}
    </div>
  );
}
