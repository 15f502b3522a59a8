import { Disclosure, DisclosureButton, DisclosurePanel } from "@headlessui/react";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { ALARM_KINDS, type Alarm, type AlarmKind } from "../../../contract/alarms-values.ts";
import { FilterSelect } from "../../components/filter-select.tsx";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { useListLoad } from "../../components/use-list-load.ts";
import { useNow } from "../../components/use-now.ts";
import { useActiveAlarms, useAlarmLoad } from "../../data/active-alarms.ts";
import { useCollection } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { AcknowledgeDialog } from "./acknowledge-dialog.tsx";
import { filterCount, filtersFrom, filtersToParams, isFiltered, matchesFilters, selectedAlarmFrom, type AlarmFilters } from "./alarm-filters.ts";
import { alarmEntryId } from "./alarm-item.tsx";
import { AlarmList } from "./alarm-list.tsx";
import { FarmAcknowledgeDialog, farmsWithOpenAlarms } from "./farm-acknowledge-dialog.tsx";
import { useRecentAlarms } from "./use-recent-alarms.ts";
import { useReaderEngaged, useSteadyList, type SteadyList } from "./use-steady-list.ts";
import { useFarmsWhere } from "../../data/farm-roles.ts";
import { formatFixed } from "../../i18n/format.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { kindLabel } from "./alarm-words.ts";

function SectionHeading({ id, title, count }: { id: string; title: string; count?: number }) {
  return (
    <h2 id={id} className="text-lg 4xl:text-3xl font-semibold text-gray-900">
      {title}
      {count !== undefined && <span className="ms-2 text-gray-600 font-normal tabular-nums">({formatFixed(count, 0)})</span>}
    </h2>
  );
}

/**
 * The filters: farm, MCU (of the farm chosen) and kind, with Reset. On a phone they fold behind a
 * Filters button (saying how many are set), so the first alarm is on the first screen; wider
 * screens show them in a row.
 */
function Filters({ filters, onChange }: { filters: AlarmFilters; onChange: (f: AlarmFilters) => void }) {
  const { t } = useTranslation("alarms");
  useLocale();
  const kindOptions = useMemo(() => ALARM_KINDS.map((k) => ({ value: k, label: kindLabel(t, k) })), [t]);
  const farms = useCollection("farms");
  const mcus = useCollection("mcus");
  const farmOptions = useMemo(() => farms.map((f) => ({ value: String(f.farm_id), label: f.name })), [farms]);
  const mcuOptions = useMemo(
    () => mcus.filter((m) => filters.farmId === null || m.farm_id === filters.farmId).map((m) => ({ value: String(m.mcu_id), label: m.name })),
    [mcus, filters.farmId],
  );
  const count = filterCount(filters);
  return (
    <Disclosure as="div" role="search" aria-label={t("filters.label")}>
      {({ open }) => (
        <>
          <DisclosureButton className="sm:hidden btn-secondary w-full justify-between">
            <span>{count > 0 ? t("filters.buttonSet", { count }) : t("filters.button")}</span>
            <span aria-hidden="true">{open ? "▴" : "▾"}</span>
          </DisclosureButton>
          {/* Always in the page (wider screens show it whatever the button says); folded away on a phone until asked for. */}
          <DisclosurePanel static className={`${open ? "flex mt-3" : "hidden"} sm:mt-0 sm:flex flex-col sm:flex-row sm:flex-wrap sm:items-end gap-3`}>
            <div className="grid grid-cols-1 sm:grid-cols-3 gap-3 w-full sm:w-auto sm:flex-1">
              <FilterSelect
                label={t("filters.farm")}
                allLabel={t("filters.allFarms")}
                value={filters.farmId === null ? "" : String(filters.farmId)}
                options={farmOptions}
                // Another farm's MCU would leave the list empty for no visible reason.
                onChange={(v) => onChange({ ...filters, farmId: v ? Number(v) : null, mcuId: null })}
              />
              <FilterSelect label={t("filters.mcu")} allLabel={t("filters.allMcus")} value={filters.mcuId === null ? "" : String(filters.mcuId)} options={mcuOptions} onChange={(v) => onChange({ ...filters, mcuId: v ? Number(v) : null })} />
              <FilterSelect<AlarmKind> label={t("filters.kind")} allLabel={t("filters.allKinds")} value={filters.kind ?? ""} options={kindOptions} onChange={(v) => onChange({ ...filters, kind: v || null })} />
            </div>
            <button type="button" className="btn-secondary 4xl:text-xl 4xl:px-6 4xl:py-3" disabled={!isFiltered(filters)} onClick={() => onChange({ farmId: null, mcuId: null, kind: null })}>
              {t("filters.reset")}
            </button>
          </DisclosurePanel>
        </>
      )}
    </Disclosure>
  );
}

