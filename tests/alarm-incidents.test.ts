import type { BrowserContext, Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoClaimCode } from "../server/devices/device-keys.ts";
import { apiCaller, expectToast, signedInClientId, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";
import { ALARM_TIMING_ENV } from "./support/alarm-timing.ts";

/**
 * Alarms as a new user meets them, in Chromium against the real server: an open door puts one
 * MCU's temperature, humidity and CO2 out of profile at once. The Alarms page and the bell show
 * one incident, "Tunnel 1: 3 alarms", that expands; each alarm shows the MCU's value now and the
 * worst reached; the bell's entries and a push lead to the alarm or the MCU's history; a farm's
 * alarms are acknowledged at once after a confirmation; on a phone the filters fold away.
 */

const STOCK_MAC = "02:4D:46:00:01:02";
const FARM = "Tunnels";
const MCU = "Tunnel 1";
/** Limits no grow room meets: CO2 above 350 ppm, humidity below 97 %, the room 20 °C or more off 60 °C. */
const DOOR_OPEN = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 5, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 350 },
  ac: { based_on: "room_temp", target_temp: 60 },
  humidifier: { humidity_on_below: 99, humidity_off_above: 100 },
};
const INCIDENT = `${MCU}: 3 alarms`;
const TITLES = [`${MCU}: temperature off target`, `${MCU}: humidity low`, `${MCU}: CO2 high`];
const SHOTS = "test-results";
/** The phone of the screens brief. */
const PHONE = { width: 390, height: 844 };

let app: DemoApp;
let context: BrowserContext;
let page: Page;
let call: ReturnType<typeof apiCaller>;
let mcuId: number;
let farmId: number;

beforeAll(async () => {
  app = await startDemoApp(ALARM_TIMING_ENV);
  ({ context, page } = await app.newPage("laptop"));
  call = apiCaller(app, context);
  await signIn(page);
  const clientId = await signedInClientId(page);
  const farm = await call("post", "/api/farms", { name: FARM, location: "Batroun", client_id: clientId });
  farmId = farm.farm_id;
  const mcu = await call("post", "/api/mcus", { name: MCU, mac: STOCK_MAC, claim_code: demoClaimCode(STOCK_MAC), farm_id: farmId, status: "active" });
  mcuId = mcu.mcu_id;
  const profile = await call("post", "/api/setting-profiles", { name: "Door open", client_id: clientId, config: DOOR_OPEN });
  await call("post", "/api/setting-profiles/link", { mcu_id: mcuId, profile_id: profile.profile_id });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await app?.stop();
});

const activeList = (p: Page) => p.getByRole("list", { name: "Active alarms, newest first" });
const incident = (p: Page) => activeList(p).locator("[data-incident]").filter({ has: p.getByRole("heading", { name: INCIDENT, exact: true }) });
const alarmEntry = (scope: Locator, title: string) => scope.getByRole("article", { name: title, exact: true });
/** The value of a row of an alarm's details, by its term. */
const detail = (alarm: Locator, term: string) => alarm.locator("dt", { hasText: new RegExp(`^${term}$`) }).locator("xpath=following-sibling::dd[1]").innerText();

