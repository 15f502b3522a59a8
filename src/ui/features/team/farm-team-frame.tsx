import { useCallback, useEffect, type ReactNode } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Link, useParams } from "react-router-dom";
import type { Farm } from "../../../contract/entities.ts";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { useListLoad } from "../../components/use-list-load.ts";
import { useRefusal } from "../../data/farm-roles.ts";
import { useCollection } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";

/** The farm team screens of a farm, in the order of their tabs (each named by `frame.screens.<screen>`). */
export const TEAM_SCREENS = ["members", "rota", "audit"] as const;
export type TeamScreen = (typeof TEAM_SCREENS)[number];

export const teamPath = (farmId: number, screen: TeamScreen) => `/farms/${farmId}/${screen}`;

/** The farm id of the address (/farms/:farmId/…); NaN when it is not one. */
export function useFarmIdParam(): number {
  const farmId = Number(useParams().farmId);
  return Number.isInteger(farmId) && farmId > 0 ? farmId : Number.NaN;
}

const linkClass = "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800";

/**
 * The frame of a farm's team screens: the farm's name as the heading, tabs to its members, rota
 * and audit trail, and the screen under them once the farm is known. The farm comes from the farms
 * list (loaded here if this is the first screen of the visit); a farm the person does not see, or
 * no more, says so.
 */
export function FarmTeamFrame({ screen, children }: { screen: TeamScreen; children: (farm: Farm) => ReactNode }) {
  const { t } = useTranslation("team");
  const { core } = useAppData();
  const farmId = useFarmIdParam();
  const farm = useCollection("farms", useCallback((list: readonly Farm[]) => list.find((f) => f.farm_id === farmId), [farmId]));
  const { state, retry } = useListLoad({
    load: useCallback(() => core.loadFarms(), [core]),
    failure: { kind: "info", fallback: t("frame.farmsFailed") },
    toastId: "farms-load",
    hasData: farm !== undefined,
  });

  const documentTitle = farm ? t("frame.documentTitle", { farm: farm.name, screen: t(`frame.screens.${screen}`) }) : null;
  useEffect(() => {
    if (!documentTitle) return;
    // The layout names the screen alone ("Farm Members") in its own effect, which runs after this
    // one when both change together (the screen reached from another): the farm's name goes after it.
    const timer = window.setTimeout(() => (document.title = documentTitle));
    return () => window.clearTimeout(timer);
  }, [documentTitle]);
  // The audit trail's tab only for those who may read it, as the farm's card offers it (shown while
  // the roles are not known, and on the audit screen itself, which says why it is refused).
  const auditRefused = useRefusal(Number.isNaN(farmId) ? null : farmId, "readAudit") !== null;
  const tabs = TEAM_SCREENS.filter((s) => s !== "audit" || !auditRefused || screen === "audit");

  if (!farm) {
    if (state.status === "error") return <LoadError text={state.message} onRetry={retry} />;
    if (state.status === "loading" && !Number.isNaN(farmId)) return <Loading text={t("frame.loading")} />;
    return (
      <EmptyState title={t("frame.notFound")}>
        <p>
          <Trans t={t} i18nKey="frame.notFoundText" components={{ farms: <Link to="/farms" className={linkClass} /> }} />
        </p>
      </EmptyState>
    );
  }

  return (
    <div className="space-y-5 4xl:space-y-8 max-w-5xl 4xl:max-w-none mx-auto">
      <Link to="/farms" className="inline-flex min-h-12 items-center gap-1 text-sm 4xl:text-xl font-medium text-brand-700 hover:text-brand-800">
        {/* Back: the arrow points to where the reading starts, the right in Arabic. */}
        <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
          ←
        </span>
        {t("frame.back")}
      </Link>
      <header className="card p-4 sm:p-5 4xl:p-8 space-y-3 4xl:space-y-5">
        <div>
          <h2 className="text-xl sm:text-2xl 4xl:text-4xl font-semibold text-gray-900 break-words">{farm.name}</h2>
          {farm.location && <p className="text-sm 4xl:text-xl text-gray-600 break-words">{farm.location}</p>}
        </div>
        <nav aria-label={t("frame.nav")}>
          {/* Wrapped, not scrolled: on a phone the last tab would be cut at the card's edge (a narrower
              padding there keeps the three on one row of a 375 px screen, in English and Arabic). */}
          <ul className="flex flex-wrap gap-2">
            {tabs.map((s) => (
              <li key={s} className="shrink-0">
                <Link
                  to={teamPath(farm.farm_id, s)}
                  aria-current={s === screen ? "page" : undefined}
                  className={`inline-flex min-h-12 items-center rounded-lg px-3 sm:px-4 text-sm 4xl:text-xl font-medium ${s === screen ? "bg-brand-700 text-white" : "bg-gray-100 text-gray-800 hover:bg-gray-200"}`}
                >
                  {t(`frame.screens.${s}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      {children(farm)}
    </div>
  );
}
