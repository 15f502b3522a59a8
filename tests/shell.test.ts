import type { Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ar from "../src/locales/ar/common.json";
import { apiCaller, drawer, signedInClientId, signIn, startDemoApp, VIEWPORTS, type DemoApp } from "./support/app-harness.ts";

type Box = { x: number; y: number; width: number; height: number };
/** The little of a DOM element these tests read in the page (the tests compile without the DOM's types). */
type Shown = { offsetHeight: number; offsetWidth: number; textContent: string | null; parentElement: Shown | null };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Waits for a toast's entry animation to end, so its box is where it stays. */
async function settled(toast: Locator): Promise<Box> {
  await toast.evaluate((el) => Promise.all((el as { getAnimations(): { finished: Promise<unknown> }[] }).getAnimations().map((a) => a.finished)));
  return (await toast.boundingBox())!;
}

/** The page titles of SPEC §2 and the sidebar: the top bar shows one, the page shows none again. */
const TITLES = ["Dashboard", "Manage Farms", "MCU Manager", "Controller Manager", "System Controllers", "Sensors Manager", "Sensors", "MCU Settings", "Manage Setting Profiles", "Settings"];

describe("the app's shell: notifications, toasts, titles", () => {
  let app: DemoApp;

  beforeAll(async () => {
    app = await startDemoApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("marks what the notification panel showed as read, so the dot stays off after a reload", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    const dot = page.locator('[data-testid="unread-dot"]');
    await dot.waitFor({ timeout: 15_000 });
    await page.getByRole("button", { name: "Notifications (unread)" }).click();
    const panel = page.getByRole("dialog", { name: "Notifications" });
    const items = panel.getByRole("listitem");
    await items.first().waitFor();
    // While open, what was unread keeps its unread look, so the farmer sees what is new.
    expect(await items.filter({ hasText: "(unread)" }).count()).toBeGreaterThan(0);
    expect(await dot.count()).toBe(0);
    await panel.getByRole("button", { name: "Close notifications" }).click();
    await panel.waitFor({ state: "detached" });

    await page.reload();
    await page.getByRole("region", { name: "Your Farms" }).waitFor();
    await page.getByRole("button", { name: /^Notifications/ }).click();
    await items.first().waitFor();
    const shown = await items.count();
    // Every notification loaded again from the server is read (greyed); none brings the dot back.
    expect(await items.filter({ hasText: "(unread)" }).count()).toBe(0);
    expect(await panel.locator('li[data-read="true"]').count()).toBe(shown);
    expect(await dot.count()).toBe(0);
    await context.close();
  });

  for (const size of ["phone", "laptop"] as const) {
    it(`shows toasts clear of the MCU Manager's buttons on a ${size}`, async () => {
      const { context, page } = await app.newPage(size);
      await signIn(page);
      // Two failing loads: two toasts at once, stacked.
      for (const [path, message] of [
        ["**/api/farms/myfarms/get**", "Farms are resting"],
        ["**/api/setting-profiles/*", "Profiles are resting"],
      ] as const) {
        await context.route(path, (route) => route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ code: "INTERNAL", message }) }));
      }
      await page.goto("/mcu");
      await page.getByRole("button", { name: "Add MCU" }).waitFor();
      const toast = page.locator(".Toastify__toast");
      await toast.filter({ hasText: "Farms are resting" }).waitFor();
      await toast.filter({ hasText: "Profiles are resting" }).waitFor();
      const boxes = await Promise.all((await toast.all()).map(settled));
      const buttons = await page.locator("main button:visible").all();
      expect(buttons.length).toBeGreaterThan(2);
      for (const button of buttons) {
        const box = await button.boundingBox();
        if (!box) continue;
        for (const t of boxes) expect(overlaps(t, box), `a toast covers ${await button.innerText()}`).toBe(false);
      }
      await page.screenshot({ path: `test-results/shell-toast-mcu-${size}.png` });
      await context.close();
    });
  }

  it("slides the phone menu in, and opens it at once for a farmer who asks for less motion", async () => {
    for (const reducedMotion of ["no-preference", "reduce"] as const) {
      const context = await app.browser.newContext({ viewport: VIEWPORTS.phone, baseURL: app.url, reducedMotion });
      try {
        const page = await context.newPage();
        await signIn(page);
        const sidebar = page.locator("#sidebar");
        expect(await sidebar.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { transitionDuration: string } }).getComputedStyle(el).transitionDuration)).toBe(reducedMotion === "reduce" ? "0s" : "0.15s");
        await page.getByRole("button", { name: "Open menu" }).click();
        await drawer(page, "open");
        await page.getByRole("link", { name: "Manage Farms", exact: true }).click();
        await page.waitForURL("**/farms");
        // Following a link closes the drawer.
        await drawer(page, "closed");
      } finally {
        await context.close();
      }
    }
  });

  it("shows each client page's title once, in the top bar", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    // Each page with what shows it has loaded.
    for (const [path, title, loaded] of [
      ["/dashboard", "Dashboard", page.getByRole("link", { name: "View All" })],
      ["/farms", "Manage Farms", page.getByRole("list", { name: "Farms" })],
      ["/mcu", "MCU Manager", page.getByRole("button", { name: "Add MCU" })],
      ["/controllers", "Controller Manager", page.getByRole("list", { name: "Controllers" })],
      ["/sensors", "Sensors Manager", page.getByRole("list", { name: "Sensors" })],
      ["/settings-profile", "MCU Settings", page.getByRole("button", { name: "Add New Profile" })],
      ["/settings", "Settings", page.getByRole("tab", { name: "Security" })],
    ] as const) {
      await page.goto(path);
      await page.getByRole("banner").getByRole("heading", { level: 1, name: title }).waitFor();
      await loaded.waitFor({ timeout: 15_000 });
      // Visible page titles inside the page (a screen-reader-only section name is 1 px).
      const visible = await page
        .locator("main :is(h1, h2)")
        .evaluateAll((els) => (els as unknown as Shown[]).filter((el) => el.offsetHeight > 1 && el.offsetWidth > 1).map((el) => el.textContent?.trim() ?? ""));
      expect(visible.filter((text) => TITLES.includes(text)), path).toEqual([]);
      await page.screenshot({ path: `test-results/shell-title${path.replace(/\//g, "-")}-laptop.png` });
    }
    await context.close();
  });

  for (const size of ["phone", "laptop"] as const) {
    it(`shows the login logo on a ground it stands out from, on a ${size}`, async () => {
      const { context, page } = await app.newPage(size);
      await page.goto("/login");
      await page.getByRole("heading", { name: "Welcome Back" }).waitFor();
      const logo = page.locator('main img[src="/favicon.svg"]');
      // The logo's stem is near-white (#f5f5f4): what is behind it must be dark.
      const ground = await logo.evaluate((img) => {
        const styleOf = (el: Shown) => (globalThis as unknown as { getComputedStyle(el: Shown): { backgroundColor: string } }).getComputedStyle(el);
        let el = (img as unknown as Shown).parentElement;
        while (el && styleOf(el).backgroundColor === "rgba(0, 0, 0, 0)") el = el.parentElement;
        return el ? styleOf(el).backgroundColor : "none";
      });
      const [r, g, b] = ground.match(/\d+/g)!.map(Number) as [number, number, number];
      const luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      expect(luminance, ground).toBeLessThan(0.4);
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(VIEWPORTS[size].width);
      await page.screenshot({ path: `test-results/shell-login-${size}.png` });
      await context.close();
    });
  }

  it("mirrors the shell in Arabic: menu and sidebar on the right, the bell and the notification panel on the left, toasts between them", async () => {
    const { context, page } = await app.newPage("phone");
    await signIn(page);
    // The person's language is kept with their client on the server, and the page follows it.
    await apiCaller(app, context)("put", `/api/clients/${await signedInClientId(page)}`, { language: "ar" });
    await page.evaluate("localStorage.setItem('client', JSON.stringify({ ...JSON.parse(localStorage.getItem('client')), language: 'ar' }))");
    await context.route("**/api/farms/myfarms/get**", (route) => route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ code: "INTERNAL", message: "Farms are resting" }) }));
    await page.goto("/farms");
    await page.getByRole("banner").getByRole("heading", { level: 1, name: ar.nav.farms }).waitFor();
    expect(await page.evaluate("[document.documentElement.dir, document.documentElement.lang]")).toEqual(["rtl", "ar"]);
    expect(await page.title()).toBe(`${ar.nav.farms} · ${ar.appName}`);

    const width = VIEWPORTS.phone.width;
    const menuButton = page.getByRole("button", { name: ar.layout.openMenu });
    const bell = page.getByRole("button", { name: new RegExp(`^${ar.layout.notifications}`) });
    const menuBox = (await menuButton.boundingBox())!;
    const bellBox = (await bell.boundingBox())!;
    expect(menuBox.x).toBeGreaterThan(width / 2);
    expect(bellBox.x + bellBox.width).toBeLessThan(width / 2);

    // A toast (the failed load's, in Arabic) sits on the top bar between the two buttons, covering neither.
    const toast = page.locator(".Toastify__toast").first();
    await toast.waitFor();
    const toastBox = await settled(toast);
    expect(toastBox.x).toBeGreaterThanOrEqual(bellBox.x + bellBox.width);
    expect(toastBox.x + toastBox.width).toBeLessThanOrEqual(menuBox.x);
    await page.screenshot({ path: "test-results/shell-ar-toast-phone.png" });

    // The drawer comes in from the right edge and goes back out past it.
    const sidebar = page.locator("#sidebar");
    const closed = (await sidebar.boundingBox())!;
    expect(closed.x).toBeGreaterThanOrEqual(width);
    await menuButton.click();
    await expect.poll(async () => Math.round((await sidebar.boundingBox())!.x + (await sidebar.boundingBox())!.width)).toBe(width);
    await page.screenshot({ path: "test-results/shell-ar-menu-phone.png" });
    await page.getByRole("button", { name: ar.layout.closeMenu }).click();
    await expect.poll(async () => (await sidebar.boundingBox())!.x).toBeGreaterThanOrEqual(width);

    // The notification panel opens against the left edge.
    await bell.click();
    const panel = page.getByRole("dialog", { name: ar.notifications.title });
    await panel.getByRole("button", { name: ar.notifications.close }).waitFor();
    await expect.poll(async () => Math.round((await page.getByTestId("notification-panel").boundingBox())?.x ?? -1)).toBe(0);
    await page.screenshot({ path: "test-results/shell-ar-panel-phone.png" });
    await context.close();
  });
});
