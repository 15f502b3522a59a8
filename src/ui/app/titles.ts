import type { TFunction } from "i18next";
import type { ComponentType, SVGProps } from "react";
import { AlertIcon, ChipIcon, DashboardIcon, FanIcon, FarmIcon, SensorIcon, SettingsIcon, LayersIcon, SlidersIcon, SproutIcon } from "../components/icons.tsx";
import type { PagePath } from "./pages.ts";

/**
 * The sidebar entries of SPEC §2, in order; the top bar shows the current one's label. A label is
 * its text's key in the `common` catalogue, read in the person's language where it is shown.
 */
export const NAV = [
  { to: "/dashboard", label: "nav.dashboard", icon: DashboardIcon },
  // Alarms: beyond SPEC's entries, next to the Dashboard whose Warnings it explains.
  { to: "/alarms", label: "nav.alarms", icon: AlertIcon },
  { to: "/farms", label: "nav.farms", icon: FarmIcon },
  { to: "/mcu", label: "nav.mcu", icon: ChipIcon },
  { to: "/controllers", label: "nav.controllers", icon: FanIcon },
  { to: "/sensors", label: "nav.sensors", icon: SensorIcon },
  { to: "/settings-profile", label: "nav.mcuSettings", icon: SlidersIcon },
  { to: "/recipes", label: "nav.recipes", icon: SproutIcon },
  { to: "/batches", label: "nav.batches", icon: LayersIcon },
  { to: "/settings", label: "nav.settings", icon: SettingsIcon },
] as const satisfies readonly { to: PagePath; label: `nav.${string}`; icon: ComponentType<SVGProps<SVGSVGElement>> }[];

type TitleKey = (typeof NAV)[number]["label"] | (typeof SUB_PAGES)[number]["title"];

/**
 * Pages under a sidebar entry's path that are not that entry's page: their own title, not the
 * entry's (an MCU's history is not the MCU Manager).
 */
const SUB_PAGES = [
  { path: /^\/mcu\/[^/]+\/?$/, title: "titles.mcuHistory" },
  { path: /^\/farms\/[^/]+\/history\/?$/, title: "titles.farmHistory" },
  { path: /^\/farms\/[^/]+\/members\/?$/, title: "titles.farmMembers" },
  { path: /^\/farms\/[^/]+\/rota\/?$/, title: "titles.rota" },
  { path: /^\/farms\/[^/]+\/audit\/?$/, title: "titles.audit" },
] as const;

/** SPEC §2: the key of the top bar's page title, default Dashboard. */
export function titleKeyOf(pathname: string): TitleKey {
  const sub = SUB_PAGES.find((p) => p.path.test(pathname));
  if (sub) return sub.title;
  return NAV.find((n) => pathname === n.to || pathname.startsWith(`${n.to}/`))?.label ?? "nav.dashboard";
}

/** SPEC §2: the top bar's page title in the person's language. */
export const titleOf = (pathname: string, t: TFunction<"common">): string => t(titleKeyOf(pathname));