describe("an open door's alarms", () => {
  it("lists one MCU's alarms that opened together as one incident that expands, each with the value now and the worst reached", async () => {
    await page.goto("/alarms");
    const entry = incident(page);
    await entry.waitFor({ timeout: 60_000 });
    expect(await entry.locator("[data-incident-kinds]").innerText()).toMatch(/^(Temperature off target|Humidity low|CO2 high)(, (Temperature off target|Humidity low|CO2 high)){2}, opened (together|within \d+ min)\.$/);
    // Folded: the alarms themselves are not listed until asked for.
    for (const title of TITLES) expect(await alarmEntry(activeList(page), title).count()).toBe(0);
    await entry.getByRole("button", { name: "Show the 3 alarms" }).click();
    const members = entry.getByRole("list", { name: `${INCIDENT}, newest first` });
    for (const title of TITLES) await alarmEntry(members, title).waitFor();

    // CO2: its words keep the value it opened with; beside them the MCU's value now, and the worst so far.
    const co2 = alarmEntry(members, `${MCU}: CO2 high`);
    const opened = Number(/CO2 is (\d+) ppm/.exec(await co2.locator("p").first().innerText())![1]);
    await expect.poll(() => detail(co2, "Now"), { timeout: 15_000 }).toMatch(/^\d+ ppm$/);
    const worst = Number(/^(\d+) ppm$/.exec(await detail(co2, "Worst"))![1]);
    expect(worst).toBeGreaterThanOrEqual(opened);
    // The value now follows the MCU's live readings (the simulator's CO2 moves every second).
    const first = await detail(co2, "Now");
    await expect.poll(() => detail(co2, "Now"), { timeout: 20_000 }).not.toBe(first);
    expect(await detail(alarmEntry(members, `${MCU}: humidity low`), "Now")).toMatch(/^\d+(\.\d)?%$/);
    expect(await detail(alarmEntry(members, `${MCU}: temperature off target`), "Now")).toMatch(/^-?\d+(\.\d)? °C$/);
    await page.screenshot({ path: `${SHOTS}/alarm-incident-laptop.png`, fullPage: true });

    await entry.getByRole("button", { name: "Hide the 3 alarms" }).click();
    await members.waitFor({ state: "detached" });
  }, 120_000);

  it("groups them in the bell too, and each bell entry leads to its alarm, selected, or the MCU's alarms", async () => {
    await page.goto("/dashboard");
    await page.getByRole("button", { name: /notifications/i }).first().click();
    const panel = page.getByRole("dialog", { name: "Notifications" });
    const group = panel.locator("[data-incident]").filter({ hasText: INCIDENT });
    await group.waitFor({ timeout: 15_000 });
    expect(await group.getByRole("link", { name: new RegExp(`^${INCIDENT}`) }).getAttribute("href")).toBe(`/alarms?mcu=${mcuId}`);
    await group.getByRole("button", { name: "Show the 3 alarms" }).click();
    const co2Note = group.getByRole("list", { name: INCIDENT }).getByRole("link", { name: new RegExp(`^${MCU}: CO2 high`) });
    const href = await co2Note.getAttribute("href");
    expect(href).toMatch(new RegExp(`^/alarms\\?mcu=${mcuId}&alarm=\\d+$`));
    await page.screenshot({ path: `${SHOTS}/alarm-bell-laptop.png` });

    await co2Note.click();
    await page.waitForURL(`**${href}`);
    await panel.waitFor({ state: "hidden" });
    // The alarm it led to: its incident opened, the alarm marked and focused.
    const selected = page.locator('article[aria-current="true"]');
    await selected.waitFor({ timeout: 15_000 });
    expect(await selected.getAttribute("id")).toBe(`alarm-${href!.split("alarm=")[1]}`);
    expect(await selected.getByRole("heading").innerText()).toBe(`${MCU}: CO2 high`);
    await expect.poll(() => page.evaluate("document.activeElement?.getAttribute('aria-current')")).toBe("true");
    // The page is filtered to the MCU.
    expect(await page.getByLabel("MCU").inputValue()).toBe(String(mcuId));
  }, 60_000);

  it("opens a push's link when its notification is clicked: the service worker takes an open window there", async () => {
    const { context: c, page: p } = await app.newPage("laptop");
    try {
      await signIn(p);
      await p.waitForFunction("navigator.serviceWorker.ready.then(() => true)");
      await p.reload();
      await p.waitForFunction("navigator.serviceWorker.controller !== null");
      const [worker] = c.serviceWorkers();
      expect(worker).toBeDefined();
      // What the server sends: the link in the message's data (FCM), and a link off the site is refused.
      expect(await worker!.evaluate(`self.pushLinks.linkOf({ data: { link: "/mcu/${mcuId}" } })`)).toBe(`/mcu/${mcuId}`);
      expect(await worker!.evaluate(`self.pushLinks.linkOf({ fcmOptions: { link: "https://elsewhere.example/x" } })`)).toBe("/dashboard");
      // What a click does (a test cannot click a system notification).
      await worker!.evaluate(`self.pushLinks.openLink("/mcu/${mcuId}")`);
      await p.waitForURL(`**/mcu/${mcuId}`);
    } finally {
      await c.close();
    }
  }, 60_000);

  it("acknowledges every open alarm of a farm at once, after a confirmation, with one comment", async () => {
    await page.goto("/alarms");
    await incident(page).waitFor({ timeout: 15_000 });
    await page.getByRole("button", { name: "Acknowledge all…" }).click();
    const dialog = page.getByRole("dialog", { name: "Acknowledge all alarms of a farm" });
    await dialog.getByLabel("Farm").selectOption({ label: `${FARM} (3 open alarms)` });
    expect(await dialog.locator("[data-confirm-text]").innerText()).toBe(`Every open alarm of ${FARM} (3 open alarms) will be marked acknowledged by you. Each stays listed until its condition clears.`);
    await dialog.getByLabel("Comment for all (optional)").fill("Closed the tunnel door");
    await page.screenshot({ path: `${SHOTS}/alarm-acknowledge-all-laptop.png` });
    // Cancel changes nothing.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await incident(page).getAttribute("data-state")).toBe("open");

    await page.getByRole("button", { name: "Acknowledge all…" }).click();
    await dialog.getByLabel("Farm").selectOption({ label: `${FARM} (3 open alarms)` });
    await dialog.getByLabel("Comment for all (optional)").fill("Closed the tunnel door");
    await dialog.getByRole("button", { name: "Acknowledge 3 alarms" }).click();
    await expectToast(page, `Acknowledged 3 alarms in ${FARM}`);
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(() => incident(page).getAttribute("data-state")).toBe("acknowledged");

    const stored = (await call("get", `/api/alarms?state=active&farm_id=${farmId}`)).alarms as { state: string; ack_comment: string | null; acknowledged_by: string | null }[];
    expect(stored.map((a) => [a.state, a.ack_comment, a.acknowledged_by])).toEqual(Array(3).fill(["acknowledged", "Closed the tunnel door", "demo"]));
  }, 60_000);

  it("folds the filters behind a Filters button on a phone, so the first alarm is on the first screen, and keeps them in the address", async () => {
    const c = await app.browser.newContext({ viewport: PHONE, baseURL: app.url, reducedMotion: "reduce" });
    try {
      const p = await c.newPage();
      await signIn(p);
      await p.goto("/alarms");
      const first = activeList(p).locator(":scope > li").first();
      await first.waitFor({ timeout: 15_000 });
      const filters = p.getByRole("button", { name: /^Filters/ });
      expect(await filters.getAttribute("aria-expanded")).toBe("false");
      expect(await p.getByLabel("Kind").isVisible()).toBe(false);
      // Under the title bar and the Active heading: in the first third of the screen, not halfway down.
      const top = (await first.boundingBox())!.y;
      expect(top).toBeLessThan(PHONE.height / 3);
      expect(await p.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);
      await p.screenshot({ path: `${SHOTS}/alarm-filters-phone.png` });

      await filters.click();
      await p.getByLabel("Kind").selectOption({ label: "CO2 high" });
      await p.waitForURL(/kind=co2_high/);
      // The address changes first; the button's name follows with the page's next render.
      await p.getByRole("button", { name: "Filters (1 set)" }).waitFor();
      expect(await p.getByRole("button", { name: "Filters (1 set)" }).count()).toBe(1);
      await p.screenshot({ path: `${SHOTS}/alarm-filters-open-phone.png` });
      // Folded again, the filter still holds (it is in the address).
      await p.getByRole("button", { name: "Filters (1 set)" }).click();
      expect(await p.getByLabel("Kind").isVisible()).toBe(false);
      await p.reload();
      await p.getByRole("button", { name: "Filters (1 set)" }).waitFor();
      await p.getByRole("button", { name: "Filters (1 set)" }).click();
      expect(await p.getByLabel("Kind").inputValue()).toBe("co2_high");
    } finally {
      await c.close();
    }
  }, 60_000);

  it("reads well on a wall screen", async () => {
    const { context: c, page: p } = await app.newPage("wall");
    try {
      await signIn(p);
      await p.goto("/alarms");
      const entry = incident(p);
      await entry.waitFor({ timeout: 15_000 });
      await entry.getByRole("button", { name: "Show the 3 alarms" }).click();
      expect(await p.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);
      await p.screenshot({ path: `${SHOTS}/alarm-incident-wall.png` });
    } finally {
      await c.close();
    }
  }, 60_000);
});
