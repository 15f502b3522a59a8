import type { BrowserContext, Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectToast, followNavLink, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";
import { allCardNames, listSize, scrollToCard } from "./support/virtual-list.ts";
import { demoClaimCode } from "../server/devices/device-keys.ts";

/** An unclaimed demo MCU from the README ("The demo farm"). */
const STOCK_MAC = "02:4D:46:00:01:01";
/** Oyster Room A, a demo MCU the demo client already has. */
const TAKEN_MAC = "02:4D:46:10:00:01";

const cards = (page: Page) => page.getByRole("article");
const card = (page: Page, name: string) => page.getByRole("article", { name, exact: true });
/** The MCU list is virtualized: its size is its aria-setsize, its names are collected by scrolling through it. */
const mcuList = (page: Page) => page.getByRole("list", { name: "MCUs", exact: true });
const cardCount = (page: Page) => listSize(mcuList(page));
const cardNames = async (page: Page) => (await allCardNames(page, mcuList(page))).sort();
const stat = (page: Page, label: string) => page.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]");
const confirmDialog = (page: Page, text: string) => page.getByRole("alertdialog", { name: text });
const waitGone = (l: Locator) => l.waitFor({ state: "detached", timeout: 10_000 });

/**
 * A toast shown while a modal is open: the modal makes the rest of the page inert, toasts
 * included, so they are not in the accessibility tree that getByRole (and expectToast) reads.
 */
