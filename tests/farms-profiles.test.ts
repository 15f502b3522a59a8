import type { BrowserContext, Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectToast, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";

/** The card (an article named by its heading) of one farm or profile. */
const card = (page: Page, name: string): Locator => page.getByRole("article", { name, exact: true });

/**
 * A toast shown while a dialog is open: Headless UI makes everything outside the dialog inert and
 * aria-hidden, the toasts too, so it is found by its container rather than by its role.
 */
const toastBehindDialog = (page: Page, text: string): Locator => page.locator(".Toastify").getByText(text, { exact: true });

/** A screenshot to look at; dialogs are fixed to the viewport, so those are taken without fullPage. */
async function shoot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: `test-results/${name}.png`, fullPage });
}

describe("Manage Farms", () => {
  let app: DemoApp;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    app = await startDemoApp();
    ({ context, page } = await app.newPage("laptop"));
  });
  afterAll(async () => app?.stop());

  // The harness's signIn polls with expect, which Vitest allows only inside a test, not in beforeAll.
  it("lists the demo farms with location, MCU count, created date and connected MCUs", async () => {
    await signIn(page);
    await page.goto("/farms");
    await page.getByRole("heading", { level: 2, name: "Manage Farms" }).waitFor();
    const cedar = card(page, "Cedar Cellar");
    await cedar.waitFor();
    await expect.poll(() => page.getByRole("article").count()).toBe(3);
    expect(await cedar.getByText("Byblos, Mount Lebanon").isVisible()).toBe(true);
    expect(await cedar.locator("dt", { hasText: "MCUs" }).locator("xpath=following-sibling::dd").textContent()).toBe("4");
    expect(await cedar.locator("dt", { hasText: "Created" }).locator("xpath=following-sibling::dd").textContent()).toMatch(/\d{4}/);
    const mcus = await cedar.getByRole("listitem").allTextContents();
    expect(mcus).toHaveLength(4);
    expect(mcus[0]).toMatch(/^Oyster Room AID \d+$/);
    await shoot(page, "farms-laptop");
  });

  it("shows the required messages, then creates a farm that has no MCUs yet", async () => {
    await page.getByRole("button", { name: "Add New Farm" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Farm" });
    await dialog.waitFor({ state: "attached" });
    await dialog.getByRole("button", { name: "Create Farm" }).click();
    await dialog.getByText("Farm name is required").waitFor();
    await dialog.getByText("Location is required").waitFor();
    expect(await dialog.getByLabel("Farm Name").getAttribute("aria-invalid")).toBe("true");

    await dialog.getByLabel("Farm Name").fill("Mushroom Hollow");
    await dialog.getByLabel("Location").fill("Jbeil, Mount Lebanon");
    await dialog.getByRole("button", { name: "Create Farm" }).click();
    await expectToast(page, "Mushroom Hollow Farm added successfully");
    await dialog.waitFor({ state: "detached" });

    const hollow = card(page, "Mushroom Hollow");
    await hollow.getByText("No MCUs connected").waitFor();
    expect(await hollow.getByText("Jbeil, Mount Lebanon").isVisible()).toBe(true);
    expect(await hollow.getByRole("link", { name: "Add MCU" }).getAttribute("href")).toBe("/mcu");
    await shoot(page, "farms-laptop-new-farm");
  });

  it("says Creation failed, with the server's reason, and keeps the form when the server refuses", async () => {
    await context.route("**/api/farms", (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 409, json: { code: "CONFLICT", message: "A farm with this name already exists" } }) : route.fallback(),
    );
    await page.getByRole("button", { name: "Add New Farm" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Farm" });
    await dialog.getByLabel("Farm Name").fill("Cedar Cellar");
    await dialog.getByLabel("Location").fill("Byblos");
    await dialog.getByRole("button", { name: "Create Farm" }).click();
    await dialog.getByRole("alert").filter({ hasText: "Creation failed: A farm with this name already exists" }).waitFor();
    await toastBehindDialog(page, "Creation failed").waitFor();
    expect(await dialog.getByLabel("Farm Name").inputValue()).toBe("Cedar Cellar");
    await context.unroute("**/api/farms");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await page.getByRole("article").count()).toBe(4);
  });

  it("updates a farm from its prefilled form", async () => {
    await page.getByRole("button", { name: "Edit farm Mushroom Hollow" }).click();
    const dialog = page.getByRole("dialog", { name: "Update Farm" });
    await dialog.waitFor({ state: "attached" });
    expect(await dialog.getByLabel("Farm Name").inputValue()).toBe("Mushroom Hollow");
    expect(await dialog.getByLabel("Location").inputValue()).toBe("Jbeil, Mount Lebanon");
    await dialog.getByLabel("Farm Name").fill("Mushroom Hollow East");
    await dialog.getByRole("button", { name: "Update Farm" }).click();
    await expectToast(page, "Mushroom Hollow East Farm updated successfully");
    await card(page, "Mushroom Hollow East").waitFor();
    expect(await card(page, "Mushroom Hollow").count()).toBe(0);
  });

  it("deletes a farm only after the confirmation, with the server's message", async () => {
    const target = card(page, "Mushroom Hollow East");
    await page.getByRole("button", { name: "Delete farm Mushroom Hollow East" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Are you sure you want to delete this farm?" });
    await confirm.waitFor({ state: "attached" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    expect(await target.isVisible()).toBe(true);

    await page.getByRole("button", { name: "Delete farm Mushroom Hollow East" }).click();
    await confirm.getByRole("button", { name: "OK" }).click();
    await expectToast(page, "Farm deleted successfully");
    await target.waitFor({ state: "detached" });
    await page.reload();
    await card(page, "Cedar Cellar").waitFor();
    expect(await target.count()).toBe(0);
  });

  it("keeps a farm that still has MCUs and tells the farmer why", async () => {
    await page.getByRole("button", { name: "Delete farm Cedar Cellar" }).click();
    await page.getByRole("alertdialog", { name: "Are you sure you want to delete this farm?" }).getByRole("button", { name: "OK" }).click();
    await expectToast(page, "Delete Farm failed: This farm still has 4 MCUs. Move or delete them first.");
    expect(await card(page, "Cedar Cellar").isVisible()).toBe(true);
    await page.waitForTimeout(1000); // the toast's entry animation, for the screenshot only
    await shoot(page, "farms-laptop-delete-refused", false);
  });

  it("shows the server's message and a retry when the farms fail to load", async () => {
    const { context, page: p } = await app.newPage("laptop");
    await signIn(p);
    await context.route("**/api/farms/myfarms/get**", (route) => route.fulfill({ status: 503, json: { code: "UNAVAILABLE", message: "The farm list is resting" } }));
    await p.goto("/farms");
    await expectToast(p, "The farm list is resting");
    const retry = p.getByRole("button", { name: "Try again" });
    await retry.waitFor();
    expect(await p.getByRole("button", { name: "Add New Farm" }).isEnabled()).toBe(true);
    await context.unroute("**/api/farms/myfarms/get**");
    await retry.click();
    await card(p, "Cedar Cellar").waitFor();
    await context.close();
  });

  it("fits a phone and a wall screen", async () => {
    for (const size of ["phone", "wall"] as const) {
      const { context, page: p } = await app.newPage(size);
      await signIn(p);
      await p.goto("/farms");
      await card(p, "North Barn").waitFor();
      const overflow = await p.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      expect(overflow).toBe(0);
      await shoot(p, `farms-${size}`);
      if (size === "phone") {
        await p.getByRole("button", { name: "Add New Farm" }).click();
        await p.getByRole("dialog", { name: "Create Farm" }).getByRole("button", { name: "Create Farm" }).click();
        await p.getByText("Location is required").waitFor();
        await shoot(p, "farms-phone-form", false);
      }
      await context.close();
    }
  });
});

describe("Manage Setting Profiles", () => {
  let app: DemoApp;
  let page: Page;

  beforeAll(async () => {
    app = await startDemoApp();
    ({ page } = await app.newPage("laptop"));
  });
  afterAll(async () => app?.stop());

  it("summarises each demo profile with its units and linked MCUs", async () => {
    await signIn(page);
    await page.goto("/settings-profile");
    await page.getByRole("heading", { level: 2, name: "Manage Setting Profiles" }).waitFor();
    const oyster = card(page, "Oyster fruiting");
    await oyster.waitFor();
    await expect.poll(() => page.getByRole("article").count()).toBe(3);
    const text = await oyster.textContent();
    for (const part of ["5 MCUs linked", "On 4 hours / Off 12 liters", "Soil moisture 40% – 65%", "CO2 threshold 800 ppm", "Target 18 °C", "Based on room temperature", "On below 85%", "Off above 93%"]) {
      expect(text).toContain(part);
    }
    expect(await card(page, "Shiitake incubation").textContent()).toContain("Based on soil temperature");
    await shoot(page, "profiles-laptop");
  });

  it("creates a profile in two steps, with the required messages of each", async () => {
    await page.getByRole("button", { name: "Add New Profile" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Profile" });
    await dialog.getByRole("button", { name: "Next: Define Settings" }).click();
    await dialog.getByText("Name is required").waitFor();
    await dialog.getByLabel("Profile Name").fill("Button cropping");
    await dialog.getByRole("button", { name: "Next: Define Settings" }).click();

    const onCycle = dialog.getByLabel("On cycle (hours)");
    await onCycle.waitFor();
    await expect.poll(() => page.evaluate("document.activeElement?.getAttribute('name')")).toBe("irrigation.on_cycle_hours");
    expect(await dialog.getByLabel("Based on").inputValue()).toBe("soil_temp");
    await dialog.getByRole("button", { name: "Save Settings" }).click();
    await dialog.getByText("On cycle (hours) is required").waitFor();
    await dialog.getByText("CO2 threshold (ppm) is required").waitFor();
    await shoot(page, "profiles-laptop-form-errors", false);

    await onCycle.fill("5");
    await dialog.getByLabel("Off cycle (liters)").fill("15");
    await dialog.getByLabel("Soil moisture on (%)").fill("42");
    await dialog.getByLabel("Soil moisture off (%)").fill("68");
    await dialog.getByLabel("CO2 threshold (ppm)").fill("900");
    await dialog.getByLabel("Based on").selectOption("room_temp");
    await dialog.getByLabel("Target temperature (°C)").fill("17.5");
    await dialog.getByLabel("On below (%)").fill("86");
    await dialog.getByLabel("Off above (%)").fill("94");
    await dialog.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Profile created successfully");
    await dialog.waitFor({ state: "detached" });

    const created = card(page, "Button cropping");
    await created.waitFor();
    const text = await created.textContent();
    for (const part of ["No MCUs linked", "On 5 hours / Off 15 liters", "Soil moisture 42% – 68%", "CO2 threshold 900 ppm", "Target 17.5 °C", "Based on room temperature", "On below 86%", "Off above 94%"]) {
      expect(text).toContain(part);
    }
  });

  it("keeps both steps' values on Back and refuses a value out of range under its field", async () => {
    await page.getByRole("button", { name: "Edit profile Button cropping" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Profile" });
    expect(await dialog.getByLabel("Profile Name").inputValue()).toBe("Button cropping");
    await dialog.getByRole("button", { name: "Next: Define Settings" }).click();
    expect(await dialog.getByLabel("CO2 threshold (ppm)").inputValue()).toBe("900");
    expect(await dialog.getByLabel("Target temperature (°C)").inputValue()).toBe("17.5");
    expect(await dialog.getByLabel("Based on").inputValue()).toBe("room_temp");
    await dialog.getByLabel("Soil moisture on (%)").fill("150");
    await dialog.getByRole("button", { name: "Back" }).click();
    await dialog.getByLabel("Profile Name").fill("Button cropping late");
    await dialog.getByRole("button", { name: "Next: Define Settings" }).click();
    expect(await dialog.getByLabel("Soil moisture on (%)").inputValue()).toBe("150");
    await dialog.getByRole("button", { name: "Save Settings" }).click();
    await dialog.getByText("Soil moisture on (%) must be between 0 and 100").waitFor();
    expect(await dialog.getByLabel("Soil moisture on (%)").getAttribute("aria-invalid")).toBe("true");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await card(page, "Button cropping").textContent()).toContain("Soil moisture 42% – 68%");
  });

  it("updates a profile from its prefilled form", async () => {
    await page.getByRole("button", { name: "Edit profile Button cropping" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Profile" });
    await dialog.getByLabel("Profile Name").fill("Button cropping late");
    await dialog.getByRole("button", { name: "Next: Define Settings" }).click();
    await dialog.getByLabel("CO2 threshold (ppm)").fill("1000");
    await dialog.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Profile updated successfully");
    const updated = card(page, "Button cropping late");
    await updated.waitFor();
    expect(await updated.textContent()).toContain("CO2 threshold 1000 ppm");
    expect(await updated.textContent()).toContain("Target 17.5 °C");
    await page.reload();
    expect(await card(page, "Button cropping late").textContent()).toContain("CO2 threshold 1000 ppm");
  });

  it("deletes a profile after the confirmation, with the server's message", async () => {
    const target = card(page, "Button cropping late");
    await page.getByRole("button", { name: "Delete profile Button cropping late" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Are you sure you want to delete this profile?" });
    await confirm.getByRole("button", { name: "OK" }).click();
    await expectToast(page, "Profile deleted successfully");
    await target.waitFor({ state: "detached" });
    expect(await page.getByRole("article").count()).toBe(3);
  });

  it("toasts and offers a retry when the profiles fail to load", async () => {
    const { context, page: p } = await app.newPage("laptop");
    await signIn(p);
    await context.route("**/api/setting-profiles/*", (route) => route.fulfill({ status: 503, json: { code: "UNAVAILABLE", message: "Resting" } }));
    await p.goto("/settings-profile");
    await expectToast(p, "Failed to load setting profiles");
    await context.unroute("**/api/setting-profiles/*");
    await p.getByRole("button", { name: "Try again" }).click();
    await card(p, "Oyster fruiting").waitFor();
    await context.close();
  });

  it("fits a phone and a wall screen", async () => {
    for (const size of ["phone", "wall"] as const) {
      const { context, page: p } = await app.newPage(size);
      await signIn(p);
      await p.goto("/settings-profile");
      await card(p, "Lion's mane pinning").waitFor();
      const overflow = await p.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      expect(overflow).toBe(0);
      await shoot(p, `profiles-${size}`);
      if (size === "phone") {
        await p.getByRole("button", { name: "Edit profile Oyster fruiting" }).click();
        await p.getByRole("button", { name: "Next: Define Settings" }).click();
        await p.getByLabel("On cycle (hours)").waitFor();
        await shoot(p, "profiles-phone-form", false);
      }
      await context.close();
    }
  });
});
