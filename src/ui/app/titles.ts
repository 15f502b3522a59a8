/** The sidebar entries of SPEC §2, in order; the top bar shows the current one's label. */
export const NAV = [
  { to: "/dashboard", label: "Dashboard" },
  // Alarms: beyond SPEC's entries, next to the Dashboard whose Warnings it explains.
  { to: "/alarms", label: "Alarms" },
  { to: "/farms", label: "Manage Farms" },
  { to: "/mcu", label: "MCU Manager" },
  { to: "/controllers", label: "Controller Manager" },
  { to: "/sensors", label: "Sensors Manager" },
  { to: "/settings-profile", label: "MCU Settings" },
  { to: "/settings", label: "Settings" },
] as const;

/**
 * Pages under a sidebar entry's path that are not that entry's page: their own title, not the
 * entry's (an MCU's history is not the MCU Manager).
 */
const SUB_PAGES: readonly { path: RegExp; title: string }[] = [
  { path: /^\/mcu\/[^/]+\/?$/, title: "MCU History" },
  { path: /^\/farms\/[^/]+\/history\/?$/, title: "Farm History" },
];

/** SPEC §2: the top bar's page title, default Dashboard. */
export function titleOf(pathname: string): string {
  const sub = SUB_PAGES.find((p) => p.path.test(pathname));
  if (sub) return sub.title;
  return NAV.find((n) => pathname === n.to || pathname.startsWith(`${n.to}/`))?.label ?? "Dashboard";
}
