import type { BrowserContext, Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, expectToast, followNavLink, signedInClientId, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";

/** A recipe's card: an article named by its heading. */
const card = (page: Page, name: string): Locator => page.getByRole("article", { name, exact: true });

/** A screenshot to look at. */
async function shoot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: `test-results/${name}.png`, fullPage });
}

/** One phase of the editor: the list item whose toggle starts with its number. */
const phase = (page: Page, n: number): Locator => page.locator("ol > li").filter({ has: page.getByRole("button", { name: new RegExp(`^${n}\\. `) }) });

describe("Recipes", () => {
  let app: DemoApp;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    app = await startDemoApp();
    ({ context, page } = await app.newPage("laptop"));
  });
  afterAll(async () => app?.stop());

  it("lists the demo's starter recipes with their phases, and adds none twice", async () => {
    await signIn(page);
    await followNavLink(page, "Recipes");
    await page.waitForURL("**/recipes");
    const oyster = card(page, "Oyster on straw");
    await oyster.waitFor();
    expect(await page.getByRole("article").count()).toBeGreaterThanOrEqual(2);
    expect(await oyster.getByText("v1", { exact: true }).isVisible()).toBe(true);
    expect(await oyster.getByText(/^\d+ running batch(es)?$/).isVisible()).toBe(true);
    const chips = await oyster.getByRole("list", { name: "Phases" }).getByRole("listitem").allTextContents();
    expect(chips.length).toBeGreaterThan(1);
    expect(chips.some((c) => / up to \d+ days? · waits for: .+/.test(c))).toBe(true);

    await page.getByRole("button", { name: "Add the starter recipes" }).click();
    await expectToast(page, "All starter recipes are already in your library");
    await shoot(page, "recipes-laptop", false);
  });

  it("creates a recipe of two phases, with a ramp and a phase that waits, checking the humidifier's band", async () => {
    await page.getByRole("link", { name: "Add New Recipe" }).click();
    await page.waitForURL("**/recipes/new");
    await page.getByRole("heading", { level: 2, name: "New Recipe" }).waitFor();

    await page.getByLabel("Name", { exact: true }).fill("Blue oyster, quick");
    await page.getByLabel("Species").fill("Oyster");
    const first = phase(page, 1);
    await first.getByLabel("Phase name").fill("Spawn run");
    await first.getByLabel("Days").fill("10");
    await first.getByLabel("On below (%)").fill("95");
    await first.getByLabel("Off above (%)").fill("90");
    await first.getByLabel("Off above (%)").blur();
    await first.getByText("Must be below Humidifier off above (90 %)").waitFor();
    expect(await first.getByLabel("On below (%)").getAttribute("aria-invalid")).toBe("true");
    await first.getByLabel("On below (%)").fill("85");
    await first.getByText("Must be below Humidifier off above (90 %)").waitFor({ state: "detached" });

    await first.getByLabel("CO2 threshold (ppm)").fill("5000");
    await first.getByLabel("Target temperature (°C)").fill("24");
    await first.getByLabel("Ramp AC target temperature").check();
    await first.getByLabel("AC target temperature ramps to (°C)").fill("20");
    await first.getByLabel("On cycle (hours)").fill("6");
    await first.getByLabel("Off cycle (liters)").fill("2");
    await first.getByLabel("Soil moisture on (%)").fill("55");
    await first.getByLabel("Soil moisture off (%)").fill("70");

    await page.getByRole("button", { name: "Add phase" }).click();
    const second = phase(page, 2);
    // The new phase starts where the first one ends.
    expect(await second.getByLabel("Target temperature (°C)").inputValue()).toBe("20");
    expect(await second.getByLabel("CO2 threshold (ppm)").inputValue()).toBe("5000");
    await second.getByLabel("Phase name").fill("Fruiting");
    await second.getByLabel("Waits for the grower").check();
    await second.getByLabel("Maximum days").fill("5");
    await second.getByLabel("What the grower confirms").fill("Pins visible");
    await second.getByLabel("CO2 threshold (ppm)").fill("800");

    const chart = page.getByRole("img", { name: /^Planned setpoints/ });
    await expect.poll(() => chart.getAttribute("aria-label")).toBe("Planned setpoints over 15 days: Spawn run from day 0 to day 10; Fruiting from day 10 to day 15");
    expect(await page.getByRole("table", { name: "Planned setpoints by phase" }).getByRole("row", { name: /Spawn run/ }).textContent()).toContain("24 → 20 °C");
    await shoot(page, "recipes-laptop-editor", false);

    await page.getByRole("button", { name: "Save Recipe" }).click();
    await expectToast(page, "Recipe saved");
    await page.waitForURL("**/recipes");
    const mine = card(page, "Blue oyster, quick");
    await mine.waitFor();
    expect(await mine.getByText("v1", { exact: true }).isVisible()).toBe(true);
    expect(await mine.getByRole("list", { name: "Phases" }).getByRole("listitem").allTextContents()).toEqual(["Spawn run 10 days", "Fruiting up to 5 days · waits for: Pins visible"]);
    expect(await mine.getByText("up to 15 days").isVisible()).toBe(true);
  });

  it("edits a recipe into its next version, its phases folded until opened", async () => {
    await page.getByRole("button", { name: "Edit recipe Blue oyster, quick" }).click();
    await page.getByRole("heading", { level: 2, name: /Edit Blue oyster, quick/ }).waitFor();
    expect(await page.getByRole("button", { name: "2. Fruiting · up to 5 days" }).getAttribute("aria-expanded")).toBe("false");
    const toggle = page.getByRole("button", { name: /^2\. Fruiting/ });
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    const second = phase(page, 2);
    expect(await second.getByLabel("What the grower confirms").inputValue()).toBe("Pins visible");
    await second.getByLabel("Maximum days").fill("6");
    // A mistake in a folded phase: saving opens it and puts the focus on the field.
    await page.getByRole("button", { name: "Add phase" }).click();
    const third = page.getByRole("button", { name: /^3\. New phase/ });
    await third.click();
    expect(await third.getAttribute("aria-expanded")).toBe("false");
    await page.getByRole("button", { name: "Save Recipe" }).click();
    await phase(page, 3).getByText("Phase name is required").waitFor();
    expect(await third.getAttribute("aria-expanded")).toBe("true");
    await expect.poll(() => phase(page, 3).getByLabel("Phase name").evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.getByRole("button", { name: "Remove phase 3" }).click();
    await third.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Move Fruiting up" }).click();
    await page.getByRole("button", { name: /^1\. Fruiting/ }).waitFor();
    await page.getByRole("button", { name: "Move Fruiting down" }).click();
    await page.getByRole("button", { name: /^2\. Fruiting · up to 6 days/ }).waitFor();
    await page.getByRole("button", { name: "Save Recipe" }).click();
    await expectToast(page, "Recipe saved");
    const mine = card(page, "Blue oyster, quick");
    await mine.getByText("v2", { exact: true }).waitFor();
    expect(await mine.getByText("up to 16 days").isVisible()).toBe(true);
  });

  it("keeps the form and says so at the field when the server refuses a save", async () => {
    await page.getByRole("button", { name: "Edit recipe Blue oyster, quick" }).click();
    await page.getByRole("heading", { level: 2, name: /Edit Blue oyster, quick/ }).waitFor();
    await context.route("**/api/recipes/*", (route) =>
      route.request().method() === "PUT"
        ? route.fulfill({ status: 400, json: { code: "VALIDATION", message: "Name is required", errors: [{ path: "name", message: "Name is required" }] } })
        : route.fallback(),
    );
    await page.getByLabel("Name", { exact: true }).fill("Blue oyster, slower");
    await page.getByRole("button", { name: "Save Recipe" }).click();
    await expectToast(page, "Name is required");
    // The message is the server's: the field is not empty, so it is not the form's own check.
    await page.locator("form").getByText("Name is required").waitFor();
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Blue oyster, slower");
    await context.unroute("**/api/recipes/*");
    await page.getByRole("link", { name: "Cancel" }).click();
    await card(page, "Blue oyster, quick").waitFor();
  });

  it("deletes a recipe without batches after the confirmation, and keeps one that batches run", async () => {
    const api = apiCaller(app, context);
    const recipes = (await api("get", "/api/recipes")) as { recipe_id: number; name: string; running_batches: number }[];
    // The demo runs batches of its starter recipes; one is started when it runs none.
    let busy = recipes.find((r) => r.running_batches > 0);
    if (!busy) {
      busy = recipes.find((r) => r.name === "Oyster on straw")!;
      const mcus = (await api("get", `/api/mcus/by-client/${await signedInClientId(page)}`)) as { mcu_id: number }[];
      await api("post", "/api/batches", { name: "Room 1, March", recipe_id: busy.recipe_id, mcu_ids: [mcus.at(-1)!.mcu_id], time_zone: "UTC" });
      await page.reload();
    }
    await card(page, busy.name).getByText(/^\d+ running batch(es)?$/).filter({ hasNotText: /^0 / }).waitFor();

    await page.getByRole("button", { name: `Delete recipe ${busy.name}` }).click();
    await page.getByRole("alertdialog", { name: "Are you sure you want to delete this recipe?" }).getByRole("button", { name: "OK" }).click();
    await expectToast(page, "This recipe has batches: end and delete them first");
    expect(await card(page, busy.name).isVisible()).toBe(true);

    await page.getByRole("button", { name: `Edit recipe ${busy.name}` }).click();
    await page.getByText("Running batches keep the version they started with; your changes apply to new batches.").waitFor();
    await page.getByRole("link", { name: "Cancel" }).click();

    await page.getByRole("button", { name: "Delete recipe Blue oyster, quick" }).click();
    await page.getByRole("alertdialog", { name: "Are you sure you want to delete this recipe?" }).getByRole("button", { name: "OK" }).click();
    await expectToast(page, "Recipe deleted successfully");
    await card(page, "Blue oyster, quick").waitFor({ state: "detached" });
  });

  it("explains recipes to a new account on a phone and adds the starter recipes there", async () => {
    const { page: p, context: c } = await app.newPage("phone");
    const newcomer = { username: "newgrower", email: "newgrower@example.com", password: "spores-and-straw", confirmPassword: "spores-and-straw", mobile: "+961 70 123 456", country: "LB", address: "Byblos" };
    const res = await c.request.post("/api/clients", { headers: { Origin: app.url }, data: newcomer });
    expect(res.ok()).toBe(true);
    await signIn(p, newcomer.username, newcomer.password);
    await followNavLink(p, "Recipes");
    await p.getByText("No recipes yet").waitFor();
    await shoot(p, "recipes-phone-empty");
    await p.getByRole("button", { name: "Add the starter recipes" }).click();
    await expectToast(p, /^Added \d+ starter recipes$/);
    await card(p, "Oyster on straw").waitFor();
    expect(await p.getByText("No recipes yet").count()).toBe(0);
    await c.close();
  });

  it("fits a phone and a wall screen", async () => {
    for (const size of ["phone", "wall"] as const) {
      const { page: p, context: c } = await app.newPage(size);
      await signIn(p);
      await followNavLink(p, "Recipes");
      await card(p, "Oyster on straw").waitFor();
      await shoot(p, `recipes-${size}`, false);
      await p.getByRole("button", { name: "Edit recipe Oyster on straw" }).click();
      await p.getByRole("img", { name: /^Planned setpoints/ }).waitFor();
      await p.getByRole("button", { name: /^1\. / }).click();
      await shoot(p, `recipes-${size}-editor`, false);
      await p.getByRole("img", { name: /^Planned setpoints/ }).scrollIntoViewIfNeeded();
      await shoot(p, `recipes-${size}-preview`, false);
      expect(await p.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);
      await c.close();
    }
  });
});