async function expectToastBehindModal(page: Page, text: string) {
  await page.locator(".Toastify__toast", { hasText: text }).first().waitFor({ state: "visible", timeout: 10_000 });
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/${name}.png`, fullPage: true });
}

async function openMcuManager(page: Page) {
  await followNavLink(page, "MCU Manager");
  await page.waitForURL("**/mcu");
  await page.getByRole("heading", { level: 2, name: "MCU Manager" }).waitFor();
}

describe("MCU Manager", () => {
  let app: DemoApp;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    app = await startDemoApp();
    ({ context, page } = await app.newPage("laptop"));
  });
  afterAll(async () => {
    await context?.close();
    await app?.stop();
  });

  it("lists the demo MCUs with stats, battery bars and details", async () => {
    await signIn(page);
    await openMcuManager(page);
    await expect.poll(() => cardCount(page)).toBe(12);
    expect(await stat(page, "Total MCUs").textContent()).toBe("12");
    const room = card(page, "Oyster Room A");
    await expect.poll(() => room.getByText("Cedar Cellar").count()).toBe(1);
    expect(await room.getByText(TAKEN_MAC).count()).toBe(1);
    // Oyster Room A is linked to the first demo profile.
    expect(await room.getByLabel("Profile of Oyster Room A").locator("option:checked").textContent()).toBe("Oyster fruiting");
    expect(await room.getByRole("button", { name: "Unlink profile from Oyster Room A" }).count()).toBe(1);
    // Readings arrive from the simulated fleet: every battery bar gets a level, and Low Battery counts those below 30.
    await expect.poll(() => page.getByRole("meter").count(), { timeout: 20_000 }).toBe(12);
    await expect
      .poll(async () => {
        const levels = await page.getByRole("meter").evaluateAll((ms) => ms.map((m) => Number(m.getAttribute("aria-valuenow"))));
        return { stat: Number(await stat(page, "Low Battery").textContent()), below30: levels.filter((l) => l < 30).length };
      })
      .toEqual({ stat: 1, below30: 1 });
    const online = Number(await stat(page, "Online").textContent());
    const offline = Number(await stat(page, "Offline").textContent());
    expect(online + offline).toBeLessThanOrEqual(12);
    expect(await room.getByText(/^(Just now|\d+m ago|\d+h ago|\d+d ago)$/).count()).toBe(1);
    await shoot(page, "mcu-manager-laptop");
  });

  it("validates the Add MCU form with the SPEC messages", async () => {
    await page.getByRole("button", { name: "Add MCU" }).click();
    const dialog = page.getByRole("dialog", { name: "Add New MCU" });
    await dialog.getByRole("button", { name: "Add MCU" }).click();
    await dialog.getByText("MCU name is required").waitFor();
    await dialog.getByText("MAC address is required").waitFor();
    await dialog.getByText("Claim code is required").waitFor();
    await dialog.getByText("Please select a farm").waitFor();

    await dialog.getByLabel("MCU Name").fill("Test Bay");
    await dialog.getByLabel("MAC Address", { exact: true }).fill("02:4D:46:00:01");
    await dialog.getByLabel("Claim Code", { exact: true }).fill("7K2M-9QXD");
    await dialog.getByLabel("Assign to Farm").selectOption("North Barn");
    await dialog.getByRole("button", { name: "Add MCU" }).click();
    await dialog.getByText("Invalid MAC address format").waitFor();
    await dialog.getByText("Claim code has 12 letters and digits, as printed on the MCU's label").waitFor();
    expect(await dialog.getByText("MCU name is required").count()).toBe(0);
    expect(await dialog.getByText("Please select a farm").count()).toBe(0);
    await shoot(page, "mcu-manager-form-errors");
  });

  it("shows the server's reason when the MAC is already registered, keeping the form", async () => {
    const dialog = page.getByRole("dialog", { name: "Add New MCU" });
    await dialog.getByLabel("MAC Address", { exact: true }).fill(TAKEN_MAC);
    await dialog.getByLabel("Claim Code", { exact: true }).fill(demoClaimCode(TAKEN_MAC));
    await dialog.getByRole("button", { name: "Add MCU" }).click();
    await expectToastBehindModal(page, `Creation failed : MAC address ${TAKEN_MAC} is already registered`);
    expect(await dialog.getByLabel("MCU Name").inputValue()).toBe("Test Bay");
    // The page behind the modal is inert, so count the cards without the accessibility tree.
    expect(await page.locator("article").count()).toBe(12);
  });

  it("refuses a wrong claim code with the one claim answer, keeping the form", async () => {
    const dialog = page.getByRole("dialog", { name: "Add New MCU" });
    await dialog.getByLabel("MAC Address", { exact: true }).fill(STOCK_MAC);
    await dialog.getByLabel("Claim Code", { exact: true }).fill("7K2M-9QXD-4TWA");
    await dialog.getByRole("button", { name: "Add MCU" }).click();
    await expectToastBehindModal(page, "Creation failed : The MAC address and claim code do not match an MCU you can add. Check both on the device's label.");
    expect(await dialog.getByLabel("MCU Name").inputValue()).toBe("Test Bay");
  });

  it("adds an unclaimed MCU to a farm with the claim code of its label, typed loosely", async () => {
    const dialog = page.getByRole("dialog", { name: "Add New MCU" });
    await dialog.getByLabel("MAC Address", { exact: true }).fill(STOCK_MAC.toLowerCase());
    await dialog.getByLabel("Claim Code", { exact: true }).fill(demoClaimCode(STOCK_MAC).toLowerCase().replace(/-/g, " "));
    await dialog.getByRole("button", { name: "Add MCU" }).click();
    await expectToast(page, "Test Bay MCU added successfully");
    await waitGone(dialog);
    const added = await scrollToCard(page, "Test Bay");
    await added.waitFor();
    // A device that reports is online: the simulated stock MCU reports once claimed.
    await expect.poll(() => added.locator("h3 + span").textContent(), { timeout: 30_000 }).toBe("Online");
    expect(await added.getByText("North Barn").count()).toBe(1);
    expect(await added.getByText(STOCK_MAC).count()).toBe(1);
    expect(await added.getByText(new Intl.DateTimeFormat("en-US", { dateStyle: "medium" }).format(new Date())).count()).toBe(1);
    expect(await stat(page, "Total MCUs").textContent()).toBe("13");
  });

  it("edits the MCU in a prefilled form without a scan button", async () => {
    await (await scrollToCard(page, "Test Bay")).getByRole("button", { name: "Edit Test Bay" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit MCU" });
    expect(await dialog.getByLabel("MCU Name").inputValue()).toBe("Test Bay");
    expect(await dialog.getByLabel("MAC Address", { exact: true }).inputValue()).toBe(STOCK_MAC);
    expect(await dialog.getByLabel("Assign to Farm").locator("option:checked").textContent()).toBe("North Barn");
    expect(await dialog.getByRole("button", { name: "Scan MAC address" }).count()).toBe(0);
    // The claim code is asked for only when the MAC names another device.
    expect(await dialog.getByLabel("Claim Code", { exact: true }).count()).toBe(0);
    await dialog.getByLabel("MAC Address", { exact: true }).fill("02:4D:46:00:01:02");
    await dialog.getByLabel("Claim Code", { exact: true }).waitFor();
    await dialog.getByRole("button", { name: "Update MCU" }).click();
    await dialog.getByText("Claim code is required").waitFor();
    await dialog.getByLabel("MAC Address", { exact: true }).fill(STOCK_MAC);
    await dialog.getByLabel("Claim Code", { exact: true }).waitFor({ state: "detached" });
    await dialog.getByLabel("MCU Name").fill("");
    await dialog.getByRole("button", { name: "Update MCU" }).click();
    await dialog.getByText("MCU name is required").waitFor();
    await dialog.getByLabel("MCU Name").fill("Test Bay Two");
    await dialog.getByRole("button", { name: "Update MCU" }).click();
    await expectToast(page, "Test Bay Two MCU updated successfully");
    await waitGone(dialog);
    await (await scrollToCard(page, "Test Bay Two")).waitFor();
    expect(await card(page, "Test Bay").count()).toBe(0);
  });

  it("links a profile, then unlinks it after confirmation", async () => {
    const mine = await scrollToCard(page, "Test Bay Two");
    const select = mine.getByLabel("Profile of Test Bay Two");
    expect(await select.inputValue()).toBe("");
    expect(await mine.getByRole("button", { name: "Unlink profile from Test Bay Two" }).count()).toBe(0);

    await select.selectOption({ label: "Shiitake incubation" });
    await expectToast(page, "Profile linked to MCU");
    await expect.poll(() => select.locator("option:checked").textContent()).toBe("Shiitake incubation");

    // The blank option does nothing: the link stays.
    await select.selectOption("");
    await expect.poll(() => select.locator("option:checked").textContent()).toBe("Shiitake incubation");

    // Cancelling the confirmation keeps the link.
    await mine.getByRole("button", { name: "Unlink profile from Test Bay Two" }).click();
    await confirmDialog(page, "Are you sure you want to unlink this profile?").getByRole("button", { name: "Cancel" }).click();
    expect(await select.locator("option:checked").textContent()).toBe("Shiitake incubation");

    await mine.getByRole("button", { name: "Unlink profile from Test Bay Two" }).click();
    await confirmDialog(page, "Are you sure you want to unlink this profile?").getByRole("button", { name: "OK" }).click();
    await expectToast(page, "Profile unlinked");
    await expect.poll(() => select.inputValue()).toBe("");
    await mine.getByRole("button", { name: "Unlink profile from Test Bay Two" }).waitFor({ state: "detached" });
  });

  it("searches by name, ID and MAC, case-insensitively", async () => {
    const search = page.getByLabel("Search MCUs by name, ID or MAC");
    await search.fill("oyster room");
    await expect.poll(() => cardNames(page)).toEqual(["Oyster Room A", "Oyster Room B"]);
    await search.fill(STOCK_MAC.toLowerCase());
    await expect.poll(() => cardNames(page)).toEqual(["Test Bay Two"]);
    const id = (await card(page, "Test Bay Two").getByText(/^ID \d+$/).textContent())!.slice(3);
    await search.fill(STOCK_MAC.replace(/:/g, "-"));
    await expect.poll(() => cardNames(page)).toEqual(["Test Bay Two"]);
    await search.fill(id);
    await expect.poll(() => cardNames(page)).toContain("Test Bay Two");
    await search.fill("no such mcu");
    await page.getByText("No MCUs found").waitFor();
    await page.getByText("No MCU matches your search and filters. Try other words, or Reset the filters.").waitFor();
    await page.getByRole("button", { name: "Reset" }).click();
    await expect.poll(() => cardCount(page)).toBe(13);
    expect(await search.inputValue()).toBe("");
  });

  it("filters on the status field and the farm, and Reset clears both", async () => {
    const status = page.getByLabel("Filter by status");
    const farm = page.getByLabel("Filter by farm");
    expect(await status.locator("option").allTextContents()).toEqual(["All Status", "Active", "Online", "Offline", "Maintenance"]);
    expect(await farm.locator("option").allTextContents()).toEqual(["All Farms", "Cedar Cellar", "North Barn", "Valley Tunnels"]);

    const badges = () => cards(page).evaluateAll((as) => as.map((a) => a.querySelector("h3 + span")?.textContent));
    // Active lists every MCU at work: online (the Dashboard's Active MCUs) or new and never reported.
    // Every MCU here reports, so it lists the online ones; the badges follow the live status.
    await status.selectOption("Active");
    await expect.poll(async () => (await cardCount(page)) === Number(await stat(page, "Online").textContent()) && (await cardCount(page)) > 0).toBe(true);
    for (const b of await badges()) expect(["Online", "Active"]).toContain(b);

    for (const label of ["Online", "Offline"]) {
      await status.selectOption(label);
      const expected = Number(await stat(page, label).textContent());
      if (expected === 0) await page.getByText("No MCUs found").waitFor();
      else await expect.poll(() => cardCount(page)).toBe(expected);
      for (const b of await badges()) expect(b).toBe(label);
    }

    await status.selectOption("");
    await farm.selectOption("Cedar Cellar");
    await expect.poll(() => cardNames(page)).toEqual(["Oyster Room A", "Oyster Room B", "Shiitake Logs", "Spawn Lab"]);
    await farm.selectOption("North Barn");
    await expect.poll(() => cardNames(page)).toEqual(["Enoki Chamber", "Incubation Bay", "King Oyster Rack", "Lion's Mane Rack", "Test Bay Two"]);
    await status.selectOption("Offline");
    await page.getByText("No MCUs found").waitFor();

    await page.getByRole("button", { name: "Reset" }).click();
    await expect.poll(() => cardCount(page)).toBe(13);
    expect(await status.inputValue()).toBe("");
    expect(await farm.inputValue()).toBe("");
  });

  it("opens the Add form with the MAC from Scan MCU, and fills the MAC from the form's own scan", async () => {
    await page.getByRole("button", { name: "Scan MCU" }).click();
    const scan = page.getByRole("dialog", { name: "Scan MCU" });
    await scan.getByLabel("MAC Address", { exact: true }).fill("02-4d-46-00-01-02");
    await scan.getByRole("button", { name: "Look up" }).click();
    const form = page.getByRole("dialog", { name: "Add New MCU" });
    await form.getByLabel("MCU Name").waitFor();
    expect(await form.getByLabel("MAC Address", { exact: true }).inputValue()).toBe("02:4D:46:00:01:02");
    expect(await form.getByLabel("MCU Name").inputValue()).toBe("");

    await form.getByLabel("MAC Address", { exact: true }).fill("");
    await form.getByRole("button", { name: "Scan MAC address" }).click();
    const inner = page.getByRole("dialog", { name: "Scan MCU" });
    await inner.getByLabel("MAC Address", { exact: true }).fill("02:4d:46:00:01:03");
    await inner.getByRole("button", { name: "Look up" }).click();
    await waitGone(inner);
    expect(await form.getByLabel("MAC Address", { exact: true }).inputValue()).toBe("02:4D:46:00:01:03");
    await form.getByRole("button", { name: "Cancel" }).click();
    await waitGone(form);
    expect(await cardCount(page)).toBe(13);
  });

  it("deletes the MCU after confirmation with the server's message", async () => {
    await (await scrollToCard(page, "Test Bay Two")).getByRole("button", { name: "Delete Test Bay Two" }).click();
    const text = "Are you sure you want to delete this MCU? This action cannot be undone.";
    await confirmDialog(page, text).getByRole("button", { name: "Cancel" }).click();
    expect(await card(page, "Test Bay Two").count()).toBe(1);

    await page.getByRole("button", { name: "Delete Test Bay Two" }).click();
    await confirmDialog(page, text).getByRole("button", { name: "OK" }).click();
    await expectToast(page, "MCU deleted successfully");
    await waitGone(card(page, "Test Bay Two"));
    expect(await cardCount(page)).toBe(12);
    expect(await stat(page, "Total MCUs").textContent()).toBe("12");
  });

  it("fits a phone and a wall screen", async () => {
    for (const size of ["phone", "wall"] as const) {
      const { context: c, page: p } = await app.newPage(size);
      try {
        await signIn(p);
        await openMcuManager(p);
        await expect.poll(() => cardCount(p)).toBe(12);
        // Every mounted card (the list is virtualized) shows its battery.
        await expect.poll(async () => (await cards(p).count()) > 0 && (await p.getByRole("meter").count()) === (await cards(p).count()), { timeout: 20_000 }).toBe(true);
        expect(await p.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
        await shoot(p, `mcu-manager-${size}`);
        await p.getByRole("button", { name: "Add MCU" }).click();
        await p.getByRole("dialog", { name: "Add New MCU" }).getByLabel("MCU Name").waitFor();
        await shoot(p, `mcu-manager-form-${size}`);
      } finally {
        await c.close();
      }
    }
  });
});

describe("MCU Manager for a client without MCUs", () => {
  let app: DemoApp;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    app = await startDemoApp({ DEMO: "0" });
    ({ context, page } = await app.newPage("phone"));
    const headers = { Origin: app.url };
    const account = { username: "newgrower", email: "new@grower.test", password: "spores-123", confirmPassword: "spores-123", mobile: "+961 1 234 567", country: "LB", address: "Byblos" };
    expect((await context.request.post("/api/clients", { headers, data: account })).ok()).toBe(true);
    const login = await context.request.post("/api/clients/login", { headers, data: { username: account.username, password: account.password } });
    const { client } = (await login.json()) as { client: unknown };
    await page.goto("/login");
    await page.evaluate(`localStorage.setItem("client", ${JSON.stringify(JSON.stringify(client))})`);
  });
  afterAll(async () => {
    await context?.close();
    await app?.stop();
  });

  it("offers Scan Barcode and Add Manually when there are no MCUs", async () => {
    await page.goto("/mcu");
    await page.getByText("No MCUs found").waitFor();
    expect(await stat(page, "Total MCUs").textContent()).toBe("0");
    await shoot(page, "mcu-manager-empty-phone");
    await page.getByRole("button", { name: "Add Manually" }).click();
    const form = page.getByRole("dialog", { name: "Add New MCU" });
    await form.getByLabel("MCU Name").waitFor();
    expect(await form.getByLabel("Assign to Farm").locator("option").allTextContents()).toEqual(["Select a farm"]);
    await form.getByRole("button", { name: "Cancel" }).click();
    await waitGone(form);
    await page.getByRole("button", { name: "Scan Barcode" }).click();
    await page.getByRole("dialog", { name: "Scan MCU" }).getByLabel("MAC Address", { exact: true }).fill("02:4D:46:00:01:01");
    await page.getByRole("button", { name: "Look up" }).click();
    expect(await page.getByRole("dialog", { name: "Add New MCU" }).getByLabel("MAC Address", { exact: true }).inputValue()).toBe("02:4D:46:00:01:01");
    await page.keyboard.press("Escape");
    await waitGone(page.getByRole("dialog", { name: "Add New MCU" }));
  });

  it("shows the server's message and a retry when the MCUs cannot be loaded", async () => {
    await context.route("**/api/mcus/by-client/**", (route) => route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ code: "INTERNAL", message: "The MCU list is resting" }) }));
    await page.reload();
    await expectToast(page, "The MCU list is resting");
    await page.getByText("MCUs could not be loaded.").waitFor();
    await context.unroute("**/api/mcus/by-client/**");
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByText("No MCUs found").waitFor();
    expect(await page.getByText("MCUs could not be loaded.").count()).toBe(0);
  });

  it("falls back to SPEC's texts when a failed load has no server message", async () => {
    await context.route("**/api/farms/myfarms/get**", (route) => route.fulfill({ status: 500, body: "" }));
    await context.route("**/api/setting-profiles/*", (route) => route.fulfill({ status: 500, body: "" }));
    await page.reload();
    await expectToast(page, "Failed to fetch farms");
    await expectToast(page, "Failed to load setting profiles");
    await page.getByRole("button", { name: "Try again" }).waitFor();
    await context.unrouteAll();
  });
});
