import type { ComponentType } from "react";

/** Each screen's chunk by path (each screen loads when first visited). */
export const PAGES = {
  "/login": () => import("../features/auth/login-page.tsx"),
  "/register": () => import("../features/auth/register-page.tsx"),
  "/forgot-password": () => import("../features/auth/forgot-password-page.tsx"),
  "/dashboard": () => import("../features/dashboard/dashboard-page.tsx"),
  "/farms": () => import("../features/farms/farms-page.tsx"),
  "/mcu": () => import("../features/mcu/mcu-manager-page.tsx"),
  "/controllers": () => import("../features/controllers/controllers-page.tsx"),
  "/sensors": () => import("../features/sensors/sensors-page.tsx"),
  "/settings-profile": () => import("../features/profiles/profiles-page.tsx"),
  "/settings": () => import("../features/settings/settings-page.tsx"),
  "/alarms": () => import("../features/alarms/alarms-page.tsx"),
  // The wall view: full screen, outside the sidebar's layout.
  "/wall": () => import("../features/wall/wall-page.tsx"),
  // The history screens bring the chart library (uPlot): only their chunks hold it.
  "/mcu/:mcuId": () => import("../features/history/mcu-history-page.tsx"),
  "/farms/:farmId/history": () => import("../features/history/farm-history-page.tsx"),
} satisfies Record<string, () => Promise<{ default: ComponentType }>>;

/**
 * Starts loading the chunk of the screen at `pathname` (the dashboard for "/"), so that it arrives
 * while the app's code and the data core start instead of after them. The route's lazy component
 * then finds it loaded. Called by the page's entry, before the app's code is even fetched.
 */
export function preloadPage(pathname: string) {
  const path = pathname === "/" ? "/dashboard" : pathname.replace(/\/$/, "");
  const load = PAGES[path as keyof typeof PAGES] ?? PATTERNS.find(([pattern]) => pattern.test(path))?.[1];
  load?.().catch(() => undefined); // a failure is the route's to show, when it loads the chunk itself
}

/** The paths with parameters, each as a pattern of its own (":mcuId" matches one segment). */
const PATTERNS: [RegExp, () => Promise<unknown>][] = Object.entries(PAGES)
  .filter(([path]) => path.includes(":"))
  .map(([path, load]) => [new RegExp(`^${path.replace(/:[^/]+/g, "[^/]+")}$`), load]);
