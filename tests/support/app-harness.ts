import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright";
import { launchChromium } from "./browser.ts";
import { startServer, type ServerProcess } from "./server-process.ts";

/** The screen sizes the app is made for: a phone, a laptop and a wall screen. */
export const VIEWPORTS = {
  phone: { width: 375, height: 812 },
  laptop: { width: 1440, height: 900 },
  wall: { width: 3840, height: 2160 },
} as const;

export const DEMO = { username: "demo", email: "demo@mushroom.farm", password: "grow-mushrooms" } as const;

export interface DemoApp {
  server: ServerProcess;
  browser: Browser;
  url: string;
  /** A fresh browser context (own cookies and storage) with a page at `size`. */
  newPage(size?: keyof typeof VIEWPORTS): Promise<{ context: BrowserContext; page: Page }>;
  /** Stops the server (SIGTERM) and starts it again on the same data folder and port; `server` is the new one. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The built app and the real server (`server/main.ts`) on a fresh data folder with the demo farm
 * and its simulated fleet, and Debian's Chromium. Run `npm run build` first (npm test does).
 */
export async function startDemoApp(env: Record<string, string> = {}, options: { prepare?(dataDir: string): Promise<void> } = {}): Promise<DemoApp> {
  const dataDir = await mkdtemp(join(tmpdir(), "mf-app-"));
  // What a test puts in the data folder before the server first opens it (devices it provisions).
  await options.prepare?.(dataDir);
  // E2E_STATIC_DIR lets parallel work build into its own folder instead of dist/.
  const staticDir: Record<string, string> = process.env.E2E_STATIC_DIR ? { STATIC_DIR: process.env.E2E_STATIC_DIR } : {};
  // No demo incidents unless a test asks: a door opened in the middle of a test would change what it sees.
  const serverEnv = { DATA_DIR: dataDir, DEMO_HZ: "1", DEMO_INCIDENT_MINUTES: "0", ...staticDir, ...env };
  const server = await startServer(serverEnv);
  const browser = await launchChromium();
  const app: DemoApp = {
    server,
    browser,
    url: server.url,
    async newPage(size = "laptop") {
      // Reduced motion: the app then moves nothing (no sliding drawer), so a test never acts on a
      // sidebar that a loaded machine is still animating (seen: a drawer 5 s into a 150 ms slide).
      const context = await browser.newContext({ viewport: VIEWPORTS[size], baseURL: app.url, reducedMotion: "reduce" });
      const page = await context.newPage();
      return { context, page };
    },
    async restart() {
      const code = await app.server.stop();
      if (code !== 0) throw new Error(`server exited with ${code} when stopped:\n${app.server.output()}`);
      app.server = await startServer(serverEnv, { port: Number(new URL(app.url).port) });
    },
    async stop() {
      await browser.close();
      await app.server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return app;
}

/** Signs in through the Login screen and waits for the dashboard. */
export async function signIn(page: Page, username: string = DEMO.username, password: string = DEMO.password): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email or Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL("**/dashboard");
  // Not expect.poll: signIn may run in beforeAll, outside a test.
  await page.waitForFunction("localStorage.getItem('client') !== null");
}

/** The signed-in client's id, as the app keeps it in localStorage. */
export async function signedInClientId(page: Page): Promise<number> {
  return Number(await page.evaluate("JSON.parse(localStorage.getItem('client')).client_id"));
}

/**
 * Calls the API as the signed-in page does (its context's cookie, the app's Origin) and answers
 * the JSON; a refusal throws with the answer's text.
 */
export function apiCaller(app: DemoApp, context: BrowserContext) {
  return async (method: "get" | "post" | "put", path: string, data?: object) => {
    const res = await context.request[method](path, { headers: { Origin: app.url }, ...(data ? { data } : {}) });
    if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
    return res.json();
  };
}

/** The number a card of the dashboard's Summary shows under `label`. */
export async function summaryValue(page: Page, label: string): Promise<number> {
  const card = page.getByRole("region", { name: "Summary" }).getByRole("listitem").filter({ hasText: label });
  return Number(await card.locator("p").nth(1).innerText());
}

/** A toast's text appears (react-toastify renders them with role="alert"). */
export async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  await page.getByRole("alert").filter({ hasText: text }).first().waitFor({ state: "visible", timeout: 10_000 });
}

/**
 * Follows a link of the sidebar. On a narrow screen the sidebar is a drawer: "Open menu" opens it
 * and the link is clicked once the drawer is on screen.
 */
export async function followNavLink(page: Page, name: string): Promise<void> {
  if ((page.viewportSize()?.width ?? 0) < 1024) {
    await page.getByRole("button", { name: "Open menu" }).click();
    await drawer(page, "open");
  }
  await page.getByRole("link", { name, exact: true }).click();
}

/** Waits until the sidebar drawer of a narrow screen is wholly on screen ("open") or wholly off it ("closed"). */
export async function drawer(page: Page, state: "open" | "closed", timeoutMs = 10_000): Promise<void> {
  const sidebar = page.locator("#sidebar");
  const until = Date.now() + timeoutMs;
  for (;;) {
    const box = await sidebar.boundingBox();
    if (box && (state === "open" ? box.x >= 0 : box.x + box.width <= 0)) return;
    if (Date.now() > until) throw new Error(`the sidebar drawer is not ${state} after ${timeoutMs} ms (at x ${box?.x})`);
    await page.waitForTimeout(50);
  }
}
