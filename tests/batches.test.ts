import type { BrowserContext, Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, expectToast, followNavLink, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";

/** A running batch's card (an article named by its heading). */
const card = (page: Page, name: string): Locator => page.getByRole("article", { name, exact: true });

/** A screenshot to look at; dialogs are fixed to the viewport, so those are taken without fullPage. */
async function shoot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: `test-results/${name}.png`, fullPage });
}

const config = {
  irrigation: { on_cycle_hours: 12, off_cycle_liters: 5, soil_moisture_on: 45, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 800 },
  ac: { based_on: "room_temp", target_temp: 16 },
  humidifier: { humidity_on_below: 90, humidity_off_above: 95 },
};

/** A recipe whose first phase waits for the grower: the test confirms it without waiting days. */
const RECIPE = {
  name: "E2E Oyster",
  species: "Oyster",
  phases: [
    { name: "Pinning", days: 5, confirm: "Pins visible", config, ramps: [] },
    { name: "Fruiting", days: 7, confirm: null, config: { ...config, ac: { based_on: "room_temp", target_temp: 18 } }, ramps: [{ setting: "ac.target_temp", to: 17 }] },
    { name: "Rest", days: 10, confirm: null, config, ramps: [] },
  ],
};
const BATCH = "E2E Oyster run";

