/** The sidebar entries of SPEC §2, in order; the top bar shows the current one's label. */
export const NAV = [
  { to: "/dashboard", label: "Dashboard" },
  // Issue 15: beyond SPEC's entries, next to the Dashboard whose Warnings it explains.
  { to: "/alarms", label: "Alarms" },
  { to: "/farms", label: "Manage Farms" },
  { to: "/mcu", label: "MCU Manager" },
  { to: "/controllers", label: "Controller Manager" },
  { to: "/sensors", label: "Sensors Manager" },
  { to: "/settings-profile", label: "MCU Settings" },
  { to: "/settings", label: "Settings" },
] as const;

/** SPEC §2: the top bar's page title, default Dashboard. */
export function titleOf(pathname: string): string {
  return NAV.find((n) => pathname === n.to || pathname.startsWith(`${n.to}/`))?.label ?? "Dashboard";
}
