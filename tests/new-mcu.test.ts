import type { BrowserContext, Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectToast, signedInClientId, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";
import { scrollToCard } from "./support/virtual-list.ts";
import { demoClaimCode } from "../server/devices/device-keys.ts";

/**
 * A newly added MCU can be switched. The unclaimed demo MCU (README, "The demo
 * farm") is simulated and reporting before anyone claims it; its "online" went unheard then.
 */
const STOCK_MAC = "02:4D:46:00:01:01";
const NAME = "Grow Room One";
const SHOTS = "/work/briefs/shots";

const mcuCard = (page: Page) => page.getByRole("article", { name: NAME, exact: true });

/** The device's state as the switch shows it once nothing is pending. */
async function settled(toggle: Locator): Promise<string | null> {
  await expect.poll(() => toggle.getAttribute("aria-busy"), { timeout: 10_000 }).not.toBe("true");
  return toggle.getAttribute("aria-checked");
}

/** Waits until the card shows a newer reading than it does now. */
async function nextReading(card: Locator) {
  const lastUpdated = () => card.getByText(/^Last updated:/).innerText();
  const before = await lastUpdated();
  await expect.poll(lastUpdated, { timeout: 15_000 }).not.toBe(before);
}

describe("a newly added MCU", () => {
  let app: DemoApp;
  let context: BrowserContext;
  let page: Page;
  let clientId: number;

  beforeAll(async () => {
    app = await startDemoApp();
    ({ context, page } = await app.newPage("laptop"));
    await signIn(page);
    clientId = await signedInClientId(page);
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await app?.stop();
  });

  it("is added through the MCU Manager's Add MCU dialog", async () => {
    await page.getByRole("link", { name: "MCU Manager" }).click();
    await page.waitForURL("**/mcu");
    await page.getByRole("button", { name: "Add MCU" }).click();
    const dialog = page.getByRole("dialog", { name: "Add New MCU" });
    await dialog.getByLabel("MCU Name").fill(NAME);
    await dialog.getByLabel("MAC Address", { exact: true }).fill(STOCK_MAC);
    await dialog.getByLabel("Claim Code", { exact: true }).fill(demoClaimCode(STOCK_MAC));
    await dialog.getByLabel("Assign to Farm").selectOption("North Barn");
    await dialog.getByRole("button", { name: "Add MCU" }).click();
    await expectToast(page, `${NAME} MCU added successfully`);
    await (await scrollToCard(page, NAME)).waitFor();
  });

  it("is online in the API once its device is heard", async () => {
    const statusOf = async () => {
      const res = await context.request.get(`/api/mcus/by-client/${clientId}`);
      expect(res.status()).toBe(200);
      return ((await res.json()) as { mac: string; status: string }[]).find((m) => m.mac === STOCK_MAC)?.status;
    };
    await expect.poll(statusOf, { timeout: 15_000 }).toBe("online");
  });

  it("takes the dashboard's switches: each is acknowledged and keeps its new state", async () => {
    await page.getByRole("link", { name: "Dashboard" }).click();
    await page.waitForURL("**/dashboard");
    // The grid is virtualized: the 13th card is mounted once the window scrolls to it.
    await scrollToCard(page, NAME);
    const card = mcuCard(page);
    await card.getByText("Online", { exact: true }).waitFor({ timeout: 20_000 });
    const automation = card.getByRole("switch", { name: "Ventilation Automation" });
    const status = card.getByRole("switch", { name: "Ventilation Status" });
    await expect.poll(() => automation.isEnabled(), { timeout: 15_000 }).toBe(true);

    // Automation first (while it is on, the device switches Ventilation itself), then Status by hand.
    const automationWas = await settled(automation);
    await automation.click();
    const automationNow = automationWas === "true" ? "false" : "true";
    await expect.poll(() => settled(automation)).toBe(automationNow);
    if (automationNow === "true") {
      await automation.click();
      await expect.poll(() => settled(automation)).toBe("false");
    }
    await expect.poll(() => status.isEnabled()).toBe(true);
    const statusWas = await settled(status);
    await status.click();
    const statusNow = statusWas === "true" ? "false" : "true";
    await expect.poll(() => settled(status)).toBe(statusNow);

    // The device's own reports agree, and nothing was refused.
    await nextReading(card);
    await nextReading(card);
    expect(await status.getAttribute("aria-checked")).toBe(statusNow);
    expect(await automation.getAttribute("aria-checked")).toBe("false");
    expect(await page.getByRole("alert").filter({ hasText: /is offline|did not answer/ }).count()).toBe(0);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: `${SHOTS}/h1-new-mcu-card-laptop.png` });
  });

  it("shows Online in the MCU Manager", async () => {
    await page.getByRole("link", { name: "MCU Manager" }).click();
    await page.waitForURL("**/mcu");
    const card = await scrollToCard(page, NAME);
    await card.getByText("Online", { exact: true }).waitFor({ timeout: 15_000 });
    await page.screenshot({ path: `${SHOTS}/h1-new-mcu-manager-laptop.png` });
  });
});
