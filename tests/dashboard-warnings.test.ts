import type { BrowserContext, Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectToast, followNavLink, signedInClientId, signIn, startDemoApp, summaryValue, VIEWPORTS, type DemoApp } from "./support/app-harness.ts";
import { listSize, scrollToCard } from "./support/virtual-list.ts";
import { demoClaimCode } from "../server/devices/device-keys.ts";
import { ALARM_TIMING_ENV } from "./support/alarm-timing.ts";

/** An unclaimed demo MCU from the README: simulated, it starts reporting once claimed. */
const STOCK_MAC = "02:4D:46:00:01:03";
const FARM = "Spore Lab";
const MCU = "Spore Bay";
/** CO2 never falls below 400 ppm in a grow room (nor in the simulator), so this profile is always crossed. */
const TIGHT_PROFILE = "Tight CO2";
const TIGHT_CONFIG = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 350 },
  ac: { based_on: "room_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 93 },
};
const SHOTS = "/work/briefs/shots";

let app: DemoApp;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  // A farm is a warning while it has an open alarm; a short grace period opens it within the test.
  app = await startDemoApp(ALARM_TIMING_ENV);
  ({ context, page } = await app.newPage("laptop"));
  await signIn(page);
  // A farm of its own with one new MCU and no profile yet: nothing else decides its status.
  const clientId = await signedInClientId(page);
  const headers = { Origin: app.url };
  const post = async (path: string, data: object) => {
    const res = await context.request.post(path, { headers, data });
    expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
    return res.json();
  };
  const farm = await post("/api/farms", { name: FARM, location: "Batroun, North", client_id: clientId });
  await post("/api/mcus", { name: MCU, mac: STOCK_MAC, claim_code: demoClaimCode(STOCK_MAC), farm_id: farm.farm_id, status: "active" });
  await post("/api/setting-profiles", { name: TIGHT_PROFILE, client_id: clientId, config: TIGHT_CONFIG });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await app?.stop();
});

async function go(p: Page, link: "Dashboard" | "MCU Manager") {
  await followNavLink(p, link);
  await p.waitForURL(link === "Dashboard" ? "**/dashboard" : "**/mcu");
}

const farmCard = (p: Page, name: string) =>
  p.getByRole("region", { name: "Your Farms" }).getByRole("listitem").filter({ has: p.getByRole("heading", { name, exact: true }) });
const farmBadge = (p: Page, name: string) => farmCard(p, name).locator("h3 + span").innerText();
const mcuCard = (p: Page, name: string) => p.getByRole("article", { name, exact: true });
/** One value of an MCU card's readings grid, by its label. */
const reading = (card: Locator, label: string) => card.locator("dl > div").filter({ has: card.page().locator("dt", { hasText: new RegExp(`^${label}$`) }) });

/** The Warnings card and the farm badges at one moment (the demo farms may change while we look). */
async function warningsAndBadges(p: Page) {
  const badges = await p.getByRole("region", { name: "Your Farms" }).getByRole("listitem").locator("h3 + span").allInnerTexts();
  return { card: await summaryValue(p, "Warnings"), badges: badges.filter((b) => b === "Warning").length };
}

async function linkProfile(profile: string | null) {
  await go(page, "MCU Manager");
  const card = await scrollToCard(page, MCU);
  if (profile) {
    await card.getByLabel(`Profile of ${MCU}`).selectOption({ label: profile });
    await expectToast(page, "Profile linked to MCU");
  } else {
    await card.getByRole("button", { name: `Unlink profile from ${MCU}` }).click();
    await page.getByRole("alertdialog", { name: "Are you sure you want to unlink this profile?" }).getByRole("button", { name: "OK" }).click();
    await expectToast(page, "Profile unlinked");
  }
  await go(page, "Dashboard");
  // The dashboard opens at the top: scroll its (virtualized) grid to the card again.
  await scrollToCard(page, MCU);
}

