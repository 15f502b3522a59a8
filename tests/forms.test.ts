import type { BrowserContext, Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectToast, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";

/**
 * Forms explain themselves: every mistake under its field at once, the
 * contradictions of a profile refused before anything is sent, and the server's reason shown
 * where the farmer is looking.
 */

/** The error text tied to a control by aria-describedby, once the control is marked invalid. */
async function errorOf(scope: Page | Locator, label: string): Promise<string | null> {
  const control = scope.getByLabel(label, { exact: true });
  await expect.poll(() => control.getAttribute("aria-invalid"), { message: `${label} marked invalid` }).toBe("true");
  const id = (await control.getAttribute("aria-describedby"))!;
  return scope.locator(`[id="${id}"]`).textContent();
}

const focusedName = (page: Page) => page.evaluate("document.activeElement?.getAttribute('name')");

/** Counts the requests of `method` to `url` that reach the route (the data worker's fetches too), and lets them through. */
async function countRequests(context: BrowserContext, url: string, method: string): Promise<() => number> {
  let count = 0;
  await context.route(url, (route) => {
    if (route.request().method() === method) count += 1;
    return route.fallback();
  });
  return () => count;
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/${name}.png` });
}

let app: DemoApp;
beforeAll(async () => {
  app = await startDemoApp();
});
afterAll(async () => app?.stop());

describe("the profile form", () => {
  const fill = async (dialog: Locator, values: Record<string, string>) => {
    for (const [label, value] of Object.entries(values)) await dialog.getByLabel(label, { exact: true }).fill(value);
  };
  const contradictory = {
    "On cycle (hours)": "4",
    "Off cycle (liters)": "12",
    "Soil moisture on (%)": "70",
    "Soil moisture off (%)": "60",
    "CO2 threshold (ppm)": "900",
    "Target temperature (°C)": "18",
    "On below (%)": "95",
    "Off above (%)": "92",
  };

  for (const size of ["laptop", "phone"] as const) {
    it(`shows both contradictions under their fields at once and saves nothing (${size})`, async () => {
      const { context, page } = await app.newPage(size);
      const posts = await countRequests(context, "**/api/setting-profiles", "POST");
      await signIn(page);
      await page.goto("/settings-profile");
      await page.getByRole("article", { name: "Oyster fruiting", exact: true }).waitFor();
      const profiles = await page.getByRole("article").count();

      await page.getByRole("button", { name: "Add New Profile" }).click();
      const dialog = page.getByRole("dialog", { name: "Create Profile" });
      await dialog.getByLabel("Profile Name").fill(`Contrary ${size}`);
      await dialog.getByRole("button", { name: "Next: Define Settings" }).click();
      await fill(dialog, contradictory);
      // Enter submits from the last field (a click right after typing can land where the blur's own messages moved the button).
      await dialog.getByLabel("Off above (%)").press("Enter");

      expect(await errorOf(dialog, "Soil moisture on (%)")).toBe("Must be below Soil moisture off (60 %)");
      expect(await errorOf(dialog, "On below (%)")).toBe("Must be below Humidifier off above (92 %)");
      for (const valid of ["Soil moisture off (%)", "Off above (%)", "On cycle (hours)"]) {
        expect(await dialog.getByLabel(valid, { exact: true }).getAttribute("aria-invalid")).toBeNull();
      }
      // The first field in error takes the focus, so a keyboard or screen-reader user lands on it.
      await expect.poll(() => focusedName(page)).toBe("irrigation.soil_moisture_on");
      await shoot(page, `forms-profile-errors-${size}`);
      // Tabbing on to the humidifier keeps the field and its message clear of the sticky actions.
      await dialog.getByLabel("On below (%)").focus();
      await shoot(page, `forms-profile-errors-${size}-humidifier`);

      // A range mistake shows beside them, and fixing a value clears its message while typing.
      await dialog.getByLabel("Target temperature (°C)").fill("75");
      await dialog.getByRole("button", { name: "Save Settings" }).click();
      expect(await errorOf(dialog, "Target temperature (°C)")).toBe("Target temperature (°C) must be between -20 and 60");
      expect(await errorOf(dialog, "Soil moisture on (%)")).toBe("Must be below Soil moisture off (60 %)");
      await dialog.getByLabel("Off above (%)").fill("97");
      await expect.poll(() => dialog.getByLabel("On below (%)").getAttribute("aria-invalid")).toBeNull();
      expect(posts()).toBe(0);

      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.reload();
      await page.getByRole("article", { name: "Oyster fruiting", exact: true }).waitFor();
      expect(await page.getByRole("article").count()).toBe(profiles);
      expect(await page.getByRole("article", { name: `Contrary ${size}` }).count()).toBe(0);
      expect(posts()).toBe(0);
      await context.close();
    });
  }

  it("shows the server's reason in the dialog when the server refuses, and saves values that agree", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    await page.goto("/settings-profile");
    await page.getByRole("button", { name: "Add New Profile" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Profile" });
    await dialog.getByLabel("Profile Name").fill("Agreeable");
    await dialog.getByRole("button", { name: "Next: Define Settings" }).click();
    await fill(dialog, { ...contradictory, "Soil moisture on (%)": "40", "On below (%)": "85" });

    // A rule only the server knows: its message shows in the dialog (the toast is behind it, inert).
    const refusal = "The farm's storage is full";
    await context.route("**/api/setting-profiles", (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 409, json: { code: "CONFLICT", message: refusal } }) : route.fallback(),
    );
    await dialog.getByRole("button", { name: "Save Settings" }).click();
    await dialog.getByRole("alert").filter({ hasText: refusal }).waitFor();
    await page.locator(".Toastify").getByText(refusal, { exact: true }).waitFor();
    await context.unroute("**/api/setting-profiles");

    await dialog.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Profile created successfully");
    const card = page.getByRole("article", { name: "Agreeable", exact: true });
    await card.waitFor();
    expect(await card.textContent()).toContain("Soil moisture 40% – 60%");
    await context.close();
  });
});

describe("Settings, Security tab", () => {
  it("shows the server's reason beside the Update password Failed toast", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    await page.goto("/settings");
    await page.getByRole("tab", { name: "Security" }).click();
    const panel = page.getByRole("tabpanel", { name: "Security" });
    // The form asks for no length (SPEC §5); the server keeps passwords to 256 characters.
    const tooLong = "spores-".repeat(40);
    await panel.getByLabel("New Password", { exact: true }).fill(tooLong);
    await panel.getByLabel("Confirm New Password", { exact: true }).fill(tooLong);
    await panel.getByRole("button", { name: "Update Password" }).click();
    await expectToast(page, "Update password Failed");
    await panel.getByRole("alert").filter({ hasText: "Password must be at most 256 characters" }).waitFor();
    await shoot(page, "forms-security-refused-laptop");
    await context.close();
  });
});

describe("Register", () => {
  it("shows Passwords do not match together with the other mistakes", async () => {
    const { context, page } = await app.newPage("phone");
    const registrations = await countRequests(context, "**/api/clients", "POST");
    await page.goto("/register");
    await page.getByLabel("Username", { exact: true }).fill("ab");
    await page.getByLabel("Email", { exact: true }).fill("farmer@");
    await page.getByLabel("Password", { exact: true }).fill("spores-11");
    await page.getByLabel("Confirm Password", { exact: true }).fill("spores-12");
    // Leaving the field judges it: the mismatch shows at once although other fields are still wrong.
    await page.getByLabel("Confirm Password", { exact: true }).blur();
    await page.getByText("Passwords do not match").waitFor();
    await page.getByRole("button", { name: "Create Account" }).click();

    expect(await errorOf(page, "Username")).toBe("Username must be at least 3 characters");
    expect(await errorOf(page, "Email")).toBe("Invalid email address");
    expect(await errorOf(page, "Confirm Password")).toBe("Passwords do not match");
    expect(await errorOf(page, "Mobile")).toBe("Mobile number is required");
    expect(await errorOf(page, "Address")).toBe("Address is required");
    expect(await page.getByLabel("Password", { exact: true }).getAttribute("aria-invalid")).toBeNull();
    await expect.poll(() => focusedName(page)).toBe("username");
    expect(registrations()).toBe(0);
    expect(new URL(page.url()).pathname).toBe("/register");
    await page.screenshot({ path: "test-results/forms-register-errors-phone.png", fullPage: true });
    await context.close();
  });
});
