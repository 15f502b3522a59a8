import { useCallback } from "react";
import { Link } from "react-router-dom";
import { PlusIcon } from "../../components/icons.tsx";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { useFarms, useMcuIds } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { FarmCard } from "./farm-card.tsx";
import { McuCard } from "./mcu-card.tsx";
import { SummaryCards } from "./summary-cards.tsx";
import { useListLoad } from "./use-list-load.ts";

const sectionHeading = "text-lg 4xl:text-3xl font-semibold text-gray-900";
const headerLink = "btn-secondary 4xl:text-xl 4xl:px-6 4xl:py-3";

/** SPEC §2 Dashboard: summary, the client's farms and a live card per MCU. */
export default function DashboardPage() {
  const { core } = useAppData();
  const farms = useFarms();
  const mcuIds = useMcuIds();

  const farmsLoad = useListLoad(useCallback(() => core.loadFarms(), [core]), "Failed to fetch farms", farms.length > 0);
  const mcusLoad = useListLoad(useCallback(() => core.loadMcus(), [core]), "Failed to fetch MCU by client", mcuIds.length > 0);
  // The profiles are not listed here (each MCU carries its linked profile's name); loading them
  // keeps the store current for the pages that link profiles, and a failure still gets its toast.
  useListLoad(useCallback(() => core.loadProfiles(), [core]), "Failed to fetch profiles", false);

  return (
    <div className="flex flex-col gap-6 4xl:gap-8">
      {/* The install-to-home-screen button (SPEC §2) goes here once the PWA install prompt is wired; empty until then. */}
      <div data-slot="install" className="empty:hidden flex justify-end" />

      <SummaryCards farmsReady={farmsLoad.status !== "loading"} mcusReady={mcusLoad.status !== "loading"} />

      <section aria-labelledby="farms-heading" className="flex flex-col gap-3 4xl:gap-4">
        <div className="flex items-center justify-between gap-3">
          <h2 id="farms-heading" className={sectionHeading}>
            Your Farms
          </h2>
          <Link to="/farms" className={headerLink}>
            <PlusIcon aria-hidden="true" /> Add Farm
          </Link>
        </div>
        {farmsLoad.status === "error" && <LoadError text={farmsLoad.message} onRetry={farmsLoad.retry} />}
        {farmsLoad.status === "loading" ? (
          <Loading text="Loading farms…" />
        ) : farms.length > 0 ? (
          <ul className="grid grid-cols-1 sm:grid-cols-2 xl:grid-cols-3 3xl:grid-cols-4 4xl:grid-cols-6 gap-3 sm:gap-4 4xl:gap-6">
            {farms.map((farm) => (
              <FarmCard key={farm.farm_id} farm={farm} />
            ))}
          </ul>
        ) : (
          farmsLoad.status === "ready" && (
            <EmptyState title="No farms yet">
              <Link to="/farms" className="text-brand-700 underline">
                Add your first farm
              </Link>
            </EmptyState>
          )
        )}
      </section>

      <section aria-labelledby="mcu-readings-heading" className="flex flex-col gap-3 4xl:gap-4">
        <div className="flex items-center justify-between gap-3">
          <h2 id="mcu-readings-heading" className={sectionHeading}>
            MCU Readings
          </h2>
          <Link to="/mcu" className={headerLink}>
            View All
          </Link>
        </div>
        {mcusLoad.status === "error" && <LoadError text={mcusLoad.message} onRetry={mcusLoad.retry} />}
        {mcusLoad.status === "loading" ? (
          <Loading text="Loading MCUs…" />
        ) : mcuIds.length > 0 ? (
          // Columns as wide as a card needs (its device tiles set the minimum), as many as fit:
          // one on a phone, 2-3 on a laptop, 4 at 1920 px, 6 on a 3840 px wall with its larger type.
          <ul className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,21rem),1fr))] 4xl:grid-cols-[repeat(auto-fill,minmax(32rem,1fr))] gap-3 sm:gap-4 4xl:gap-6">
            {mcuIds.map((id) => (
              <McuCard key={id} mcuId={id} />
            ))}
          </ul>
        ) : (
          mcusLoad.status === "ready" && (
            <EmptyState title="No MCUs yet">
              <Link to="/mcu" className="text-brand-700 underline">
                Add your first MCU
              </Link>
            </EmptyState>
          )
        )}
      </section>
    </div>
  );
}