describe("Dashboard warnings", () => {
  it("shows a newly claimed MCU Online in the MCU Manager once it reports, and counts it", async () => {
    await go(page, "MCU Manager");
    const card = await scrollToCard(page, MCU);
    await expect.poll(() => card.locator("h3 + span").innerText(), { timeout: 30_000 }).toBe("Online");
    const stat = (label: string) => page.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]").innerText();
    const badges = () => page.getByRole("article").locator("h3 + span").allInnerTexts();
    await expect
      .poll(async () => ({ online: Number(await stat("Online")), offline: Number(await stat("Offline")), ...count(await badges()) }))
      .toEqual(expect.objectContaining({ online: 13 }));
    const seen = count(await badges());
    expect([Number(await stat("Online")), Number(await stat("Offline"))]).toEqual([seen.badgesOnline, seen.badgesOffline]);
    await page.getByLabel("Filter by status").selectOption("Online");
    await expect.poll(() => listSize(page.getByRole("list", { name: "MCUs", exact: true }))).toBe(13);
    // Active lists every MCU at work: all 13 report, so all 13 (none is new and silent).
    await page.getByLabel("Filter by status").selectOption("Active");
    await expect.poll(() => listSize(page.getByRole("list", { name: "MCUs", exact: true }))).toBe(13);
    await page.getByRole("button", { name: "Reset" }).click();
  });

  it("marks a value outside its MCU's linked profile at once, turns the farm Warning once its alarm opens, and counts the farm", async () => {
    await go(page, "Dashboard");
    const card = await scrollToCard(page, MCU);
    await card.getByText("Online", { exact: true }).waitFor({ timeout: 30_000 });
    // No profile linked and a full battery: nothing needs attention.
    await expect.poll(() => farmBadge(page, FARM), { timeout: 15_000 }).toBe("Active");
    expect(await card.locator("[data-out-of-profile]").count()).toBe(0);

    await linkProfile(TIGHT_PROFILE);
    const co2 = reading(card, "CO2");
    await co2.getByText("Above 350 ppm").waitFor();
    // The alarm opens after the (test's short) grace period: then the farm is a warning.
    await expect.poll(() => farmBadge(page, FARM), { timeout: 60_000 }).toBe("Warning");
    // Not colour alone: the limit is in words, and a screen reader hears what it means.
    expect(await co2.locator("dd").allTextContents()).toContain("Outside the profile: Above 350 ppm");
    expect(await reading(card, "Soil Temperature").locator("[data-out-of-profile]").count()).toBe(0);
    await expect
      .poll(async () => {
        const w = await warningsAndBadges(page);
        return w.card === w.badges && w.card >= 1;
      })
      .toBe(true);

    await shootDashboards();

    await linkProfile(null);
    // The condition cleared: its alarm resolves after the hold, and the farm is active again.
    await expect.poll(() => farmBadge(page, FARM), { timeout: 60_000 }).toBe("Active");
    expect(await card.locator("[data-out-of-profile]").count()).toBe(0);
  }, 180_000);

  it("disables Status while Automation is on and says why, and frees it once Automation is off", async () => {
    await go(page, "Dashboard");
    const card = mcuCard(page, "Oyster Room A");
    await card.getByText("Online", { exact: true }).waitFor({ timeout: 30_000 });
    const automation = card.getByRole("switch", { name: "Humidifier Automation" });
    const status = card.getByRole("switch", { name: "Humidifier Status" });
    const tile = card.getByRole("group", { name: "Humidifier" });
    await expect.poll(() => automation.isEnabled()).toBe(true);
    expect(await automation.getAttribute("aria-checked")).toBe("true");
    expect(await status.isDisabled()).toBe(true);
    expect(await tile.getByText("Automation is on", { exact: true }).isVisible()).toBe(true);
    // The reason is the switch's description, so a screen reader says it with the switch.
    const describedBy = (await status.getAttribute("aria-describedby"))!;
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe("Automation is on");

    await automation.click();
    await expect.poll(() => automation.getAttribute("aria-checked")).toBe("false");
    await expect.poll(() => status.isEnabled()).toBe(true);
    expect(await tile.getByText("Automation is on").count()).toBe(0);
    await automation.click();
    await expect.poll(() => status.isDisabled()).toBe(true);
  });

  it("gives every switch a 44 px hit area apart from the others, inside its tile, on a phone", async () => {
    const { context: c, page: p } = await app.newPage("phone");
    try {
      await signIn(p);
      const card = mcuCard(p, "Oyster Room A");
      await card.getByText("Online", { exact: true }).waitFor({ timeout: 30_000 });
      const geometry = await card.evaluate((article) => {
        const switches = [...article.querySelectorAll('[role="switch"]')];
        return switches.map((s) => {
          const [sw, tile, label] = [s, s.closest('[role="group"]')!, article.querySelector(`label[for="${s.id}"]`)!].map((e) => {
            const r = e.getBoundingClientRect();
            return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
          });
          return { sw: sw!, tile: tile!, label: label! };
        });
      });
      expect(geometry).toHaveLength(8);
      for (const { sw, tile, label } of geometry) {
        expect(sw.width).toBeGreaterThanOrEqual(44);
        // Label and switch share a row: the tile is wide enough for both.
        expect(label.top).toBeLessThan(sw.bottom);
        expect(label.bottom).toBeGreaterThan(sw.top);
        expect(sw.height).toBeGreaterThanOrEqual(44);
        expect(sw.left).toBeGreaterThanOrEqual(tile.left);
        expect(sw.right).toBeLessThanOrEqual(tile.right);
      }
      type Box = (typeof geometry)[number]["sw"];
      const apart = (a: Box, b: Box) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      for (const [i, { sw: a }] of geometry.entries()) for (const { sw: b } of geometry.slice(i + 1)) expect(apart(a, b)).toBe(true);
      expect(await p.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);
      await card.scrollIntoViewIfNeeded();
      await p.screenshot({ path: `${SHOTS}/h4-switches-phone.png` });
    } finally {
      await c.close();
    }
  });
});

function count(badges: string[]) {
  return { badgesOnline: badges.filter((b) => b === "Online").length, badgesOffline: badges.filter((b) => b === "Offline").length };
}

/** The dashboard with the warning showing, at each screen size, for a person to look at. */
async function shootDashboards() {
  for (const size of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) {
    const { context: c, page: p } = await app.newPage(size);
    try {
      await signIn(p);
      await expect.poll(() => farmBadge(p, FARM), { timeout: 30_000 }).toBe("Warning");
      await reading(await scrollToCard(p, MCU), "CO2").getByText("Above 350 ppm").waitFor({ timeout: 30_000 });
      await p.evaluate("window.scrollTo(0, 0)");
      await p.screenshot({ path: `${SHOTS}/h4-dashboard-${size}.png` });
      await (await scrollToCard(p, MCU)).scrollIntoViewIfNeeded();
      await p.screenshot({ path: `${SHOTS}/h4-dashboard-${size}-card.png` });
    } finally {
      await c.close();
    }
  }
}
