import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import type { McuStatus } from "../../../contract/entities.ts";
import { MCU_STATUSES } from "../../../contract/enums.ts";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { PlusIcon, ScanIcon } from "../../components/icons.tsx";
import { QrScannerModal } from "../../components/qr-scanner-modal.tsx";
import { RefusalNote, useRefusalOnEveryFarm } from "../../components/refusal-note.tsx";
import { EmptyState, LoadError, Loading, SavedDataNotice } from "../../components/states.tsx";
import { useRetryOnReconnect } from "../../components/use-list-load.ts";
import { messageOf, notify } from "../../components/toasts.ts";
import { useFarmsWhere } from "../../data/farm-roles.ts";
import { useCollection, useMcuQuery, useRecordIds } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { i18n } from "../../i18n/i18n.ts";
import { VirtualCardGrid, type ColumnsFor } from "../../components/virtual-card-grid.tsx";
import { McuCard } from "./mcu-card.tsx";
import { isFiltering, mcuFiltersFrom, mcuFiltersToParams, NO_FILTERS, type McuFilters } from "./mcu-filters.ts";
import { McuFormDialog, scannedLabel, type McuFormTarget } from "./mcu-form-dialog.tsx";
import { McuStats } from "./mcu-stats.tsx";

type List = "mcus" | "farms" | "profiles";
const LISTS: List[] = ["mcus", "farms", "profiles"];
/**
 * SPEC §8 load failures: an info toast with the server's message, else `load.failed.<list>`; the
 * list's own words under it are `load.error.<list>`. Looked up when a load fails, in the language
 * of that moment (a load is not started again by a change of language).
 */
const loadFallback = (list: List) => i18n.t(`mcu:load.failed.${list}`);

const inputClass =
  "block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 4xl:px-4 4xl:py-3 text-sm 4xl:text-xl text-gray-900 placeholder-gray-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30";

/** Today's columns of the MCU list by the viewport's breakpoints: 1 on a phone ... 5 on a wall. */
const COLUMN_BREAKPOINTS: [query: string, columns: number][] = [
  ["(min-width: 2560px)", 5],
  ["(min-width: 1536px)", 4],
  ["(min-width: 1280px)", 3],
  ["(min-width: 768px)", 2],
];
const managerColumns: ColumnsFor = () => COLUMN_BREAKPOINTS.find(([query]) => window.matchMedia(query).matches)?.[1] ?? 1;

/**
 * The filters, kept in the address (replaced, not pushed: Back leaves the page rather than
 * undoing a keystroke). What is typed is held here too, so the search box answers each key at
 * once whatever the router takes to update; an address changed from elsewhere (Back to a filtered
 * entry, the sidebar's plain /mcu) sets the filters again.
 */
function useAddressFilters(): [McuFilters, (change: (f: McuFilters) => McuFilters) => void] {
  const [params, setParams] = useSearchParams();
  const addressed = params.toString();
  const [filters, setLocalFilters] = useState<McuFilters>(() => mcuFiltersFrom(params));
  // The filters last set and the address they were written as, for changes and for telling an
  // address this page wrote from one it is sent to.
  const latest = useRef(filters);
  const written = useRef(addressed);
  useEffect(() => {
    if (addressed === written.current) return;
    written.current = addressed;
    latest.current = mcuFiltersFrom(new URLSearchParams(addressed));
    setLocalFilters(latest.current);
  }, [addressed]);
  const setFilters = useCallback(
    (change: (f: McuFilters) => McuFilters) => {
      const next = change(latest.current);
      const nextParams = mcuFiltersToParams(next);
      latest.current = next;
      written.current = nextParams.toString();
      setLocalFilters(next);
      setParams(nextParams, { replace: true });
    },
    [setParams],
  );
  return [filters, setFilters];
}

