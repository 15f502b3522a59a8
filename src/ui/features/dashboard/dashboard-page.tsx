import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { PlusIcon } from "../../components/icons.tsx";
import { SavedDataNotice } from "../../components/states.tsx";
import { useListLoad } from "../../components/use-list-load.ts";
import { useCollection, useRecordIds } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { DashboardSection } from "./dashboard-section.tsx";
import { FarmCard } from "./farm-card.tsx";
import { McuCard } from "./mcu-card.tsx";
import { SummaryCards } from "./summary-cards.tsx";
import { remPx, VirtualCardGrid, type ColumnsFor } from "../../components/virtual-card-grid.tsx";
import { InstallButton } from "../../components/install-button.tsx";

/**
 * Columns as wide as a card needs (its device tiles set the minimum: 21rem, 32rem on a wall with
 * its larger type), as many as fit: one on a phone, 2-3 on a laptop, 4 at 1920 px, 6 on a 3840 px
 * wall. The same count as `repeat(auto-fill, minmax(min(100%, 21rem), 1fr))` would give.
 */
const mcuColumns: ColumnsFor = (width, gap) => {
  const min = (window.matchMedia("(min-width: 2560px)").matches ? 32 : 21) * remPx();
  return Math.floor((width + gap) / (Math.min(min, width) + gap));
};

const renderMcuCard = (id: number) => <McuCard mcuId={id} />;
const estimateMcuRow = (wall: boolean) => (wall ? 760 : 560);

/** The "MCU Readings" grid: only the cards on screen are mounted (a wall of thousands of MCUs costs what it shows). */
export function McuReadingsGrid({ ids, labelledBy }: { ids: readonly number[]; labelledBy: string }) {
  const { t } = useTranslation("dashboard");
  return (
    <VirtualCardGrid
      ids={ids}
      columnsFor={mcuColumns}
      estimateRowHeight={estimateMcuRow}
      gapClassName="gap-3 sm:gap-4 4xl:gap-6"
      renderItem={renderMcuCard}
      labelledBy={labelledBy}
      itemsName={t("readings.itemsName")}
    />
  );
}

/** The lists the dashboard shows (the profiles only name an MCU's link). */
const DASHBOARD_LISTS = ["farms", "mcus"] as const;

/** SPEC §2 Dashboard: summary, the client's farms and a live card per MCU. */
export default function DashboardPage() {
  const { t } = useTranslation("dashboard");
  const { core } = useAppData();
  const farms = useCollection("farms");
  const mcuIds = useRecordIds("mcus");

  const { state: farmsLoad, retry: retryFarms } = useListLoad({
    load: useCallback(() => core.loadFarms(), [core]),
    failure: { kind: "info", fallback: t("load.farmsFailed") },
    hasData: farms.length > 0,
  });
  const { state: mcusLoad, retry: retryMcus } = useListLoad({
    load: useCallback(() => core.loadMcus(), [core]),
    failure: { kind: "info", fallback: t("load.mcusFailed") },
    hasData: mcuIds.length > 0,
  });
  // The profiles are not listed here (each MCU carries its linked profile's name); loading them
  // keeps the store current for the pages that link profiles, and a failure still gets its toast.
  useListLoad({ load: useCallback(() => core.loadProfiles(), [core]), failure: { kind: "info", fallback: t("load.profilesFailed") } });

  return (
    <div className="flex flex-col gap-6 4xl:gap-8">
      {/* SPEC §2: the install button, present only while the browser offers installation. */}
      <div className="empty:hidden flex justify-end">
        <InstallButton />
      </div>

      <SavedDataNotice lists={DASHBOARD_LISTS} />

      {/* A failed load counts nothing: a 0 there would read as "you have none". */}
      <SummaryCards farmsReady={farmsLoad.status === "ready"} mcusReady={mcusLoad.status === "ready"} />

      <DashboardSection
        headingId="farms-heading"
        title={t("farms.title")}
        to="/farms"
        linkContent={
          <>
            <PlusIcon aria-hidden="true" /> {t("farms.add")}
          </>
        }
        load={farmsLoad}
        onRetry={retryFarms}
        loadingText={t("farms.loading")}
        hasItems={farms.length > 0}
        emptyTitle={t("farms.emptyTitle")}
        emptyLinkText={t("farms.emptyLink")}
      >
        <ul className="grid grid-cols-1 sm:grid-cols-2 xl:grid-cols-3 3xl:grid-cols-4 4xl:grid-cols-6 gap-3 sm:gap-4 4xl:gap-6">
          {farms.map((farm) => (
            <FarmCard key={farm.farm_id} farm={farm} />
          ))}
        </ul>
      </DashboardSection>

      <DashboardSection
        headingId="mcu-readings-heading"
        title={t("readings.title")}
        to="/mcu"
        linkContent={t("readings.viewAll")}
        load={mcusLoad}
        onRetry={retryMcus}
        loadingText={t("readings.loading")}
        hasItems={mcuIds.length > 0}
        emptyTitle={t("readings.emptyTitle")}
        emptyLinkText={t("readings.emptyLink")}
      >
        <McuReadingsGrid ids={mcuIds} labelledBy="mcu-readings-heading" />
      </DashboardSection>
    </div>
  );
}
