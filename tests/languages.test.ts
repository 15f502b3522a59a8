import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogueText, englishSentences } from "./support/catalogue.ts";
import { apiCaller, DEMO, startDemoApp, VIEWPORTS, type DemoApp } from "./support/app-harness.ts";

/**
 * A grower reads the app in Arabic or French: chosen on the login screen, kept with their client,
 * every screen in it (mirrored in Arabic), toasts included, and switched in Settings without a
 * reload. Screens are looked for English left behind: any sentence of the English catalogue.
 */
const SCREENS = ["/dashboard", "/farms", "/mcu", "/controllers", "/sensors", "/settings-profile", "/recipes", "/batches", "/alarms", "/settings", "/wall"];
const ENGLISH = englishSentences();

const eventually = <T>(fn: () => Promise<T>, timeout = 10_000) => expect.poll(fn, { timeout });

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/${name}.png` });
}

/** English catalogue sentences on screen (the page's visible text). */
async function englishLeft(page: Page): Promise<string[]> {
  const text = await page.locator("body").innerText();
  return ENGLISH.filter((s) => text.includes(s));
}

async function signInAs(page: Page, language: "ar" | "fr") {
  await page.goto("/login");
  await page.getByLabel("Language", { exact: true }).selectOption(language);
  await eventually(() => page.evaluate("document.documentElement.lang")).toBe(language);
  await page.getByLabel(catalogueText(language, "auth", "login.emailOrUsername")).fill(DEMO.username);
  await page.getByLabel(catalogueText(language, "auth", "login.password"), { exact: true }).fill(DEMO.password);
  await page.getByRole("button", { name: catalogueText(language, "auth", "login.submit") }).click();
  await page.waitForURL("**/dashboard");
}

describe("the app in Arabic and French", () => {
  let app: DemoApp;
  beforeAll(async () => {
    app = await startDemoApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("chosen on the login screen: every screen in Arabic, right to left, toasts too, and kept with the client", async () => {
    const { context, page } = await app.newPage("laptop");
    try {
      await page.goto("/login");
      await eventually(() => page.evaluate("document.documentElement.dir")).toBe("ltr");
      await signInAs(page, "ar");
      await page.getByRole("alert").filter({ hasText: catalogueText("ar", "auth", "login.success") }).first().waitFor();
      expect(await page.evaluate("document.documentElement.dir")).toBe("rtl");
      const me = await apiCaller(app, context)("get", "/api/clients/me");
      expect(me.language).toBe("ar");

      // The sidebar stands on the right in Arabic.
      const sidebar = await page.locator("#sidebar").boundingBox();
      expect(sidebar!.x).toBeGreaterThan(VIEWPORTS.laptop.width / 2);

      for (const path of SCREENS) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        await eventually(() => englishLeft(page), 15_000).toEqual([]);
        expect(await page.evaluate("document.documentElement.dir")).toBe("rtl");
        await shoot(page, `ar-laptop${path.replace(/\//g, "-")}`);
      }
    } finally {
      await context.close();
    }
  });

  for (const size of ["phone", "wall"] as const) {
    it(`reads in Arabic at ${size} size`, async () => {
      const { context, page } = await app.newPage(size);
      try {
        await signInAs(page, "ar");
        for (const path of ["/dashboard", "/farms", "/settings", "/wall"]) {
          await page.goto(path);
          await page.waitForLoadState("networkidle");
          await eventually(() => englishLeft(page), 15_000).toEqual([]);
          await shoot(page, `ar-${size}${path.replace(/\//g, "-")}`);
        }
      } finally {
        await context.close();
      }
    });
  }

  it("in French likewise, and Settings switches language and digits without a reload", async () => {
    const { context, page } = await app.newPage("laptop");
    try {
      await signInAs(page, "fr");
      expect(await page.evaluate("document.documentElement.dir")).toBe("ltr");
      for (const path of SCREENS) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        await eventually(() => englishLeft(page), 15_000).toEqual([]);
        await shoot(page, `fr-laptop${path.replace(/\//g, "-")}`);
      }

      await page.goto("/settings");
      // A mark on the window survives only if the page is not reloaded.
      await page.evaluate("window.stayed = true");
      await page.getByLabel(catalogueText("fr", "settings", "language.label"), { exact: true }).selectOption("ar");
      await eventually(() => page.evaluate("document.documentElement.dir")).toBe("rtl");
      await page.getByRole("tab", { name: catalogueText("ar", "settings", "tabs.profile") }).waitFor();
      await page.getByLabel(catalogueText("ar", "settings", "language.digits"), { exact: true }).selectOption("arab");
      expect(await page.evaluate("window.stayed")).toBe(true);
      await eventually(async () => {
        const me = await apiCaller(app, context)("get", "/api/clients/me");
        return me.digits;
      }).toBe("arab");
      await page.goto("/dashboard");
      await eventually(async () => /[٠-٩]/.test(await page.locator("main").innerText())).toBe(true);
      await shoot(page, "ar-arabic-digits-laptop-dashboard");
      const me = await apiCaller(app, context)("get", "/api/clients/me");
      expect([me.language, me.digits]).toEqual(["ar", "arab"]);
    } finally {
      await context.close();
    }
  });
});
