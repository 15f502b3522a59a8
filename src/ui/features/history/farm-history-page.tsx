import { useCallback, useEffect, useId, useMemo } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router-dom";
import { HISTORY_METRICS, HISTORY_PATHS, type HistoryMetric } from "../../../contract/history-values.ts";
import { mcuHistoryPath } from "../../components/history-link.tsx";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { useCollection } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { useLocale } from "../../i18n/i18n.ts";
import { useChartLayout } from "./chart-layout.ts";
import { csvUrl } from "./csv-links.ts";
import { ExportLink } from "./export-link.tsx";
import { FarmChart } from "./farm-chart.tsx";
import { ChartSkeletons } from "./history-charts.tsx";
import { formatMoment, metricLabel } from "./history-words.ts";
import { RangeLine } from "./range-line.tsx";
import { RangePicker } from "./range-picker.tsx";
import { describeRange, rangeFromParams, rangeToParams, resolveRange, type RangeChoice } from "./time-range.ts";
import { FARM_LIVE_MAX_MCUS, useFarmHistory } from "./use-farm-history.ts";
import { useHeldWhileLoading } from "./use-held-while-loading.ts";
import { useLoad } from "./use-load.ts";
import { useSharedRange } from "./use-shared-range.ts";
import { ZoomControls } from "./zoom-controls.tsx";

const iso = (ms: number) => new Date(ms).toISOString();
const DEFAULT_METRIC: HistoryMetric = "temperature";

/** The metric and the range in the page's address, so a reload or a shared link shows the same. */
function useFarmParams(): { metric: HistoryMetric; choice: RangeChoice; set: (next: { metric?: HistoryMetric; choice?: RangeChoice }) => void } {
  const [params, setParams] = useSearchParams();
  const metricParam = params.get("metric");
  const metric = (HISTORY_METRICS as readonly string[]).includes(metricParam ?? "") ? (metricParam as HistoryMetric) : DEFAULT_METRIC;
  const choice = useMemo(() => rangeFromParams(params), [params]);
  const set = useCallback(
    (next: { metric?: HistoryMetric; choice?: RangeChoice }) => setParams({ metric: next.metric ?? metric, ...rangeToParams(next.choice ?? choice) }, { replace: true }),
    [setParams, metric, choice],
  );
  return { metric, choice, set };
}

/**
 * A farm's MCUs compared on one metric: a line per MCU over the range, with the CSV
 * of the same. While the range reaches now, the lines follow the live readings.
 */
export default function FarmHistoryPage() {
  const { t } = useTranslation("history");
  useLocale();
  const { core } = useAppData();
  const farmId = Number(useParams().farmId);
  const valid = Number.isInteger(farmId) && farmId > 0;
  const { metric, choice, set } = useFarmParams();
  const rangeKey = JSON.stringify(choice);
  const rangeText = describeRange(t, choice, formatMoment);
  const syncKey = `farm-${farmId}-${useId()}`;
  const layout = useChartLayout();
  const metricId = useId();

  const list = useLoad(useCallback(() => core.loadFarms(), [core]), "farms");
  const farms = useCollection("farms");
  const farm = useHeldWhileLoading(
    farms.find((f) => f.farm_id === farmId),
    list.state.status === "loading" || farms.length === 0,
  );
  const history = useFarmHistory(farmId, metric, choice, rangeKey);
  const range = useSharedRange(choice, rangeKey, undefined);
  const live = resolveRange(choice, Date.now()).live;

  useEffect(() => {
    if (farm) document.title = t("documentTitle", { name: farm.name });
  }, [farm, t]);

  if (!valid || (!farm && list.state.status === "ready"))
    return (
      <EmptyState title={t("farmPage.notFound")}>
        <p>
          <Trans t={t} i18nKey="farmPage.notFoundText" components={{ link: <Link to="/farms" className="font-medium text-brand-700 underline underline-offset-2" /> }} />
        </p>
      </EmptyState>
    );
  if (!farm) return list.state.status === "error" ? <LoadError text={list.state.message} onRetry={list.retry} /> : <Loading text={t("farmPage.loading")} />;

  const csv = () => {
    const r = resolveRange(choice, Date.now());
    return csvUrl(HISTORY_PATHS.farmHistoryCsv(farmId), { metric, from: iso(r.from), to: iso(r.to) });
  };
  const many = farm.mcus.length > FARM_LIVE_MAX_MCUS;

  return (
    <div className="space-y-5 4xl:space-y-8">
      <header className="card p-4 sm:p-5 4xl:p-8">
        <h2 className="text-xl sm:text-2xl 4xl:text-4xl font-semibold text-gray-900 break-words">{farm.name}</h2>
        <p className="text-sm 4xl:text-xl text-gray-600">{farm.location}</p>
        {farm.mcus.length > 0 && (
          <nav aria-label={t("farmPage.mcus")} className="mt-2">
            <ul className="flex flex-wrap gap-x-3 gap-y-1 text-sm 4xl:text-xl">
              {farm.mcus.map((m) => (
                <li key={m.mcu_id}>
                  <Link to={mcuHistoryPath(m.mcu_id)} className="text-brand-700 underline underline-offset-2 hover:text-brand-800">
                    {m.name}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </header>

      <section aria-labelledby="farm-readings-heading" className="space-y-4 4xl:space-y-6">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="farm-readings-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
              {t("farmPage.compare")}
            </h2>
            <RangeLine choice={choice} range={range} live={live && !many} />
          </div>
          <ExportLink href={csv} name={t("farmPage.export")} />
        </div>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor={metricId} className="block text-sm 4xl:text-xl font-medium text-gray-700 mb-1">
                {t("farmPage.metric")}
              </label>
              <select
                id={metricId}
                value={metric}
                onChange={(e) => set({ metric: e.target.value as HistoryMetric })}
                className="block min-h-11 4xl:min-h-16 rounded-lg border border-gray-300 bg-white px-3 py-2 4xl:px-4 text-sm 4xl:text-xl text-gray-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
              >
                {HISTORY_METRICS.map((m) => (
                  <option key={m} value={m}>
                    {t("farmPage.metricOption", { metric: metricLabel(t, m), unit: t(`units.${m}`) })}
                  </option>
                ))}
              </select>
            </div>
            <RangePicker choice={choice} onChange={(next) => set({ choice: next })} />
          </div>
          <ZoomControls range={range} />
        </div>
        {history.state.status === "loading" ? (
          <ChartSkeletons count={1} label={t("farmPage.loadingComparison")} />
        ) : history.state.status === "error" ? (
          <LoadError text={t("farmPage.comparisonFailed", { reason: history.state.message })} onRetry={history.retry} />
        ) : history.state.value.value.mcus.length === 0 ? (
          <EmptyState title={t("farmPage.noMcus")}>
            <p>
              <Trans t={t} i18nKey="farmPage.noMcusText" components={{ link: <Link to="/mcu" className="font-medium text-brand-700 underline underline-offset-2" /> }} />
            </p>
          </EmptyState>
        ) : history.state.value.value.t.length === 0 && !live ? (
          <EmptyState title={t("farmPage.noReadings")}>
            <p>{t("farmPage.noReadingsText", { metric: t(`metricsInSentence.${metric}`) })}</p>
          </EmptyState>
        ) : (
          <FarmChart feed={history.state.value} range={range} syncKey={syncKey} layout={layout} rangeText={rangeText} />
        )}
      </section>
    </div>
  );
}