const alarmIdOf = (a: Alarm) => a.alarm_id;
const NO_ALARMS: readonly Alarm[] = [];

/**
 * A list of alarms with those that wait (useSteadyList) while the reader reads it, and the button
 * that shows them, focusing the first entry, where the newest lands. The button takes no room of
 * its own (pushing the list down as it appears would move what it is there to keep in place): it
 * sits over the gap above the list, and stays below the top bar while the list is scrolled through.
 */
function SteadyAlarms({ list, text, children }: { list: SteadyList<Alarm>; text: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const show = () => {
    list.showWaiting();
    // An alarm folded in an incident has no entry of its own on screen: the incident's button is focused.
    requestAnimationFrame(() => {
      const first = box.current?.querySelector("li")?.querySelector("article, [data-incident] button");
      if (first instanceof HTMLElement) first.focus();
    });
  };
  return (
    <div ref={box}>
      <div aria-live="polite" className="sticky top-[calc(var(--top-bar-height,0px)+0.5rem)] z-10 h-0 flex items-start justify-center">
        {list.waiting.length > 0 && (
          <button type="button" className="btn-primary -translate-y-1/2 rounded-full shadow-lg 4xl:text-xl 4xl:px-6 4xl:py-3" onClick={show}>
            <span aria-hidden="true">↑</span> {text}
          </button>
        )}
      </div>
      {children}
    </div>
  );
}

/** Brings the alarm a link led to into view and focus, once it is listed (it may arrive with the list, or live). */
function useRevealSelected(selectedId: number | null, listed: boolean) {
  const revealed = useRef<number | null>(null);
  useEffect(() => {
    if (selectedId === null || !listed || revealed.current === selectedId) return;
    const element = document.getElementById(alarmEntryId(selectedId));
    if (!element) return;
    revealed.current = selectedId;
    element.scrollIntoView({ block: "center" });
    element.focus({ preventScroll: true });
  }, [selectedId, listed]);
}

/**
 * Alarms: the active alarms, live from the data core (they appear, change and leave
 * without a reload), with Acknowledge; and the recent resolved ones from the server, a page at a
 * time, with what resolves meanwhile on top. Filters by farm, MCU and kind, kept in the address.
 */
export default function AlarmsPage() {
  const { t } = useTranslation("alarms");
  useLocale();
  const { core } = useAppData();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFrom(params), [params]);
  const setFilters = (f: AlarmFilters) => setParams(filtersToParams(f), { replace: true });
  const filtered = isFiltered(filters);
  const selectedId = useMemo(() => selectedAlarmFrom(params), [params]);
  const now = useNow();

  // The filters' farms and MCUs; SPEC §8's toasts if they fail (the alarms themselves carry their names).
  useListLoad({ load: useCallback(() => core.loadFarms(), [core]), failure: { kind: "info", fallback: t("page.farmsFailed") } });
  useListLoad({ load: useCallback(() => core.loadMcus(), [core]), failure: { kind: "info", fallback: t("page.mcusFailed") } });

  const load = useAlarmLoad();
  const allActive = useActiveAlarms();
  const active = useMemo(() => (filtered ? allActive.filter((a) => matchesFilters(a, filters)) : allActive), [allActive, filters, filtered]);
  const recent = useRecentAlarms(filters);
  // Alarms that open or resolve while the page is read wait behind a button, above what is read.
  const filtersKey = filtersToParams(filters).toString();
  const hold = useReaderEngaged();
  const steadyActive = useSteadyList(active, alarmIdOf, { ready: load.state === "ready", reset: filtersKey, keep: selectedId, hold });
  const steadyRecent = useSteadyList(recent.state.status === "ready" ? recent.state.alarms : NO_ALARMS, alarmIdOf, { ready: recent.state.status === "ready", reset: filtersKey, keep: selectedId, hold });

  const [acknowledging, setAcknowledging] = useState<Alarm | null>(null);
  const [acknowledgingFarm, setAcknowledgingFarm] = useState(false);
  // Only the farms where the person's role may acknowledge.
  const mayAcknowledge = useFarmsWhere("acknowledgeAlarms");
  const farmsToAcknowledge = useMemo(() => farmsWithOpenAlarms(t, allActive).filter((f) => mayAcknowledge === null || mayAcknowledge.has(f.farmId)), [t, allActive, mayAcknowledge]);
  useRevealSelected(selectedId, active.some((a) => a.alarm_id === selectedId) || (recent.state.status === "ready" && recent.state.alarms.some((a) => a.alarm_id === selectedId)));
  const acknowledged = (a: Alarm) => {
    setAcknowledging(null);
    // Its Acknowledge button is gone: focus stays on the alarm, now marked acknowledged.
    requestAnimationFrame(() => document.getElementById(alarmEntryId(a.alarm_id))?.focus());
  };

  const activeKnown = load.state === "ready" || allActive.length > 0;
  return (
    <div className="flex flex-col gap-6 4xl:gap-8">
      <Filters filters={filters} onChange={setFilters} />

      <section aria-labelledby="active-alarms-heading" className="flex flex-col gap-3 4xl:gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <SectionHeading id="active-alarms-heading" title={t("page.active")} count={activeKnown ? active.length : undefined} />
          {farmsToAcknowledge.length > 0 && (
            <button type="button" className="btn-secondary 4xl:text-xl 4xl:px-6 4xl:py-3" onClick={() => setAcknowledgingFarm(true)}>
              {t("page.acknowledgeAll")}
            </button>
          )}
        </div>
        {/* Alarms come and go while the page is open: a screen reader hears the count change. */}
        <p aria-live="polite" className="sr-only">
          {activeKnown ? t("page.activeCount", { count: active.length }) : ""}
        </p>
        {load.state === "error" && <LoadError text={t("page.activeFailed", { reason: load.message ?? t("page.tryAgain") })} onRetry={() => void core.loadAlarms().catch(() => undefined)} />}
        {active.length > 0 ? (
          <SteadyAlarms list={steadyActive} text={t("page.showNew", { count: steadyActive.waiting.length })}>
            <AlarmList alarms={steadyActive.shown} label={t("page.activeList")} now={now} onAcknowledge={setAcknowledging} selectedId={selectedId} />
          </SteadyAlarms>
        ) : !activeKnown ? (
          load.state !== "error" && <Loading text={t("page.loadingActive")} />
        ) : (
          <EmptyState title={t("page.noActive")}>
            <p>{filtered ? t("page.noActiveFiltered") : t("page.noActiveText")}</p>
          </EmptyState>
        )}
      </section>

      <section aria-labelledby="recent-alarms-heading" className="flex flex-col gap-3 4xl:gap-4">
        <SectionHeading id="recent-alarms-heading" title={t("page.recent")} />
        {recent.state.status === "loading" ? (
          <Loading text={t("page.loadingRecent")} />
        ) : recent.state.status === "error" ? (
          <LoadError text={t("page.recentFailed", { reason: recent.state.message })} onRetry={recent.retry} />
        ) : recent.state.alarms.length === 0 ? (
          <EmptyState title={t("page.noResolved")}>
            <p>{filtered ? t("page.noResolvedFiltered") : t("page.noResolvedText")}</p>
          </EmptyState>
        ) : (
          <>
            <SteadyAlarms list={steadyRecent} text={t("page.showResolved", { count: steadyRecent.waiting.length })}>
              <AlarmList alarms={steadyRecent.shown} label={t("page.resolvedList")} now={now} selectedId={selectedId} />
            </SteadyAlarms>
            {recent.state.next !== null && (
              <div className="flex flex-col items-center gap-2">
                <button type="button" className="btn-secondary 4xl:text-xl 4xl:px-6 4xl:py-3" onClick={() => void recent.loadMore()} disabled={recent.more.loading} aria-busy={recent.more.loading}>
                  {recent.more.loading ? t("page.loadingMore") : t("page.loadMore")}
                </button>
                {recent.more.error && (
                  <p role="alert" className="text-sm text-red-800">
                    {t("page.moreFailed", { reason: recent.more.error })}
                  </p>
                )}
              </div>
            )}
          </>
        )}
      </section>

      <AcknowledgeDialog alarm={acknowledging} onClose={() => setAcknowledging(null)} onAcknowledged={acknowledged} />
      <FarmAcknowledgeDialog open={acknowledgingFarm} farms={farmsToAcknowledge} initialFarmId={filters.farmId} onClose={() => setAcknowledgingFarm(false)} />
    </div>
  );
}
