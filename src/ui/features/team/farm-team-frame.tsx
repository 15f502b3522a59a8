import { useCallback, useEffect, type ReactNode } from "react";
import { Link, useParams } from "react-router-dom";
import type { Farm } from "../../../contract/entities.ts";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { useListLoad } from "../../components/use-list-load.ts";
import { useCollection } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";

/** The farm team screens of a farm, in the order of their tabs. */
export const TEAM_SCREENS = [
  { path: "members", label: "Members" },
  { path: "rota", label: "On-call rota" },
  { path: "audit", label: "Audit trail" },
] as const;
export type TeamScreen = (typeof TEAM_SCREENS)[number]["path"];

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
export function FarmTeamFrame({ screen, title, children }: { screen: TeamScreen; title: string; children: (farm: Farm) => ReactNode }) {
  const { core } = useAppData();
  const farmId = useFarmIdParam();
  const farm = useCollection("farms", useCallback((list: readonly Farm[]) => list.find((f) => f.farm_id === farmId), [farmId]));
  const { state, retry } = useListLoad({
    load: useCallback(() => core.loadFarms(), [core]),
    failure: { kind: "info", fallback: "Failed to fetch farms" },
    toastId: "farms-load",
    hasData: farm !== undefined,
  });

  useEffect(() => {
    if (farm) document.title = `${farm.name} · ${title} · Mushroom Farm`;
  }, [farm, title]);

  if (!farm) {
    if (state.status === "error") return <LoadError text={state.message} onRetry={retry} />;
    if (state.status === "loading" && !Number.isNaN(farmId)) return <Loading text="Loading the farm…" />;
    return (
      <EmptyState title="Farm not found">
        <p>
          It may have been deleted, or you are no longer one of its members.{" "}
          <Link to="/farms" className={linkClass}>
            Go to Manage Farms
          </Link>
        </p>
      </EmptyState>
    );
  }

  return (
    <div className="space-y-5 4xl:space-y-8 max-w-5xl 4xl:max-w-none mx-auto">
      <Link to="/farms" className="inline-flex min-h-12 items-center gap-1 text-sm 4xl:text-xl font-medium text-brand-700 hover:text-brand-800">
        ← Manage Farms
      </Link>
      <header className="card p-4 sm:p-5 4xl:p-8 space-y-3 4xl:space-y-5">
        <div>
          <h2 className="text-xl sm:text-2xl 4xl:text-4xl font-semibold text-gray-900 break-words">{farm.name}</h2>
          {farm.location && <p className="text-sm 4xl:text-xl text-gray-600 break-words">{farm.location}</p>}
        </div>
        <nav aria-label="Farm team">
          <ul className="flex gap-2 overflow-x-auto -mx-1 px-1">
            {TEAM_SCREENS.map((s) => (
              <li key={s.path} className="shrink-0">
                <Link
                  to={teamPath(farm.farm_id, s.path)}
                  aria-current={s.path === screen ? "page" : undefined}
                  className={`inline-flex min-h-12 items-center rounded-lg px-4 text-sm 4xl:text-xl font-medium ${s.path === screen ? "bg-brand-700 text-white" : "bg-gray-100 text-gray-800 hover:bg-gray-200"}`}
                >
                  {s.label}
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
