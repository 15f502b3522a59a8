import type { BrowserContext, Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoClaimCode } from "../server/devices/device-keys.ts";
import { apiCaller, signedInClientId, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";
import { ALARM_TIMING_ENV } from "./support/alarm-timing.ts";

/**
 * The Alarms page keeps the reader's place while alarms open, are acknowledged and resolve in
 * another browser, in Chromium against the real server: a farmer who has started on the page and
 * is about to tap an alarm's Acknowledge must not have another alarm slide under the finger. New
 * ones wait behind a "Show 1 new alarm" button at the top of the list, and come in, focused, when
 * it is pressed. (A page nobody has touched yet shows them as they come: alarms.test.ts.)
 */

/** Unclaimed demo MCUs from the README: simulated, each starts reporting once claimed. */
const BAYS = [
  { name: "Bay A", mac: "02:4D:46:00:01:01" },
  { name: "Bay B", mac: "02:4D:46:00:01:02" },
  { name: "Bay C", mac: "02:4D:46:00:01:03" },
] as const;
/** CO2 above 350 ppm, which no grow room (nor the simulator) is ever below; every other limit out of reach: one alarm per MCU. */
const CO2_ONLY = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 0, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 350 },
  ac: { based_on: "room_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 0, humidity_off_above: 100 },
};
/** Nothing a room reads is out of it: the alarms resolve. */
const CALM = { ...CO2_ONLY, ventilation: { co2_threshold: 50_000 } };
const title = (bay: string) => `${bay}: CO2 high`;

let app: DemoApp;
let reader: { context: BrowserContext; page: Page };
/** The same account in another browser, where the alarms are acknowledged. */
let other: ReturnType<typeof apiCaller>;
let farmId: number;
let profileId: number;
const mcuIds = new Map<string, number>();

beforeAll(async () => {
  app = await startDemoApp(ALARM_TIMING_ENV);
  reader = await app.newPage("laptop");
  await signIn(reader.page);
  const second = await app.newPage("laptop");
  await signIn(second.page);
  other = apiCaller(app, second.context);
  const clientId = await signedInClientId(second.page);
  farmId = (await other("post", "/api/farms", { name: "Place Farm", location: "Tyre", client_id: clientId })).farm_id;
  for (const bay of BAYS) {
    const mcu = await other("post", "/api/mcus", { name: bay.name, mac: bay.mac, claim_code: demoClaimCode(bay.mac), farm_id: farmId, status: "active" });
    mcuIds.set(bay.name, mcu.mcu_id);
  }
  profileId = (await other("post", "/api/setting-profiles", { name: "CO2 only", client_id: clientId, config: CO2_ONLY })).profile_id;
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

const activeList = (p: Page) => p.getByRole("list", { name: "Active alarms, newest first" });
const resolvedList = (p: Page) => p.getByRole("list", { name: "Resolved alarms, newest first" });
const entry = (list: Locator, name: string) => list.getByRole("article", { name, exact: true });
const link = (bay: string, profile = profileId) => other("post", "/api/setting-profiles/link", { mcu_id: mcuIds.get(bay), profile_id: profile });
/** Where a button is on the screen, to the pixel. */
const placeOf = async (button: Locator) => {
  const box = await button.boundingBox();
  return box && { x: Math.round(box.x), y: Math.round(box.y) };
};
/** The server's open alarm of a bay, once it has one. */
async function openAlarmOf(bay: string): Promise<number> {
  let id: number | undefined;
  await expect
    .poll(
      async () => {
        const page = (await other("get", `/api/alarms?state=active&mcu_id=${mcuIds.get(bay)}`)) as { alarms: { alarm_id: number }[] };
        id = page.alarms[0]?.alarm_id;
        return id;
      },
      { timeout: 60_000 },
    )
    .toBeDefined();
  return id!;
}

describe("the Alarms page while alarms change in another browser", () => {
  it("keeps the Acknowledge button under the reader's pointer where it is: a new alarm waits behind a Show button", async () => {
    const { page } = reader;
    await link("Bay A");
    await link("Bay B");
    // Both open before the page does (one opening after it would wait behind the button).
    await openAlarmOf("Bay A");
    await openAlarmOf("Bay B");
    await page.goto(`/alarms?farm=${farmId}`);
    const active = activeList(page);
    await entry(active, title("Bay A")).waitFor({ timeout: 60_000 });
    await entry(active, title("Bay B")).waitFor({ timeout: 60_000 });
    // The lower of the two, the reader's pointer on its button.
    const lower = (await active.getByRole("article").last().innerText()).includes("Bay A") ? "Bay A" : "Bay B";
    const upper = lower === "Bay A" ? "Bay B" : "Bay A";
    const button = page.getByRole("button", { name: new RegExp(`^Acknowledge: ${title(lower)}`) });
    await button.hover();
    const before = await placeOf(button);

    // Bay C's alarm opens meanwhile.
    await link("Bay C");
    await openAlarmOf("Bay C");
    const show = page.getByRole("button", { name: "Show 1 new alarm" });
    await show.waitFor({ timeout: 10_000 });
    expect(await placeOf(button)).toEqual(before);
    expect(await entry(active, title("Bay C")).count()).toBe(0);
    // The section's count says it, though it waits.
    expect(await page.getByRole("heading", { name: /^Active/ }).innerText()).toMatch(/^Active\s*\(3\)$/);

    // The upper one is acknowledged elsewhere: it changes where it is, and the button stays.
    await other("post", `/api/alarms/${await openAlarmOf(upper)}/acknowledge`, { comment: "On my way" });
    await expect.poll(() => entry(active, title(upper)).getAttribute("data-state"), { timeout: 10_000 }).toBe("acknowledged");
    expect(await placeOf(button)).toEqual(before);
    await page.screenshot({ path: "/tmp/alarms-place-laptop.png", fullPage: false });

    // Asked for, the new one comes in at the top, focused.
    await show.click();
    await entry(active, title("Bay C")).waitFor();
    expect(await active.getByRole("article").first().innerText()).toContain(title("Bay C"));
    await expect.poll(() => page.evaluate('document.activeElement?.closest("article")?.textContent ?? ""') as Promise<string>).toContain(title("Bay C"));
    expect(await show.count()).toBe(0);
  }, 180_000);

  it("keeps the resolved list's first entry first: one resolved meanwhile waits behind a Show button", async () => {
    const { page } = reader;
    const clientId = await signedInClientId(page);
    const calm = async (bay: string) => link(bay, (await other("post", "/api/setting-profiles", { name: `Calm ${bay}`, client_id: clientId, config: CALM })).profile_id);
    // Bay C resolves first: with nothing resolved yet on screen, it shows at once.
    await calm("Bay C");
    const resolved = resolvedList(page);
    await entry(resolved, title("Bay C")).waitFor({ timeout: 60_000 });
    // Then, while the reader reads it, Bay A.
    await calm("Bay A");
    const show = page.getByRole("button", { name: "Show 1 newly resolved alarm" });
    await show.waitFor({ timeout: 60_000 });
    expect(await entry(resolved, title("Bay A")).count()).toBe(0);
    expect(await resolved.getByRole("article").first().innerText()).toContain(title("Bay C"));
    await show.click();
    await entry(resolved, title("Bay A")).waitFor();
    expect(await resolved.getByRole("article").first().innerText()).toContain(title("Bay A"));
    expect(await show.count()).toBe(0);
  }, 180_000);
});