describe("Batches", () => {
  let app: DemoApp;
  let context: BrowserContext;
  let page: Page;
  let mcuName = "";

  beforeAll(async () => {
    app = await startDemoApp();
    ({ context, page } = await app.newPage("laptop"));
  });
  afterAll(async () => app?.stop());

  it("starts a batch on a free demo MCU and shows it on day 1 of its first phase", async () => {
    await signIn(page);
    await apiCaller(app, context)("post", "/api/recipes", RECIPE);
    await followNavLink(page, "Batches");
    await page.waitForURL("**/batches");
    await page.getByRole("heading", { level: 2, name: "Running batches" }).waitFor();
    // The demo may already run batches: either their cards or the empty state shows.
    await page.getByRole("article").or(page.getByText("No batch is running")).first().waitFor();
    const before = await page.getByRole("article").count();

    await page.getByRole("button", { name: "Start a batch" }).click();
    const dialog = page.getByRole("dialog", { name: "Start a batch" });
    await dialog.getByLabel("Recipe").waitFor();
    const recipeValue = await dialog.getByLabel("Recipe").locator("option", { hasText: "E2E Oyster" }).getAttribute("value");
    await dialog.getByLabel("Recipe").selectOption(recipeValue!);
    // The proposed name follows the recipe.
    expect(await dialog.getByLabel("Batch name").inputValue()).toMatch(/^E2E Oyster /);
    expect(await dialog.getByLabel("Time zone").inputValue()).not.toBe("");

    // Sent without an MCU: the server's message, under the MCUs.
    await dialog.getByLabel("Batch name").fill(BATCH);
    await dialog.getByRole("button", { name: "Start batch" }).click();
    await dialog.getByText("Choose at least one MCU").waitFor();

    const free = dialog.getByRole("checkbox", { disabled: false }).first();
    mcuName = (await free.locator("xpath=..").innerText()).trim();
    await free.check();
    await shoot(page, "batches-start-dialog-laptop", false);
    await dialog.getByRole("button", { name: "Start batch" }).click();
    await expectToast(page, `Batch ${BATCH} started`);
    await dialog.waitFor({ state: "detached" });

    const batch = card(page, BATCH);
    await batch.waitFor();
    expect(await page.getByRole("article").count()).toBe(before + 1);
    const text = await batch.textContent();
    expect(text).toContain("Pinning · day 1 · waiting: Pins visible");
    expect(text).toContain("E2E Oyster · version 1");
    expect(text).toContain(mcuName);
    expect(text).toMatch(/Next: Fruiting when “Pins visible” is confirmed, by .+ at the latest/);
    expect(text).toContain("0 kg");
    expect(await batch.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("Phase 1 of 3: Pinning · day 1 · waiting: Pins visible");

    // The MCU is taken now: a second batch cannot use it.
    await page.getByRole("button", { name: "Start a batch" }).click();
    const again = page.getByRole("dialog", { name: "Start a batch" });
    await again.getByText(`in ${BATCH}`).waitFor();
    await again.getByRole("button", { name: "Cancel" }).click();
    await again.waitFor({ state: "detached" });
    await shoot(page, "batches-laptop");
  });

  it("holds and resumes the batch from its page", async () => {
    await card(page, BATCH).getByRole("link", { name: `Open batch ${BATCH}` }).click();
    await page.getByRole("heading", { level: 2, name: BATCH }).waitFor();
    await page.getByRole("button", { name: "Hold", exact: true }).click();
    const hold = page.getByRole("dialog", { name: "Hold batch" });
    await hold.getByLabel("Reason (optional)").fill("Casing too wet");
    await hold.getByRole("button", { name: "Hold batch" }).click();
    await expectToast(page, `${BATCH} is on hold`);
    await page.getByText("Pinning · on hold").waitFor();

    await page.getByRole("button", { name: "Resume", exact: true }).click();
    await page.getByRole("dialog", { name: "Resume batch" }).getByRole("button", { name: "Resume batch" }).click();
    await expectToast(page, `${BATCH} resumed`);
    await page.getByText("Pinning · day 1 · waiting: Pins visible").waitFor();
    const log = page.getByRole("region", { name: "Event log" });
    await log.getByText("Put on hold").waitFor();
    expect(await log.textContent()).toContain("“Casing too wet”");
    expect(await log.textContent()).toContain("by demo");
  });

  it("on a phone, confirms the pins and records a harvest, and shows the yield", async () => {
    const phone = await app.newPage("phone");
    const p = phone.page;
    await signIn(p);
    await followNavLink(p, "Batches");
    await card(p, BATCH).getByRole("link", { name: `Open batch ${BATCH}` }).click();
    await p.getByRole("heading", { level: 2, name: BATCH }).waitFor();
    const overflow = await p.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow).toBe(0);
    await shoot(p, "batch-phone");

    const confirmButton = p.getByRole("button", { name: "Confirm: Pins visible" });
    // Big enough for a wet thumb.
    expect((await confirmButton.boundingBox())!.height).toBeGreaterThanOrEqual(48);
    await confirmButton.click();
    const dialog = p.getByRole("dialog", { name: "Confirm: Pins visible" });
    await dialog.getByText("Pinning ends now and Fruiting starts.").waitFor();
    await shoot(p, "batch-phone-confirm", false);
    await dialog.getByRole("button", { name: "Confirm: Pins visible" }).click();
    await expectToast(p, "Pins visible confirmed: Fruiting started");
    await p.getByText("Fruiting · day 1 of 7").waitFor();
    expect(await p.getByRole("button", { name: "Confirm: Pins visible" }).count()).toBe(0);
    await p.getByRole("listitem").filter({ hasText: "Confirmed “Pins visible”" }).waitFor();

    // A weight the server refuses is said under the field, before any send.
    const harvests = p.getByRole("region", { name: "Harvests" });
    await harvests.getByRole("button", { name: "Record flush 1" }).click();
    await harvests.getByText("Fresh weight (kg) is required").waitFor();
    await harvests.getByLabel("Fresh weight (kg)").fill("0");
    await harvests.getByText("Fresh weight (kg) must be between 0.001 and 100000").waitFor();
    await harvests.getByLabel("Fresh weight (kg)").fill("4.25");
    await harvests.getByLabel("Note (optional)").fill("Clean caps");
    await harvests.getByRole("button", { name: "Record flush 1" }).click();
    await expectToast(p, "Flush 1: 4.25 kg recorded");
    await harvests.getByRole("button", { name: "Record flush 2" }).waitFor();
    expect(await harvests.getByLabel("Fresh weight (kg)").inputValue()).toBe("");
    const yieldBox = harvests.getByRole("definition").first();
    expect(await yieldBox.textContent()).toBe("4.25 kg");
    expect(await harvests.getByRole("row").filter({ hasText: "Clean caps" }).textContent()).toContain("4.25 kg");
    await harvests.getByText("Needs the substrate's dry weight").waitFor();

    await harvests.getByLabel("Substrate dry weight (kg)").fill("10");
    await harvests.getByRole("button", { name: "Save dry weight" }).click();
    await expectToast(p, "Substrate dry weight saved: 10 kg");
    await harvests.getByText("42.5 %").waitFor();
    await shoot(p, "batch-phone-harvest");
    await phone.context.close();
  });

  it("shows the batch on the farm calendar, a link to its page", async () => {
    await page.goto("/batches");
    const calendar = page.getByRole("region", { name: "Farm calendar" });
    const bar = calendar.getByRole("link", { name: new RegExp(`^Batch ${BATCH}, Fruiting, .+ to .+$`) });
    // One bar per MCU of the batch.
    await expect.poll(() => bar.count()).toBe(1);
    expect(await calendar.getByRole("listitem").filter({ hasText: mcuName }).getByRole("link").count()).toBeGreaterThanOrEqual(1);
    await card(page, BATCH).getByText("Fruiting · day 1 of 7").waitFor();
    expect(await card(page, BATCH).textContent()).toContain("4.25 kg · 1 flush");
    await shoot(page, "batches-laptop-after");
    await bar.click();
    await page.getByRole("heading", { level: 2, name: BATCH }).waitFor();
  });

  it("fits a phone and a wall screen", async () => {
    for (const size of ["phone", "wall"] as const) {
      const { context: c, page: p } = await app.newPage(size);
      await signIn(p);
      await p.goto("/batches");
      await card(p, BATCH).waitFor();
      const overflow = await p.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      expect(overflow).toBe(0);
      await shoot(p, `batches-${size}`);
      await c.close();
    }
  });
});
