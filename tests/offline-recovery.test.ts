import type { Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAVED_LISTS_DB, SAVED_LISTS_STORE } from "../src/worker/saved-lists-db.ts";
import { signIn, startDemoApp, VIEWPORTS, type DemoApp } from "./support/app-harness.ts";
import { listSize } from "./support/virtual-list.ts";

const mcuStat = (page: Page, label: string) => page.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]");
const summaryValue = (page: Page, label: string) => page.locator("li", { has: page.getByText(label, { exact: true }) }).locator("p").nth(1);
const savedNotice = (page: Page) => page.getByRole("status").filter({ hasText: /^Last updated .* ago/ });

/** The names of the lists the data core has saved on this device (read from the page: same origin, same database). */
async function savedListNames(page: Page): Promise<string[]> {
  return page.evaluate(`new Promise((resolve) => {
    const open = indexedDB.open(${JSON.stringify(SAVED_LISTS_DB)});
    // Looking must not make the database: the app makes it.
    open.onupgradeneeded = () => open.transaction.abort();
    open.onerror = () => resolve([]);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains(${JSON.stringify(SAVED_LISTS_STORE)})) { db.close(); return resolve([]); }
      const keys = db.transaction(${JSON.stringify(SAVED_LISTS_STORE)}).objectStore(${JSON.stringify(SAVED_LISTS_STORE)}).getAllKeys();
      keys.onsuccess = () => { db.close(); resolve(keys.result.map((k) => String(k))); };
      keys.onerror = () => { db.close(); resolve([]); };
    };
  })`);
}

/** The screen sizes looked at: a phone, a laptop and a wall screen. */
const SHOT_SIZES = { phone: { width: 390, height: 844 }, laptop: VIEWPORTS.laptop, wall: VIEWPORTS.wall } as const;

async function shoot(page: Page, name: string, size: keyof typeof SHOT_SIZES) {
  await page.setViewportSize(SHOT_SIZES[size]);
  await page.screenshot({ path: `test-results/${name}-${size}.png` });
}

describe("a screen opened while the server is down", () => {
  let app: DemoApp;
  beforeAll(async () => {
    app = await startDemoApp();
  });
  afterAll(() => app?.stop());

  it("shows the lists this device saved, with their age, and goes live again by itself when the server is back", async () => {
    const { page, context } = await app.newPage("laptop");
    await signIn(page);
    // The app shell must come from the service worker once the server is gone.
    await page.waitForFunction("navigator.serviceWorker.ready.then(() => true)");
    await page.reload();
    await page.waitForFunction("navigator.serviceWorker.controller !== null");

    // Live data on the dashboard: the demo's farms and MCUs, some of them online.
    await expect.poll(() => summaryValue(page, "Active MCUs").textContent(), { timeout: 30_000 }).toMatch(/^[1-9]\d*$/);
    const totalFarms = await summaryValue(page, "Total Farms").textContent();
    expect(Number(totalFarms)).toBeGreaterThan(0);
    await expect.poll(() => savedListNames(page), { timeout: 15_000 }).toEqual(expect.arrayContaining([expect.stringMatching(/\/farms$/), expect.stringMatching(/\/mcus$/), expect.stringMatching(/\/profiles$/)]));

    expect(await app.server.stop()).toBe(0);
    await page.getByText("Cannot reach the farm server.", { exact: false }).waitFor({ timeout: 20_000 });

    // The dashboard opened afresh from the offline cache: the farms this device had, not 0.
    await page.goto("/dashboard");
    await savedNotice(page).first().waitFor({ timeout: 20_000 });
    await expect.poll(() => summaryValue(page, "Total Farms").textContent()).toBe(totalFarms);
    expect(await page.getByRole("heading", { level: 3 }).count()).toBeGreaterThan(0);
    for (const size of ["phone", "wall", "laptop"] as const) await shoot(page, "offline-dashboard", size);

    // The MCU Manager opened afresh: the 12 demo MCUs with their age, no load error.
    await page.goto("/mcu");
    await savedNotice(page).first().waitFor({ timeout: 20_000 });
    await expect.poll(() => mcuStat(page, "Total MCUs").textContent()).toBe("12");
    await expect.poll(() => listSize(page.getByRole("list", { name: "MCUs", exact: true }))).toBe(12);
    expect(await page.getByText("MCUs could not be loaded.").count()).toBe(0);
    expect(await page.getByText(/Showing what this device saved .* ago/).count()).toBe(1);
    for (const size of ["phone", "wall", "laptop"] as const) await shoot(page, "offline-mcu", size);

    // The wall opened afresh on its screen: the saved fleet, saying how old it is.
    await page.setViewportSize(SHOT_SIZES.wall);
    await page.goto("/wall?rotate=0");
    await page.getByText(/^Cannot reach the farm server — data saved on this device .* ago\. Trying again…$/).waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByRole("group", { name: /./ }).locator("h3").count()).toBe(12);
    await shoot(page, "offline-wall", "wall");
    await page.setViewportSize(SHOT_SIZES.laptop);
    await page.goto("/mcu");
    await savedNotice(page).first().waitFor({ timeout: 20_000 });

    // The server comes back: the page reloads its lists and goes live by itself, without a click.
    await app.restart();
    const back = Date.now();
    await expect.poll(() => mcuStat(page, "Online").textContent(), { timeout: 30_000 }).toMatch(/^[1-9]\d*$/);
    await savedNotice(page).first().waitFor({ state: "detached", timeout: 30_000 });
    console.log(`live again ${Date.now() - back} ms after the server was back`);
    expect(await mcuStat(page, "Total MCUs").textContent()).toBe("12");
    expect(await page.getByText("MCUs could not be loaded.").count()).toBe(0);
    expect(await page.getByText("Cannot reach the farm server.", { exact: false }).count()).toBe(0);
    await shoot(page, "back-online-mcu", "laptop");
    await context.close();
  });

  it("forgets the saved lists at sign-out", async () => {
    const { page, context } = await app.newPage("laptop");
    await signIn(page);
    await expect.poll(() => savedListNames(page), { timeout: 15_000 }).toEqual(expect.arrayContaining([expect.stringMatching(/\/mcus$/)]));
    if ((page.viewportSize()?.width ?? 0) < 1024) await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("button", { name: "Sign Out" }).click();
    await page.waitForURL("**/login");
    await expect.poll(() => savedListNames(page)).toEqual([]);
    await context.close();
  });
});
