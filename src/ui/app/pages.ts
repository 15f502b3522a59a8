import type { ComponentType } from "react";

/**
 * Where a screen is shown: to signed-out visitors only, to anyone, signed in on the whole screen
 * (no sidebar), or signed in within the sidebar's layout.
 */
export type Frame = "signed-out" | "open" | "full" | "sidebar";

const screen = (frame: Frame, load: () => Promise<{ default: ComponentType }>) => ({ frame, load });

/**
 * Every screen by path, each written once: its frame and its chunk (each screen loads when first
 * visited). The routes are built from this table (routes.tsx); a sidebar entry is added in NAV
 * (titles.ts).
 */
export const PAGES = {
  "/login": screen("signed-out", () => import("../features/auth/login-page.tsx")),
  "/register": screen("signed-out", () => import("../features/auth/register-page.tsx")),
  "/forgot-password": screen("open", () => import("../features/auth/forgot-password-page.tsx")),
  "/dashboard": screen("sidebar", () => import("../features/dashboard/dashboard-page.tsx")),
  "/farms": screen("sidebar", () => import("../features/farms/farms-page.tsx")),
  "/mcu": screen("sidebar", () => import("../features/mcu/mcu-manager-page.tsx")),
  "/controllers": screen("sidebar", () => import("../features/controllers/controllers-page.tsx")),
  "/sensors": screen("sidebar", () => import("../features/sensors/sensors-page.tsx")),
  "/settings-profile": screen("sidebar", () => import("../features/profiles/profiles-page.tsx")),
  "/recipes": screen("sidebar", () => import("../features/recipes/recipes-page.tsx")),
  "/recipes/:recipeId": screen("sidebar", () => import("../features/recipes/recipe-editor-page.tsx")),
  "/batches": screen("sidebar", () => import("../features/batches/batches-page.tsx")),
  "/batches/:batchId": screen("sidebar", () => import("../features/batches/batch-detail-page.tsx")),
  "/settings": screen("sidebar", () => import("../features/settings/settings-page.tsx")),
  "/alarms": screen("sidebar", () => import("../features/alarms/alarms-page.tsx")),
  // The wall view: full screen, outside the sidebar's layout.
  "/wall": screen("full", () => import("../features/wall/wall-page.tsx")),
  // The history screens bring the chart library (uPlot): only their chunks hold it.
  "/mcu/:mcuId": screen("sidebar", () => import("../features/history/mcu-history-page.tsx")),
  "/farms/:farmId/history": screen("sidebar", () => import("../features/history/farm-history-page.tsx")),
  // Farm teams. Join is reached from an invitation's link, signed in or not (it offers to sign in).
  "/farms/:farmId/members": screen("sidebar", () => import("../features/team/members-page.tsx")),
  "/farms/:farmId/rota": screen("sidebar", () => import("../features/team/rota-page.tsx")),
  "/farms/:farmId/audit": screen("sidebar", () => import("../features/team/audit-page.tsx")),
  "/join": screen("open", () => import("../features/team/join-page.tsx")),
} satisfies Record<string, { frame: Frame; load: () => Promise<{ default: ComponentType }> }>;

export type PagePath = keyof typeof PAGES;

/**
 * Starts loading the chunk of the screen at `pathname` (the dashboard for "/"), so that it arrives
 * while the app's code and the data core start instead of after them. The route's lazy component
 * then finds it loaded. Called by the page's entry, before the app's code is even fetched.
 */
export function preloadPage(pathname: string) {
  const path = pathname === "/" ? "/dashboard" : pathname.replace(/\/$/, "");
  const load = PAGES[path as PagePath]?.load ?? PATTERNS.find(([pattern]) => pattern.test(path))?.[1];
  load?.().catch(() => undefined); // a failure is the route's to show, when it loads the chunk itself
}

/** The paths with parameters, each as a pattern of its own (":mcuId" matches one segment). */
const PATTERNS: [RegExp, () => Promise<unknown>][] = Object.entries(PAGES)
  .filter(([path]) => path.includes(":"))
  .map(([path, { load }]) => [new RegExp(`^${path.replace(/:[^/]+/g, "[^/]+")}$`), load]);
