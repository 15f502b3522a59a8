import type { BrowserContext, Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoClaimCode } from "../server/devices/device-keys.ts";
import { DEMO, followNavLink, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";
import { expectToastInFront, isUncovered, toastBoxes } from "./support/toast-front.ts";

/**
 * What a new user ran into with messages: the newest toast hid behind older ones (errors
 * included), a form's refusal never showed in the form, and on a phone the toasts covered the
 * top bar's menu button and bell.
 */

/** An unclaimed demo MCU, and Oyster Room A, which the demo client has. */
const STOCK_MAC = "02:4D:46:00:01:01";
const TAKEN_MAC = "02:4D:46:10:00:01";

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/${name}.png` });
}

/** A dialog by its title, once its content shows (Headless UI's dialog element has no box of its own). */
async function dialog(page: Page, title: string): Promise<Locator> {
  const d = page.getByRole("dialog", { name: title });
  await d.getByRole("heading", { name: title }).waitFor();
  return d;
}

/** The error text tied to a control by aria-describedby, once the control is marked invalid. */
async function errorOf(control: Locator): Promise<string | null> {
  await expect.poll(() => control.getAttribute("aria-invalid"), { timeout: 10_000 }).toBe("true");
  const id = (await control.getAttribute("aria-describedby"))!;
  return control.page().locator(`[id="${id}"]`).textContent();
}

describe("the newest message in front, and a refusal said in its form", () => {
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

  it("shows the success of a corrected Add MCU in front of the refusal before it, and the refusal in the form", async () => {
    await signIn(page);
    await followNavLink(page, "MCU Manager");
    await page.waitForURL("**/mcu");
    await page.getByRole("button", { name: "Add MCU" }).click();
    const form = await dialog(page, "Add New MCU");
    await form.getByLabel("MCU Name").fill("Test Bay");
    await form.getByLabel("MAC Address", { exact: true }).fill(STOCK_MAC);
    await form.getByLabel("Claim Code", { exact: true }).fill("7K2M-9QXD-4TWA");
    await form.getByLabel("Assign to Farm").selectOption("North Barn");
    await form.getByRole("button", { name: "Add MCU" }).click();

    const refusal = "The MAC address and claim code do not match an MCU you can add. Check both on the device's label.";
    await expectToastInFront(page, `Creation failed : ${refusal}`);
    // The refusal names no single field: the form says it as a whole.
    const formAlert = form.getByRole("alert").filter({ hasText: refusal });
    await formAlert.waitFor();
    await shoot(page, "new-user-mcu-refusal-laptop");

    await form.getByLabel("Claim Code", { exact: true }).fill(demoClaimCode(STOCK_MAC));
    // A changed form is a new attempt: the old reason goes.
    await formAlert.waitFor({ state: "detached" });
    await form.getByRole("button", { name: "Add MCU" }).click();
    await expectToastInFront(page, "Test Bay MCU added successfully");
    await shoot(page, "new-user-mcu-added-after-refusal-laptop");
  });

  it("ties the server's refusal of a registered MAC to the MAC field of the Add MCU form", async () => {
    await page.getByRole("button", { name: "Add MCU" }).click();
    const form = await dialog(page, "Add New MCU");
    await form.getByLabel("MCU Name").fill("Second Room A");
    await form.getByLabel("MAC Address", { exact: true }).fill(TAKEN_MAC);
    await form.getByLabel("Claim Code", { exact: true }).fill(demoClaimCode(TAKEN_MAC));
    await form.getByLabel("Assign to Farm").selectOption("North Barn");
    await form.getByRole("button", { name: "Add MCU" }).click();
    const reason = `MAC address ${TAKEN_MAC} is already registered`;
    await expectToastInFront(page, `Creation failed : ${reason}`);
    expect(await errorOf(form.getByLabel("MAC Address", { exact: true }))).toBe(reason);
    await shoot(page, "new-user-mcu-mac-refusal-laptop");
    await form.getByRole("button", { name: "Cancel" }).click();
    await form.waitFor({ state: "detached" });
  });

  it("shows why a sensor with an MCU's MAC is refused, in front and in the open form", async () => {
    await followNavLink(page, "Sensors Manager");
    await page.waitForURL("**/sensors");
    await page.getByRole("button", { name: "Scan Sensor" }).click();
    const entry = await dialog(page, "Scan Sensor");
    await entry.getByLabel("MAC Address").fill(TAKEN_MAC);
    await entry.getByRole("button", { name: "Look up" }).click();
    const form = await dialog(page, "Add Sensor");
    await form.getByLabel("Name", { exact: true }).fill("Door sensor");
    await form.getByLabel("Type", { exact: true }).selectOption("CO2");
    await form.getByLabel("Assign to MCU").selectOption({ index: 1 });
    await form.getByRole("button", { name: "Create" }).click();
    const reason = `MAC address ${TAKEN_MAC} is already registered`;
    await expectToastInFront(page, reason);
    expect(await errorOf(form.getByLabel("MAC", { exact: true }))).toBe(reason);
    await shoot(page, "new-user-sensor-refusal-laptop");
    expect(await form.count()).toBe(1);
  });

  it("shows a failed sign-in in front of the registration's welcome", async () => {
    const { context: fresh, page: visitor } = await app.newPage("laptop");
    try {
      const username = `grower_${Date.now()}`;
      await visitor.goto("/register");
      await visitor.getByLabel("Username", { exact: true }).fill(username);
      await visitor.getByLabel("Email", { exact: true }).fill(`${username}@example.com`);
      await visitor.getByLabel("Password", { exact: true }).fill("oyster-caps-2024");
      await visitor.getByLabel("Confirm Password", { exact: true }).fill("oyster-caps-2024");
      await visitor.getByLabel("Mobile", { exact: true }).fill("+961 70 123 456");
      await visitor.getByLabel("Address", { exact: true }).fill("Main road");
      await visitor.getByRole("button", { name: "Create Account" }).click();
      await visitor.waitForURL("**/login");
      await visitor.getByLabel("Email or Username").fill(username);
      await visitor.getByLabel("Password", { exact: true }).fill("not-my-password");
      await visitor.getByRole("button", { name: "Sign In" }).click();
      await expectToastInFront(visitor, "Invalid credentials or server error");
      await shoot(visitor, "new-user-sign-in-failed-after-register-laptop");
    } finally {
      await fresh.close();
    }
  });
});

describe("toasts on a phone", () => {
  let app: DemoApp;

  beforeAll(async () => {
    app = await startDemoApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("keeps the menu button and the bell free while Login successful! shows", async () => {
    const { context, page } = await app.newPage("phone");
    try {
      await signIn(page, DEMO.username, DEMO.password);
      await expectToastInFront(page, "Login successful!");
      const menu = page.getByRole("button", { name: "Open menu" });
      const bell = page.getByRole("button", { name: /^Notifications/ });
      expect(await isUncovered(menu)).toBe(true);
      expect(await isUncovered(bell)).toBe(true);
      // Nor does any toast overlap them at their edges.
      const controls = [(await menu.boundingBox())!, (await bell.boundingBox())!];
      for (const t of await toastBoxes(page)) {
        for (const c of controls) {
          const overlaps = t.x < c.x + c.width && c.x < t.x + t.width && t.y < c.y + c.height && c.y < t.y + t.height;
          expect(overlaps).toBe(false);
        }
      }
      await shoot(page, "new-user-login-toast-phone");
      // The menu opens at the first tap, while the toast still shows.
      await menu.click({ trial: true, timeout: 2_000 });
    } finally {
      await context.close();
    }
  });

  it("shows a toast on a wall screen in front and readable", async () => {
    const { context, page } = await app.newPage("wall");
    try {
      await signIn(page, DEMO.username, DEMO.password);
      await expectToastInFront(page, "Login successful!");
      await shoot(page, "new-user-login-toast-wall");
    } finally {
      await context.close();
    }
  });
});
