import type { ComponentType, SVGProps } from "react";
import { AlertIcon, ChipIcon, DashboardIcon, FanIcon, FarmIcon, SensorIcon, SettingsIcon, LayersIcon, SlidersIcon, SproutIcon } from "../components/icons.tsx";
import type { PagePath } from "./pages.ts";

/** The sidebar entries of SPEC §2, in order; the top bar shows the current one's label. */
export const NAV = [
  { to: "/dashboard", label: "Dashboard", icon: DashboardIcon },
  // Alarms: beyond SPEC's entries, next to the Dashboard whose Warnings it explains.
  { to: "/alarms", label: "Alarms", icon: AlertIcon },
  { to: "/farms", label: "Manage Farms", icon: FarmIcon },
  { to: "/mcu", label: "MCU Manager", icon: ChipIcon },
  { to: "/controllers", label: "Controller Manager", icon: FanIcon },
  { to: "/sensors", label: "Sensors Manager", icon: SensorIcon },
  { to: "/settings-profile", label: "MCU Settings", icon: SlidersIcon },
  { to: "/recipes", label: "Recipes", icon: SproutIcon },
  { to: "/batches", label: "Batches", icon: LayersIcon },
  { to: "/settings", label: "Settings", icon: SettingsIcon },
] as const satisfies readonly { to: PagePath; label: string; icon: ComponentType<SVGProps<SVGSVGElement>> }[];

/**
 * Pages under a sidebar entry's path that are not that entry's page: their own title, not the
 * entry's (an MCU's history is not the MCU Manager).
 */
const SUB_PAGES: readonly { path: RegExp; title: string }[] = [
  { path: /^\/mcu\/[^/]+\/?$/, title: "MCU History" },
  { path: /^\/farms\/[^/]+\/history\/?$/, title: "Farm History" },
  { path: /^\/farms\/[^/]+\/members\/?$/, title: "Farm Members" },
  { path: /^\/farms\/[^/]+\/rota\/?$/, title: "On-call Rota" },
  { path: /^\/farms\/[^/]+\/audit\/?$/, title: "Audit Trail" },
];

/** SPEC §2: the top bar's page title, default Dashboard. */
export function titleOf(pathname: string): string {
  const sub = SUB_PAGES.find((p) => p.path.test(pathname));
  if (sub) return sub.title;
  return NAV.find((n) => pathname === n.to || pathname.startsWith(`${n.to}/`))?.label ?? "Dashboard";
}
