import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, signIn, startDemoApp, VIEWPORTS, type DemoApp } from "./support/app-harness.ts";

/** The one notice of an ended session (the server's message, server/http/session.ts). */
const ENDED = "Your session has ended. Please sign in again.";

const storedClient = (page: Page) => page.evaluate("localStorage.getItem('client')") as Promise<string | null>;
const toasts = (page: Page) => page.locator(".Toastify__toast");

/**
 * The page went to /login on its own and says so once: exactly one toast, the notice, and the
 * stored client is gone. Everything the ended session still had in flight has failed by the time
 * the sign-in form shows, and none of it may add a toast.
 */
async function expectEndedOnce(page: Page) {
  await page.waitForURL("**/login");
  await page.getByRole("heading", { name: "Welcome Back" }).waitFor();
  await page.getByRole("alert").filter({ hasText: ENDED }).waitFor();
  await page.waitForLoadState("networkidle");
  expect(await toasts(page).allInnerTexts()).toEqual([ENDED]);
  expect(await storedClient(page)).toBeNull();
  // Nothing of the old client is left on screen.
  expect(await page.getByRole("button", { name: "Sign Out" }).count()).toBe(0);
}

describe("a session ended elsewhere", () => {
  let app: DemoApp;

  beforeAll(async () => {
    app = await startDemoApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("takes the other tab to /login with one notice when demo signs out in one tab", async () => {
    // Two tabs of one browser share the session cookie and the stored client.
    const { context, page: one } = await app.newPage("laptop");
    await signIn(one);
    const other = await context.newPage();
    await other.setViewportSize(VIEWPORTS.phone);
    await other.goto("/dashboard");
    await other.getByRole("region", { name: "MCU Readings" }).getByRole("article").first().waitFor({ timeout: 15_000 });

    await one.getByRole("button", { name: "Sign Out" }).click();
    await one.waitForURL("**/login");
    // The tab that signed out says nothing; the other one, left alone, follows with one notice.
    await expectEndedOnce(other);
    await other.screenshot({ path: "test-results/session-ended-phone.png" });
    expect(await toasts(one).filter({ hasText: ENDED }).count()).toBe(0);

    // Reloading does not say it again, and signing in works as usual.
    await other.reload();
    await other.getByRole("heading", { name: "Welcome Back" }).waitFor();
    await other.waitForLoadState("networkidle");
    expect(await toasts(other).count()).toBe(0);
    await signIn(other);
    await context.close();
  });

  it("takes a device reopened after the session ended to /login with one notice, not one per failed load", async () => {
    const one = await app.newPage("laptop");
    await signIn(one.page);
    // A second device with the same session (cookie and stored client), opened later.
    const state = await one.context.storageState();
    await one.page.getByRole("button", { name: "Sign Out" }).click();
    await one.page.waitForURL("**/login");

    const reopened: BrowserContext = await app.browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: app.url, storageState: state });
    const page = await reopened.newPage();
    expect(state.origins[0]?.localStorage.some((e) => e.name === "client")).toBe(true);
    // Farms, MCUs and profiles all answer 401, and the socket is refused.
    await page.goto("/dashboard");
    await expectEndedOnce(page);
    await one.context.close();
    await reopened.close();
  });

  it("takes the other device to /login when the password is changed on one (a new account, so demo stays)", async () => {
    const username = `spore_${Date.now()}`;
    const password = "first-flush-1";
    const one = await app.newPage("laptop");
    const registered = await one.context.request.post("/api/clients", {
      headers: { origin: app.url },
      data: { username, email: `${username}@example.com`, password, confirmPassword: password, mobile: "70 123 456", country: "LB", address: "Byblos" },
    });
    expect(registered.status()).toBe(201);
    const other = await app.newPage("laptop");
    await signIn(one.page, username, password);
    await signIn(other.page, username, password);
    await other.page.goto("/mcu");
    await other.page.getByRole("button", { name: "Add MCU" }).waitFor();

    await one.page.goto("/settings");
    await one.page.getByRole("tab", { name: "Security" }).click();
    await one.page.getByLabel("New Password", { exact: true }).fill("second-flush-2");
    await one.page.getByLabel("Confirm New Password", { exact: true }).fill("second-flush-2");
    await one.page.getByRole("button", { name: "Update Password" }).click();
    await one.page.getByRole("alert").filter({ hasText: "Update password Success" }).waitFor();

    await expectEndedOnce(other.page);
    // The device that changed it stays signed in.
    expect(new URL(one.page.url()).pathname).toBe("/settings");
    expect(await storedClient(one.page)).not.toBeNull();
    await signIn(other.page, username, "second-flush-2");
    await one.context.close();
    await other.context.close();
  });

  it("sends a signed-in client who opens /login or /register to the dashboard", async () => {
    const { context, page } = await app.newPage("phone");
    await signIn(page, DEMO.username, DEMO.password);
    for (const path of ["/login", "/register"]) {
      await page.goto(path);
      await page.waitForURL("**/dashboard");
      expect(await page.getByRole("heading", { name: "Welcome Back" }).count()).toBe(0);
    }
    expect(await storedClient(page)).not.toBeNull();
    await context.close();
  });
});
