import type { Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectToast, signIn, startDemoApp, summaryValue, type DemoApp } from "./support/app-harness.ts";
import { listSize } from "./support/virtual-list.ts";

/** The demo farm (server/simulator/demo.ts). */
const DEMO_FARMS = [
  { name: "Cedar Cellar", location: "Byblos, Mount Lebanon" },
  { name: "Valley Tunnels", location: "Zahle, Bekaa" },
  { name: "North Barn", location: "Tripoli, North" },
];
const FIRST_MCU = "Oyster Room A";

let app: DemoApp;

beforeAll(async () => {
  app = await startDemoApp();
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

async function dashboard(size: "phone" | "laptop" | "wall" = "laptop") {
  const { context, page } = await app.newPage(size);
  await signIn(page);
  return { context, page };
}

const mcuCards = (page: Page) => page.getByRole("region", { name: "MCU Readings" }).getByRole("article");
/** The MCU grid is virtualized: the number of MCUs it lists is its aria-setsize. */
const mcuCount = (page: Page) => listSize(page.getByRole("list", { name: "MCU Readings", exact: true }));
const mcuCard = (page: Page, name: string) => page.getByRole("article", { name });
const readingsOf = (card: Locator) => card.locator("dl").innerText();
const lastUpdatedOf = (card: Locator) => card.getByText(/^Last updated:/).innerText();

async function waitOnline(card: Locator) {
  await card.getByText("Online", { exact: true }).waitFor({ timeout: 20_000 });
}

/** Waits until the card shows a newer reading than it does now. */
async function nextReading(card: Locator) {
  const before = await lastUpdatedOf(card);
  await expect.poll(() => lastUpdatedOf(card), { timeout: 15_000 }).not.toBe(before);
}

describe("Dashboard", () => {
  it("summarises the 3 farms and the 12 MCUs, online or not", async () => {
    const { context, page } = await dashboard();
    await expect.poll(() => summaryValue(page, "Total Farms"), { timeout: 15_000 }).toBe(3);
    // The simulated fleet reports every second: once the socket has its snapshot all 12 are online.
    await expect.poll(() => summaryValue(page, "Active MCUs"), { timeout: 20_000 }).toBeGreaterThan(0);
    const active = await summaryValue(page, "Active MCUs");
    const offline = await summaryValue(page, "Offline MCUs");
    expect(active + offline).toBe(12);
    const farms = page.getByRole("region", { name: "Your Farms" }).getByRole("listitem");
    // Farm statuses follow the live readings, so compare both at one moment.
    await expect.poll(async () => (await summaryValue(page, "Warnings")) - (await farms.filter({ hasText: "Warning" }).count())).toBe(0);
    await context.close();
  });

  it("lists the 3 demo farms with location, MCU count and an Add Farm link", async () => {
    const { context, page } = await dashboard();
    const farms = page.getByRole("region", { name: "Your Farms" });
    await expect.poll(() => farms.getByRole("heading", { level: 3 }).allInnerTexts(), { timeout: 15_000 }).toEqual(DEMO_FARMS.map((f) => f.name));
    for (const f of DEMO_FARMS) {
      const card = farms.getByRole("listitem").filter({ has: page.getByRole("heading", { name: f.name }) });
      expect(await card.innerText()).toContain(f.location);
      expect(await card.innerText()).toMatch(/MCUs:\s*4/);
      expect(await card.innerText()).toMatch(/Active|Warning|Offline/);
      expect(await card.locator("time").count()).toBe(1);
    }
    expect(await farms.getByRole("link", { name: "Add Farm" }).getAttribute("href")).toBe("/farms");
    expect(await page.getByRole("region", { name: "MCU Readings" }).getByRole("link", { name: "View All" }).getAttribute("href")).toBe("/mcu");
    await context.close();
  });

  it("shows a card per MCU whose live values change over time", async () => {
    const { context, page } = await dashboard();
    await expect.poll(() => mcuCount(page), { timeout: 15_000 }).toBe(12);
    const card = mcuCard(page, FIRST_MCU);
    await waitOnline(card);
    expect(await card.innerText()).toContain("Cedar Cellar");
    expect(await card.innerText()).toContain("Oyster fruiting");
    // This MCU has two Humidity sensors (DHT), one Soil_temp and one CO2, all reporting.
    const readings = await readingsOf(card);
    // A value outside the linked profile carries its limit between the value and the count.
    const mark = String.raw`(?:Outside the profile:\s+(?:Above|Below|Target) -?[\d.]+ \S+\s+)?`;
    expect(readings).toMatch(new RegExp(String.raw`Temperature\s+[\d.]+ °C\s+${mark}2/2 sensors`));
    expect(readings).toMatch(new RegExp(String.raw`Humidity\s+[\d.]+ %\s+${mark}2/2 sensors`));
    expect(readings).toMatch(new RegExp(String.raw`Soil Temperature\s+[\d.]+ °C\s+${mark}1/1 sensors`));
    expect(readings).toMatch(new RegExp(String.raw`CO2\s+[\d,]+ ppm\s+${mark}1/1 sensors`));
    expect(await lastUpdatedOf(card)).not.toContain("No data");
    await expect.poll(() => readingsOf(card), { timeout: 30_000 }).not.toBe(readings);
    await context.close();
  });

  it("switches a device by hand once Automation is off, and the device's reports follow", async () => {
    const { context, page } = await dashboard();
    const card = mcuCard(page, FIRST_MCU);
    await waitOnline(card);
    const automation = card.getByRole("switch", { name: "Humidifier Automation" });
    const status = card.getByRole("switch", { name: "Humidifier Status" });
    await expect.poll(() => automation.isEnabled()).toBe(true);
    expect(await automation.getAttribute("aria-checked")).toBe("true");

    // Automation on: the device would refuse a manual switch, so Status is disabled (its reason: tests/dashboard-warnings.test.ts).
    expect(await status.isDisabled()).toBe(true);

    await automation.click();
    await expect.poll(() => automation.getAttribute("aria-checked")).toBe("false");
    await nextReading(card);
    expect(await automation.getAttribute("aria-checked")).toBe("false");

    // Status on (via off if the automation had left it running).
    if ((await status.getAttribute("aria-checked")) === "true") {
      await status.click();
      await expect.poll(() => status.getAttribute("aria-checked")).toBe("false");
      await nextReading(card);
    }
    await status.click();
    await expect.poll(() => status.getAttribute("aria-checked")).toBe("true");
    await nextReading(card);
    await nextReading(card);
    expect(await status.getAttribute("aria-checked")).toBe("true");
    expect(await automation.getAttribute("aria-checked")).toBe("false");
    await context.close();
  });

  it("shows the unread dot on the bell until the notification panel is opened", async () => {
    const { context, page } = await dashboard();
    const dot = page.locator('[data-testid="unread-dot"]');
    await dot.waitFor({ timeout: 15_000 });
    await page.getByRole("button", { name: /^Notifications/ }).click();
    // The dialog element itself has no box (Headless UI: its children are fixed), so wait for its content.
    const panel = page.getByRole("dialog", { name: "Notifications" });
    const close = panel.getByRole("button", { name: "Close notifications" });
    await close.waitFor();
    for (const title of ["Wash day", "Packing Cooler: battery low", "Welcome to Mushroom Farm"]) {
      // An unread title carries a screen-reader-only " (unread)", so match its start.
      await panel.getByRole("listitem").getByText(title).first().waitFor();
    }
    expect(await dot.count()).toBe(0);
    await close.click();
    await close.waitFor({ state: "detached" });
    expect(await dot.count()).toBe(0);
    await context.close();
  });

  it("shows the load failures' toasts and recovers with Try again", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    // Fail the next loads: farms with a server message, MCUs with none (SPEC §8 fallback).
    await context.route("**/api/farms/myfarms/get**", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ code: "INTERNAL", message: "Farms are resting" }) }),
    );
    await context.route("**/api/mcus/by-client/**", (route) => route.fulfill({ status: 502, body: "" }));
    await page.reload();
    await expectToast(page, "Farms are resting");
    await expectToast(page, "Failed to fetch MCU by client");
    const farms = page.getByRole("region", { name: "Your Farms" });
    const mcus = page.getByRole("region", { name: "MCU Readings" });
    await farms.getByRole("alert").filter({ hasText: "Farms are resting" }).waitFor();
    await mcus.getByRole("alert").filter({ hasText: "Failed to fetch MCU by client" }).waitFor();

    await context.unrouteAll();
    await farms.getByRole("button", { name: "Try again" }).click();
    await mcus.getByRole("button", { name: "Try again" }).click();
    await expect.poll(() => farms.getByRole("heading", { level: 3 }).count(), { timeout: 15_000 }).toBe(3);
    await expect.poll(() => mcuCount(page), { timeout: 15_000 }).toBe(12);
    expect(await farms.getByRole("alert").count()).toBe(0);
    await context.close();
  });

  it("fits a phone, a laptop and a wall screen", async () => {
    const columns = async (page: Page) => {
      const boxes = await Promise.all((await mcuCards(page).all()).slice(0, 8).map((c) => c.boundingBox()));
      return boxes.filter((b) => b && Math.abs(b.y - boxes[0]!.y) < 2).length;
    };
    const expected = { phone: 1, laptop: 3, wall: 6 } as const;
    for (const size of ["phone", "laptop", "wall"] as const) {
      const { context, page } = await dashboard(size);
      await waitOnline(mcuCard(page, FIRST_MCU));
      await expect.poll(() => summaryValue(page, "Active MCUs"), { timeout: 20_000 }).toBe(12);
      expect(await columns(page)).toBe(expected[size]);
      const overflow = await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      expect(overflow).toBe(0);
      // Off-screen cards are not mounted (the grid is virtualized), so grow the viewport to the page for the picture.
      const height = Number(await page.evaluate("document.documentElement.scrollHeight"));
      await page.setViewportSize({ width: page.viewportSize()!.width, height });
      await page.waitForTimeout(300);
      await page.screenshot({ path: `test-results/dashboard-${size}.png`, fullPage: true });
      await context.close();
    }
  }, 120_000);
});