/** SPEC §2 MCU Manager: the client's MCUs with search, filters, stats, profile links, add/edit/delete. */
export default function McuManagerPage() {
  const { t } = useTranslation("mcu");
  const { core, store } = useAppData();
  const confirm = useConfirm();
  const mcuCount = useRecordIds("mcus").length;
  const farms = useCollection("farms");

  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState<List[]>([]);
  const [filters, setFilters] = useAddressFilters();
  const [formTarget, setFormTarget] = useState<McuFormTarget | null>(null);
  const [scanning, setScanning] = useState(false);
  // Adding needs a farm where the role may manage devices: the form's farm choice offers only those.
  const addRefusal = useRefusalOnEveryFarm("manageDevices");
  const addReasonId = useId();
  const addDescribedBy = addRefusal ? addReasonId : undefined;
  const managedFarms = useFarmsWhere("manageDevices");

  const load = useCallback(
    async (lists: List[], isCurrent: () => boolean = () => true) => {
      setLoading(true);
      const loaders: Record<List, () => Promise<void>> = { mcus: () => core.loadMcus(), farms: () => core.loadFarms(), profiles: () => core.loadProfiles() };
      const results = await Promise.allSettled(lists.map((l) => loaders[l]()));
      if (!isCurrent()) return;
      const nowFailed = lists.filter((_, i) => results[i]!.status === "rejected");
      results.forEach((r, i) => {
        // One toast a list: a load that fails again (its retry when the connection comes) replaces
        // its toast instead of stacking a copy in front of other messages.
        if (r.status === "rejected") notify.info(messageOf(r.reason, loadFallback(lists[i]!)), { toastId: `${lists[i]!}-load` });
      });
      setFailed(nowFailed);
      setLoading(false);
    },
    [core],
  );

  useEffect(() => {
    let current = true;
    void load(LISTS, () => current);
    return () => {
      current = false;
    };
  }, [load]);
  // Lists that failed load again by themselves when the server is back (the saved ones too, in the core).
  useRetryOnReconnect(failed.length > 0, () => void load(failed));

  // Searched and filtered in the core over the whole fleet, live statuses included; unfiltered,
  // the list itself (its ids are known from its first part, before the whole list has crossed).
  const filtering = isFiltering(filters);
  const queriedIds = useMcuQuery(filtering ? filters : null);
  const allIds = useRecordIds("mcus");
  const shownIds = filtering ? queriedIds : allIds;

  // The form edits the record as the list holds it when Edit is pressed.
  const onEdit = useCallback(
    (mcuId: number) => {
      const mcu = store.getRecord("mcus", mcuId);
      if (mcu) setFormTarget({ kind: "edit", mcu });
    },
    [store],
  );
  const onDelete = useCallback(
    async (mcuId: number) => {
      if (!(await confirm(t("page.deleteConfirm")))) return;
      try {
        // The server's answer is English; the person reads the same news in their language.
        await core.deleteMcu(mcuId);
        notify.success(t("page.deleted"));
      } catch (err) {
        notify.error(t("page.deleteFailed", { reason: messageOf(err, t("page.deleteFallback")) }));
      }
    },
    [confirm, core, t],
  );
  const openAdd = () => setFormTarget({ kind: "add" });
  const openScan = () => setScanning(true);

  const farmOptions = useMemo(() => [...farms].sort((a, b) => a.name.localeCompare(b.name)), [farms]);
  const formFarms = useMemo(() => (managedFarms === null ? farmOptions : farmOptions.filter((f) => managedFarms.has(f.farm_id))), [farmOptions, managedFarms]);
  const mcuLoadFailed = failed.includes("mcus");
  const otherFailures = failed.filter((l) => l !== "mcus");

  let list;
  if (loading && mcuCount === 0) list = <Loading text={t("page.loading")} />;
  else if (mcuLoadFailed && mcuCount === 0) list = <LoadError text={t("load.error.mcus")} onRetry={() => void load(failed)} />;
  else if (mcuCount === 0)
    list = (
      <EmptyState title={t("empty.title")}>
        <p>{t("empty.firstHint")}</p>
        <div className="mt-4 flex flex-wrap justify-center gap-3">
          <button type="button" className="btn-primary" onClick={openScan} disabled={addRefusal !== null} aria-describedby={addDescribedBy}>
            <ScanIcon /> {t("empty.scanBarcode")}
          </button>
          <button type="button" className="btn-secondary" onClick={openAdd} disabled={addRefusal !== null} aria-describedby={addDescribedBy}>
            <PlusIcon /> {t("empty.addManually")}
          </button>
        </div>
      </EmptyState>
    );
  else if (shownIds.length === 0)
    list = (
      <EmptyState title={t("empty.title")}>
        <p>{filtering ? t("empty.noMatch") : t("empty.none")}</p>
      </EmptyState>
    );
  else
    list = (
      <VirtualCardGrid
        ids={shownIds}
        columnsFor={managerColumns}
        estimateRowHeight={(wall) => (wall ? 420 : 300)}
        gapClassName="gap-4 4xl:gap-6"
        itemClassName="min-w-0 flex"
        renderItem={(id) => <McuCard mcuId={id} onEdit={onEdit} onDelete={onDelete} />}
        labelledBy="mcu-list-heading"
        itemsName={t("page.itemsName")}
      />
    );

  return (
    <div className="space-y-5 4xl:space-y-8">
      <div className="flex flex-wrap items-center justify-end gap-3">
        <h2 className="sr-only">{t("page.heading")}</h2>
        <div className="flex flex-wrap gap-2 sm:gap-3">
          <button type="button" className="btn-secondary 4xl:text-xl 4xl:px-6 4xl:py-3" onClick={openScan} disabled={addRefusal !== null} aria-describedby={addDescribedBy}>
            <ScanIcon /> {t("page.scan")}
          </button>
          <button type="button" className="btn-primary 4xl:text-xl 4xl:px-6 4xl:py-3" onClick={openAdd} disabled={addRefusal !== null} aria-describedby={addDescribedBy}>
            <PlusIcon /> {t("page.add")}
          </button>
        </div>
        {/* One note for the buttons here and the empty list's: both add. */}
        <RefusalNote id={addReasonId} text={addRefusal} className="basis-full text-end" />
      </div>

      <SavedDataNotice lists={LISTS} />

      <McuStats />

      <div role="search" aria-label={t("filters.label")} className="card p-3 sm:p-4 4xl:p-6 flex flex-col md:flex-row gap-3">
        <div className="flex-1 min-w-0">
          <label htmlFor="mcu-search" className="sr-only">
            {t("filters.searchLabel")}
          </label>
          <input
            id="mcu-search"
            type="search"
            className={inputClass}
            placeholder={t("filters.searchPlaceholder")}
            value={filters.search}
            onChange={(e) => setFilters((f) => ({ ...f, search: e.target.value }))}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <div className="grid grid-cols-2 md:flex gap-3">
          <div className="md:w-40 4xl:w-64">
            <label htmlFor="mcu-status-filter" className="sr-only">
              {t("filters.statusLabel")}
            </label>
            <select id="mcu-status-filter" className={inputClass} value={filters.status} onChange={(e) => setFilters((f) => ({ ...f, status: e.target.value as McuStatus | "" }))}>
              <option value="">{t("filters.allStatuses")}</option>
              {MCU_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`status.${s}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="md:w-48 4xl:w-80">
            <label htmlFor="mcu-farm-filter" className="sr-only">
              {t("filters.farmLabel")}
            </label>
            <select id="mcu-farm-filter" className={inputClass} value={filters.farmId} onChange={(e) => setFilters((f) => ({ ...f, farmId: e.target.value }))}>
              <option value="">{t("filters.allFarms")}</option>
              {farmOptions.map((f) => (
                <option key={f.farm_id} value={String(f.farm_id)}>
                  {f.name}
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="btn-secondary col-span-2 md:col-span-1 4xl:text-xl 4xl:px-6" onClick={() => setFilters(() => NO_FILTERS)} disabled={!filtering}>
            {t("filters.reset")}
          </button>
        </div>
      </div>

      {otherFailures.length > 0 && <LoadError text={otherFailures.map((l) => t(`load.error.${l}`)).join(" ")} onRetry={() => void load(failed)} />}
      {mcuLoadFailed && mcuCount > 0 && <LoadError text={t("page.refreshFailed")} onRetry={() => void load(failed)} />}

      <section aria-labelledby="mcu-list-heading" aria-busy={loading || undefined}>
        <h2 id="mcu-list-heading" className="sr-only">
          {t("page.listHeading")}
        </h2>
        {list}
      </section>

      <McuFormDialog target={formTarget} farms={formFarms} onClose={() => setFormTarget(null)} />
      <QrScannerModal
        open={scanning}
        onClose={() => setScanning(false)}
        title={t("scanner.title")}
        instructions={t("scanner.instructions")}
        onResult={(mac, text) => {
          setScanning(false);
          setFormTarget({ kind: "add", ...scannedLabel(mac, text) });
        }}
      />
    </div>
  );
}
