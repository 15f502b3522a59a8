import { useCallback, useEffect, useId, useMemo } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router-dom";
import type { Mcu } from "../../../contract/entities.ts";
import type { Entities } from "../../../contract/live.ts";
import { HISTORY_PATHS } from "../../../contract/history-values.ts";
import { linkedConfig } from "../../../streams/live-status.ts";
import { farmHistoryPath } from "../../components/history-link.tsx";
import { OnlinePill } from "../../components/online-pill.tsx";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { useCollection, useMcuLiveWith, useRecord, useRecordIds } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { useLocale } from "../../i18n/i18n.ts";
import { CommandLog } from "./command-log.tsx";
import { ControllerTimeline } from "./controller-timeline.tsx";
import { csvUrl } from "./csv-links.ts";
import { ExportLink } from "./export-link.tsx";
import { HistoryCharts } from "./history-charts.tsx";
import { formatMoment } from "./history-words.ts";
import { RangeLine } from "./range-line.tsx";
import { RangePicker } from "./range-picker.tsx";
import { describeRange, rangeFromParams, rangeToParams, resolveRange, type RangeChoice } from "./time-range.ts";
import { useHeldWhileLoading } from "./use-held-while-loading.ts";
import { useLoad } from "./use-load.ts";
import { useMcuHistory } from "./use-mcu-history.ts";
import { useMcuTimeline } from "./use-mcu-timeline.ts";
import { useSharedRange } from "./use-shared-range.ts";
import { WhyNot } from "./why-not.tsx";
import { ZoomControls } from "./zoom-controls.tsx";

const iso = (ms: number) => new Date(ms).toISOString();

/** The MCU's name, farm, profile and live status at the top of its page. */
function McuHeader({ mcu }: { mcu: Mcu }) {
  const { t } = useTranslation("history");
  const online = useMcuLiveWith(mcu.mac, (live) => live?.online ?? false, Object.is);
  const profile = mcu.profile_links[0]?.profile.name ?? null;
  return (
    <header className="card p-4 sm:p-5 4xl:p-8 flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <h2 className="text-xl sm:text-2xl 4xl:text-4xl font-semibold text-gray-900 break-words">{mcu.name}</h2>
        <dl className="mt-1 flex flex-wrap gap-x-5 gap-y-1 text-sm 4xl:text-xl text-gray-700">
          <div className="flex gap-1.5">
            <dt className="text-gray-500">{t("mcuPage.farm")}</dt>
            <dd>
              <Link to={farmHistoryPath(mcu.farm_id)} className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
                {mcu.farm.name}
              </Link>
            </dd>
          </div>
          <div className="flex gap-1.5">
            <dt className="text-gray-500">{t("mcuPage.profile")}</dt>
            <dd>{profile ?? <span className="italic text-gray-500">{t("mcuPage.noProfile")}</span>}</dd>
          </div>
          <div className="flex gap-1.5">
            <dt className="text-gray-500">{t("mcuPage.mac")}</dt>
            <dd className="font-mono">{mcu.mac}</dd>
          </div>
        </dl>
      </div>
      <OnlinePill online={online} size="md" />
    </header>
  );
}

/** The range in the page's address: a reload or a shared link shows the same. */
export function useRangeParam(): [RangeChoice, (choice: RangeChoice) => void] {
  const [params, setParams] = useSearchParams();
  const choice = useMemo(() => rangeFromParams(params), [params]);
  const setChoice = useCallback((next: RangeChoice) => setParams(rangeToParams(next), { replace: true }), [setParams]);
  return [choice, setChoice];
}

/**
 * An MCU's history: its readings over a range as one chart per metric with the linked
 * profile's limits, its controllers' on/off timeline on the same time axis, its command log, and
 * CSV exports. While the range reaches now, the page follows the live readings.
 */
/** Two lists of the same items (a select's new array of unchanged batches is no change). */
const sameItems = <T,>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export default function McuHistoryPage() {
  const { t } = useTranslation("history");
  useLocale();
  const { core } = useAppData();
  const mcuId = Number(useParams().mcuId);
  const valid = Number.isInteger(mcuId) && mcuId > 0;
  const [choice, setChoice] = useRangeParam();
  const rangeKey = JSON.stringify(choice);
  const rangeText = describeRange(t, choice, formatMoment);
  const syncKey = `mcu-${mcuId}-${useId()}`;

  // The MCU's record (name, farm, profile) comes with the client's list; a direct visit loads it.
  const list = useLoad(useCallback(() => core.loadMcus(), [core]), "mcus");
  const listed = useRecordIds("mcus").length > 0;
  const mcu = useHeldWhileLoading(useRecord("mcus", mcuId), list.state.status === "loading" || !listed);
  const history = useMcuHistory(mcuId, mcu?.mac, choice, rangeKey);
  const timeline = useMcuTimeline(mcuId, mcu?.mac, choice, rangeKey);
  const range = useSharedRange(choice, rangeKey, mcu?.mac);
  const live = resolveRange(choice, Date.now()).live;
  // The batches this MCU was in: their plans are drawn under its readings (the core keeps the list).
  const batches = useCollection("batches", useCallback((list: Entities["batches"]) => list.filter((b) => b.mcu_ids.includes(mcuId)), [mcuId]), sameItems);

  useEffect(() => {
    if (mcu) document.title = t("documentTitle", { name: mcu.name });
  }, [mcu, t]);

  if (!valid || (!mcu && list.state.status === "ready"))
    return (
      <EmptyState title={t("mcuPage.notFound")}>
        <p>
          <Trans t={t} i18nKey="mcuPage.notFoundText" components={{ link: <Link to="/mcu" className="font-medium text-brand-700 underline underline-offset-2" /> }} />
        </p>
      </EmptyState>
    );
  if (!mcu) return list.state.status === "error" ? <LoadError text={list.state.message} onRetry={list.retry} /> : <Loading text={t("mcuPage.loading")} />;

  const historyCsv = () => {
    const r = resolveRange(choice, Date.now());
    return csvUrl(HISTORY_PATHS.mcuHistoryCsv(mcuId), { from: iso(r.from), to: iso(r.to) });
  };

  return (
    <div className="space-y-5 4xl:space-y-8">
      <McuHeader mcu={mcu} />

      <section aria-labelledby="readings-heading" className="space-y-4 4xl:space-y-6">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="readings-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
              {t("mcuPage.readings")}
            </h2>
            <RangeLine choice={choice} range={range} live={live} />
          </div>
          <ExportLink href={historyCsv} name={t("mcuPage.exportReadings")} />
        </div>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <RangePicker choice={choice} onChange={setChoice} />
          <ZoomControls range={range} />
        </div>
        <p className="text-xs 4xl:text-lg text-gray-500">{t("mcuPage.zoomHint")}</p>
        <HistoryCharts load={history.state} retry={history.retry} profile={linkedConfig(mcu)} batches={batches} range={range} syncKey={syncKey} rangeText={rangeText} live={live} />
        <ControllerTimeline load={timeline.state} retry={timeline.retry} range={range} syncKey={syncKey} rangeText={rangeText} />
        <WhyNot mcu={mcu} batches={batches} />
      </section>

      <section aria-labelledby="commands-heading" className="space-y-4">
        <h2 id="commands-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
          {t("mcuPage.commandLog")}
        </h2>
        <CommandLog mcuId={mcuId} choice={choice} rangeKey={rangeKey} />
      </section>
    </div>
  );
}
