import type { Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, expectToast, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";

/**
 * SPEC §2 System Controllers, Sensors and Settings against the real server and the demo farm:
 * 12 MCUs, each with 4 controllers (Mist maker, Drip line, Cooling unit, Exhaust fan at
 * 02:4D:46:30:{MCU}:0{1-4}) and 4 sensors (5 on every third MCU, which has 2 humidity sensors),
 * plus the unclaimed stock of README "The demo farm".
 */

const STOCK_CONTROLLER = "02:4D:46:00:02:01"; // Humidifier
const STOCK_SENSOR = "02:4D:46:00:03:01"; // CO2
const DEMO_CONTROLLER = "02:4D:46:30:01:01"; // "Mist maker" on Oyster Room A

/** A screenshot of what the screen shows (a phone's 50 cards make a full-page shot unreadable). */
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/${name}.png` });

const cards = (page: Page, list: "Controllers" | "Sensors") => page.getByRole("list", { name: list }).getByRole("listitem");

const inputValue = (scope: Locator, label: string) => scope.getByLabel(label, { exact: true }).inputValue();

/**
 * A dialog by its title, once its content shows. (Headless UI's dialog element itself has no
 * box of its own, so Playwright never calls it visible.)
 */
async function dialog(page: Page, title: string): Promise<Locator> {
  const d = page.getByRole("dialog", { name: title });
  await d.getByRole("heading", { name: title }).waitFor();
  return d;
}

/**
 * A toast, found by its text: while a dialog is open the rest of the page (toasts included) is
 * hidden from the accessibility tree, so the harness's role-based expectToast cannot see it.
 */
const toastText = (page: Page, text: string) => page.locator(".Toastify").getByText(text, { exact: true }).first().waitFor({ timeout: 10_000 });

async function scan(page: Page, button: "Scan Controller" | "Scan Sensor", mac: string) {
  await page.getByRole("button", { name: button }).click();
  const entry = await dialog(page, button);
  await entry.getByLabel("MAC Address").fill(mac);
  await entry.getByRole("button", { name: "Look up" }).click();
  await entry.waitFor({ state: "detached" });
}

async function confirmWith(page: Page, text: string) {
  const ask = page.getByRole("alertdialog", { name: text });
  await ask.getByRole("button", { name: "OK" }).click();
}

/** The text of the option chosen in a select. */
const selectedText = async (scope: Locator, label: string) => (await scope.getByLabel(label, { exact: true }).locator("option:checked").textContent()) ?? "";

/** expect.poll with room for a real server and browser (its default gives up after 1 s). */
const eventually = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describe("controllers, sensors and settings screens", () => {
  let app: DemoApp;

  beforeAll(async () => {
    app = await startDemoApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("claims an unclaimed controller by scanning its MAC, edits it, finds it by scan and deletes it", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    await page.goto("/controllers");
    await page.getByRole("heading", { level: 2, name: "System Controllers" }).waitFor();
    await eventually(() => cards(page, "Controllers").count()).toBe(48);
    await eventually(() => page.getByPlaceholder("Search by name or MAC...").count()).toBe(1);
    await shot(page, "controllers-laptop");

    // Lower case with dashes, as a label might print it: normalised before the lookup.
    await scan(page, "Scan Controller", "02-4d-46-00-02-01");
    const form = await dialog(page, "Add Controller");
    expect(await inputValue(form, "MAC")).toBe(STOCK_CONTROLLER);
    expect(await inputValue(form, "Type")).toBe("Humidifier");
    expect(await form.getByLabel("MAC", { exact: true }).getAttribute("readonly")).not.toBeNull();
    expect(await form.getByLabel("Type", { exact: true }).getAttribute("readonly")).not.toBeNull();
    expect(await inputValue(form, "Name")).toBe("");

    await form.getByRole("button", { name: "Create" }).click();
    await form.getByText("Name is required").waitFor();
    await form.getByText("Please select an MCU").waitFor();
    await shot(page, "controller-create-errors-laptop");

    await form.getByLabel("Name").fill("Spare mister");
    await form.getByLabel("Assign to MCU").selectOption({ index: 2 });
    const mcuOption = await selectedText(form, "Assign to MCU");
    expect(mcuOption).toMatch(/^.+ \((?:[0-9A-F]{2}:){5}[0-9A-F]{2}\)$/);
    const mcuName = mcuOption.replace(/ \(.*\)$/, "");
    await form.getByRole("button", { name: "Create" }).click();
    await expectToast(page, "Created successfully");
    await form.waitFor({ state: "detached" });
    await eventually(() => cards(page, "Controllers").count()).toBe(49);

    const card = cards(page, "Controllers").filter({ hasText: STOCK_CONTROLLER });
    expect(await card.getByRole("heading").textContent()).toBe("Spare mister");
    expect(await card.textContent()).toContain("Humidifier");
    expect(await card.textContent()).toContain(mcuName);

    await card.getByRole("button", { name: `Edit Spare mister (${STOCK_CONTROLLER})` }).click();
    const edit = await dialog(page, "Edit Controller");
    expect(await inputValue(edit, "Name")).toBe("Spare mister");
    expect(await selectedText(edit, "Assign to MCU")).toBe(mcuOption);
    await edit.getByLabel("Name").fill("Backup mister");
    await edit.getByRole("button", { name: "Update" }).click();
    await expectToast(page, "Updated successfully");
    await edit.waitFor({ state: "detached" });
    await eventually(() => card.getByRole("heading").textContent()).toBe("Backup mister");

    // Scanning a controller the client already has opens it for editing.
    await scan(page, "Scan Controller", STOCK_CONTROLLER);
    await toastText(page, `Controller ${STOCK_CONTROLLER} loaded`);
    expect(await inputValue(edit, "Name")).toBe("Backup mister");
    await edit.getByRole("button", { name: "Cancel" }).click();

    await card.getByRole("button", { name: `Delete Backup mister (${STOCK_CONTROLLER})` }).click();
    await confirmWith(page, "Confirm delete?");
    await expectToast(page, "Deleted successfully");
    await eventually(() => cards(page, "Controllers").count()).toBe(48);
    expect(await card.count()).toBe(0);
    await context.close();
  });

  it("opens a demo controller found by scan, and creates one for a MAC nobody knows with the type chosen", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    await page.goto("/controllers");
    await eventually(() => cards(page, "Controllers").count()).toBe(48);

    await scan(page, "Scan Controller", DEMO_CONTROLLER);
    await toastText(page, `Controller ${DEMO_CONTROLLER} loaded`);
    const edit = await dialog(page, "Edit Controller");
    expect(await inputValue(edit, "Name")).toBe("Mist maker");
    expect(await selectedText(edit, "Assign to MCU")).toMatch(/^Oyster Room A \(/);
    await page.keyboard.press("Escape");
    await edit.waitFor({ state: "detached" });

    const unknown = "0A:1B:2C:3D:4E:5F";
    await scan(page, "Scan Controller", unknown);
    await toastText(page, `No controller found for MAC: ${unknown}`);
    const form = await dialog(page, "Add Controller");
    await form.getByRole("status").filter({ hasText: `No controller found for MAC: ${unknown}` }).waitFor();
    expect(await inputValue(form, "MAC")).toBe(unknown);
    expect(await inputValue(form, "Name")).toBe("");
    const typeSelect = form.getByRole("combobox", { name: "Type" });
    expect(await typeSelect.isEnabled()).toBe(true);
    expect(await typeSelect.inputValue()).toBe("");
    await form.getByLabel("Name").fill("Roof fan");
    await form.getByLabel("Assign to MCU").selectOption({ index: 1 });
    await form.getByRole("button", { name: "Create" }).click();
    await form.getByText("Type required").waitFor();
    await typeSelect.selectOption("Ventilation");
    await shot(page, "controller-unknown-mac-laptop");
    await form.getByRole("button", { name: "Create" }).click();
    await expectToast(page, "Created successfully");
    const card = cards(page, "Controllers").filter({ hasText: unknown });
    await card.waitFor();
    expect(await card.textContent()).toContain("Ventilation");
    await context.close();
  });

  it("searches controllers by name or MAC and filters them by type", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    await page.goto("/controllers");
    await eventually(() => cards(page, "Controllers").count()).toBeGreaterThanOrEqual(48);
    const search = page.getByRole("searchbox", { name: "Search controllers" });
    const type = page.getByRole("combobox", { name: "Type" });
    expect(await type.locator("option").allTextContents()).toEqual(["All", "Humidifier", "Irrigation", "Ac", "Ventilation"]);

    await search.fill("DRIP LINE");
    await eventually(() => cards(page, "Controllers").count()).toBe(12);
    for (const text of await cards(page, "Controllers").allTextContents()) expect(text).toContain("Drip line");

    await search.fill("02:4d:46:30:01:0");
    await eventually(() => cards(page, "Controllers").count()).toBe(4);

    await search.fill("");
    await type.selectOption("Ac");
    await eventually(() => cards(page, "Controllers").count()).toBe(12);
    for (const text of await cards(page, "Controllers").allTextContents()) expect(text).toContain("Cooling unit");

    await search.fill("30:01:");
    await eventually(() => cards(page, "Controllers").count()).toBe(1);
    await search.fill("mist maker");
    await page.getByText("No controllers found").waitFor();
    await context.close();
  });

  it("claims an unclaimed sensor by scan (Unnamed until named), edits and deletes it; an unknown MAC gets the not-found notice", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    await page.goto("/sensors");
    await page.getByRole("heading", { level: 2, name: "Sensors" }).waitFor();
    await eventually(() => cards(page, "Sensors").count()).toBe(52);
    await shot(page, "sensors-laptop");

    await scan(page, "Scan Sensor", STOCK_SENSOR);
    const form = await dialog(page, "Add Sensor");
    expect(await inputValue(form, "MAC")).toBe(STOCK_SENSOR);
    const typeSelect = form.getByRole("combobox", { name: "Type" });
    expect(await typeSelect.isDisabled()).toBe(true);
    expect(await typeSelect.inputValue()).toBe("CO2");
    await form.getByRole("button", { name: "Create" }).click();
    await form.getByText("MCU required").waitFor();
    await form.getByLabel("Assign to MCU").selectOption({ index: 1 });
    await form.getByRole("button", { name: "Create" }).click();
    await expectToast(page, "Sensor created");
    await form.waitFor({ state: "detached" });
    await eventually(() => cards(page, "Sensors").count()).toBe(53);
    const card = cards(page, "Sensors").filter({ hasText: STOCK_SENSOR });
    expect(await card.getByRole("heading").textContent()).toBe("Unnamed");
    expect(await card.textContent()).toContain("CO2");

    await card.getByRole("button", { name: `Edit Unnamed (${STOCK_SENSOR})` }).click();
    const edit = await dialog(page, "Edit Sensor");
    expect(await edit.getByRole("combobox", { name: "Type" }).isDisabled()).toBe(true);
    await edit.getByLabel("Name").fill("Spare CO2");
    await edit.getByRole("button", { name: "Update" }).click();
    await expectToast(page, "Sensor updated");
    await eventually(() => card.getByRole("heading").textContent()).toBe("Spare CO2");

    await scan(page, "Scan Sensor", STOCK_SENSOR);
    await toastText(page, `Loaded sensor ${STOCK_SENSOR}`);
    expect(await inputValue(edit, "Name")).toBe("Spare CO2");
    await edit.getByRole("button", { name: "Close" }).click();

    await card.getByRole("button", { name: `Delete Spare CO2 (${STOCK_SENSOR})` }).click();
    await confirmWith(page, "Delete this sensor?");
    await expectToast(page, "Sensor deleted");
    await eventually(() => cards(page, "Sensors").count()).toBe(52);

    // A controller's MAC is not a sensor: the sensor scan answers not found, like an unknown MAC.
    const notSensor = "02:4D:46:00:02:02";
    await scan(page, "Scan Sensor", notSensor);
    await toastText(page, `Sensor ${notSensor} Not Found, Or Already Used`);
    const create = await dialog(page, "Add Sensor");
    await create.getByRole("status").filter({ hasText: `Sensor ${notSensor} Not Found, Or Already Used` }).waitFor();
    expect(await inputValue(create, "MAC")).toBe(notSensor);
    expect(await create.getByRole("combobox", { name: "Type" }).isEnabled()).toBe(true);
    await create.getByLabel("Assign to MCU").selectOption({ index: 1 });
    await create.getByRole("button", { name: "Create" }).click();
    await create.getByText("Type required").waitFor();
    await create.getByRole("button", { name: "Cancel" }).click();
    await context.close();
  });

  it("searches sensors by name or MAC and filters them by type", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    await page.goto("/sensors");
    await eventually(() => cards(page, "Sensors").count()).toBe(52);
    const search = page.getByRole("searchbox", { name: "Search sensors" });
    const type = page.getByRole("combobox", { name: "Type" });
    expect(await type.locator("option").allTextContents()).toEqual(["All", "CO2", "Humidity", "Soil_temp", "Moisture"]);

    await type.selectOption("Humidity");
    await eventually(() => cards(page, "Sensors").count()).toBe(16);
    await type.selectOption("Soil_temp");
    await eventually(() => cards(page, "Sensors").count()).toBe(12);
    for (const text of await cards(page, "Sensors").allTextContents()) expect(text).toContain("Soil_temp");

    await type.selectOption("All");
    await search.fill("soil TEMP");
    await eventually(() => cards(page, "Sensors").count()).toBe(12);
    await search.fill("02:4D:46:20:01:");
    await eventually(() => cards(page, "Sensors").count()).toBe(5);
    await type.selectOption("Moisture");
    await eventually(() => cards(page, "Sensors").count()).toBe(1);
    await context.close();
  });

  it("says when a list fails to load and loads it again on Try again", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    for (const [path, list, text] of [
      ["/api/controllers", "Controllers", "Failed to load controllers"],
      ["/api/sensors", "Sensors", "Failed to load sensors"],
    ] as const) {
      const failing = `**${path}`;
      await context.route(failing, (route) => route.fulfill({ status: 500, contentType: "application/json", body: '{"code":"INTERNAL","message":"Internal error"}' }));
      await page.goto(list === "Controllers" ? "/controllers" : "/sensors");
      await expectToast(page, text);
      const error = page.getByRole("main").getByRole("alert").filter({ hasText: text });
      await error.waitFor();
      expect(await cards(page, list).count()).toBe(0);
      await context.unroute(failing);
      await error.getByRole("button", { name: "Try again" }).click();
      await eventually(() => cards(page, list).count()).toBeGreaterThanOrEqual(48);
    }
    await context.close();
  });

  it("shows the controllers and sensors screens on a phone and a wall screen", async () => {
    for (const size of ["phone", "wall"] as const) {
      const { context, page } = await app.newPage(size);
      await signIn(page);
      await page.goto("/controllers");
      await eventually(() => cards(page, "Controllers").count()).toBeGreaterThanOrEqual(48);
      await shot(page, `controllers-${size}`);
      await scan(page, "Scan Controller", STOCK_CONTROLLER);
      await dialog(page, "Add Controller");
      await shot(page, `controller-form-${size}`);
      await page.keyboard.press("Escape");
      await page.goto("/sensors");
      await eventually(() => cards(page, "Sensors").count()).toBe(52);
      await shot(page, `sensors-${size}`);
      await context.close();
    }
  });

  it("updates the profile and the password in Settings", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    await page.goto("/settings");
    const profileTab = page.getByRole("tab", { name: "Profile" });
    expect(await profileTab.getAttribute("aria-selected")).toBe("true");
    const firstName = page.getByLabel("First Name");
    expect(await firstName.inputValue()).toBe(DEMO.username);
    expect(await page.getByLabel("Email Address").inputValue()).toBe(DEMO.email);
    expect(await page.getByLabel("Country").inputValue()).toBe("LB");
    await shot(page, "account-settings-profile-laptop");

    await firstName.fill("");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.getByText("First name is required").waitFor();

    await firstName.fill("Rami");
    await page.getByLabel("Phone Number").fill("+961 3 555 111");
    await page.getByLabel("Country").selectOption("FR");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Update profile Success");
    const sidebar = page.getByRole("complementary", { name: "Main navigation" });
    await sidebar.getByText("Rami", { exact: true }).waitFor();
    await page.reload();
    expect(await page.getByLabel("First Name").inputValue()).toBe("Rami");
    expect(await page.getByLabel("Phone Number").inputValue()).toBe("+961 3 555 111");
    expect(await page.getByLabel("Country").inputValue()).toBe("FR");

    await page.getByRole("tab", { name: "Notifications" }).click();
    // What the server delivers is a real choice (in-app, push of alarms, quiet hours); SPEC's
    // email switches, and Daily Summary, stay display-only: shown on, disabled.
    const switches = page.getByRole("switch");
    await eventually(() => switches.count()).toBe(10);
    const email = page.getByRole("group", { name: "Email" });
    for (const name of ["System Alerts", "Device Status Changes", "Environmental Alerts", "Maintenance Reminders"]) {
      const toggle = email.getByRole("switch", { name });
      expect(await toggle.getAttribute("aria-checked")).toBe("true");
      expect(await toggle.isDisabled()).toBe(true);
    }
    const daily = page.getByRole("switch", { name: "Daily Summary" });
    expect([await daily.getAttribute("aria-checked"), await daily.isDisabled()]).toEqual(["true", true]);
    for (const name of ["Device Status Changes", "Environmental Alerts", "Low Battery"]) {
      const toggle = page.getByRole("group", { name: "In-app" }).getByRole("switch", { name });
      expect([await toggle.getAttribute("aria-checked"), await toggle.isDisabled()]).toEqual(["true", false]);
    }
    expect(await page.getByRole("switch", { name: "Emergency Alerts" }).isDisabled()).toBe(false);
    await email.getByText("MCUs going online or offline").waitFor();
    await shot(page, "account-settings-notifications-laptop");

    await page.getByRole("tab", { name: "Security" }).click();
    const password = page.getByLabel("New Password", { exact: true });
    const confirm = page.getByLabel("Confirm New Password", { exact: true });
    await page.getByRole("button", { name: "Update Password" }).click();
    await page.getByText("New password is required").waitFor();
    await password.fill("fresh-spores-42");
    await confirm.fill("fresh-spores-43");
    await page.getByRole("button", { name: "Update Password" }).click();
    await page.getByText("Passwords do not match").waitFor();

    // The server's minimum of 8 characters: SPEC §8's toast, and the reason under the form.
    await password.fill("short");
    await confirm.fill("short");
    await page.getByRole("button", { name: "Update Password" }).click();
    await expectToast(page, "Update password Failed");
    await page.getByText("Password must be at least 8 characters").waitFor();
    await shot(page, "account-settings-security-laptop");

    await password.fill("fresh-spores-42");
    await confirm.fill("fresh-spores-42");
    await page.getByRole("button", { name: "Update Password" }).click();
    await expectToast(page, "Update password Success");
    await eventually(() => password.inputValue()).toBe("");

    await page.getByRole("button", { name: "Sign Out" }).click();
    await page.waitForURL("**/login");
    await signIn(page, "Rami", "fresh-spores-42");
    await page.goto("/settings");
    expect(await page.getByLabel("First Name").inputValue()).toBe("Rami");
    await context.close();

    for (const size of ["phone", "wall"] as const) {
      const other = await app.newPage(size);
      await signIn(other.page, DEMO.email, "fresh-spores-42");
      await other.page.goto("/settings");
      await other.page.getByLabel("First Name").waitFor();
      await shot(other.page, `account-settings-profile-${size}`);
      await other.page.getByRole("tab", { name: "Notifications" }).click();
      await shot(other.page, `account-settings-notifications-${size}`);
      await other.context.close();
    }
  });
});
