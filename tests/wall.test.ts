import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import mqtt, { type MqttClient } from "mqtt";
import type { BrowserContext, Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mcu } from "../src/contract/entities.ts";
import { TOPICS, type TelemetryMessage } from "../src/contract/mqtt.ts";
import { migrate } from "../server/db/migrate.ts";
import { openPglite } from "../server/db/database.ts";
import { provisionDevices, randomMac, type ProvisionedDevice } from "../server/devices/provisioning.ts";
import { freePort } from "../server/test-support/free-port.ts";
import { apiCaller, followNavLink, signedInClientId, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";

/**
 * The wall view against the real server with the demo fleet, plus a farm of three MCUs
 * whose devices this test plays over MQTT, so it decides their readings.
 */
const FARM = "Wall Test Farm";
const BAYS = ["Bay 1", "Bay 2", "Bay 3"] as const;
/** Humidity below 85 - 2 is out of this profile; the other values are kept well inside it. */
const PROFILE_CONFIG = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 1500 },
  ac: { based_on: "room_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 93 },
};
const NORMAL = { temperature: 18.2, humidity: 90, soil: 17.5, co2: 900, moisture: 52, battery: 80 };
const SHOTS = join(process.cwd(), ".tmp");

type Values = typeof NORMAL;

/** A device of the test's farm: reports its values every second (so it stays online) and at once when they change. */
class TestDevice {
  values: Values = { ...NORMAL };
  private client: MqttClient | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  constructor(readonly device: ProvisionedDevice) {}

  start(url: string) {
    const { mac, key } = this.device;
    // mqtt.js reconnects by itself (every second), also to a restarted server.
    this.client = mqtt.connect(url, { clientId: mac, username: mac, password: key, reconnectPeriod: 1000, will: { topic: TOPICS.status(mac), payload: Buffer.from("offline"), qos: 1, retain: true } });
    this.client.on("connect", () => this.client!.publish(TOPICS.status(mac), "online", { qos: 1, retain: true }));
    this.timer = setInterval(() => this.report(), 1000);
  }

  set(values: Partial<Values>) {
    Object.assign(this.values, values);
    this.report();
  }

  report() {
    if (!this.client?.connected) return;
    const v = this.values;
    const message: TelemetryMessage = {
      DHT: { temperature: v.temperature, humidity: v.humidity, count: 1 },
      SOIL_TEMP: { soil_temperature: v.soil, count: 1 },
      CO2: { co2: v.co2, count: 1 },
      MOISTURE: { soil_moisture: v.moisture, count: 1 },
      Irrigation: { status: false, auto: true, session: false },
      AC: { status: false, auto: true },
      Ventilation: { status: false, auto: true },
      Humidifier: { status: false, auto: true },
      batteryLevel: v.battery,
    };
    this.client.publish(TOPICS.telemetry(this.device.mac), JSON.stringify(message), { qos: 0 });
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    await this.client?.endAsync(true);
  }
}

let app: DemoApp;
let context: BrowserContext;
let page: Page;
let clientId: number;
const devices = new Map<string, TestDevice>();
const device = (name: (typeof BAYS)[number]) => devices.get(name)!;

beforeAll(async () => {
  const mqttPort = await freePort();
  let provisioned: ProvisionedDevice[] = [];
  app = await startDemoApp(
    // A fixed MQTT port, so the devices find the broker again after a restart.
    { MQTT_PORT: String(mqttPort) },
    {
      // Provisioned before the server opens the folder, as `npm run provision` does with the server stopped.
      async prepare(dataDir) {
        const db = await openPglite(dataDir);
        await migrate(db);
        provisioned = await provisionDevices(db, BAYS.map(() => ({ mac: randomMac(), kind: "mcu" as const, type: null })));
        await db.close();
      },
    },
  );
  ({ context, page } = await app.newPage("wall"));
  await signIn(page);
  clientId = await signedInClientId(page);
  const call = apiCaller(app, context);
  const post = (path: string, data: object) => call("post", path, data);
  const farm = await post("/api/farms", { name: FARM, location: "Batroun", client_id: clientId });
  const profile = await post("/api/setting-profiles", { name: "Wall test", client_id: clientId, config: PROFILE_CONFIG });
  for (const [i, name] of BAYS.entries()) {
    const d = provisioned[i]!;
    const mcu = await post("/api/mcus", { name, mac: d.mac, claim_code: d.claimCode, farm_id: farm.farm_id, status: "active" });
    await post("/api/setting-profiles/link", { mcu_id: mcu.mcu_id, profile_id: profile.profile_id });
    const td = new TestDevice(d);
    devices.set(name, td);
    td.start(`mqtt://127.0.0.1:${mqttPort}`);
  }
  await mkdir(SHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await Promise.all([...devices.values()].map((d) => d.stop()));
  await context?.close();
  await app?.stop();
});

/** A tile by its MCU's name (role group, named by the MCU). */
const tile = (p: Page, name: string) => p.getByRole("group", { name, exact: true });
const stateOf = (t: Locator) => t.getAttribute("data-state");
const stateText = (t: Locator) => t.locator(".wall-tile-state > span:not(.sr-only)").innerText();
const farmSection = (p: Page, name: string) => p.getByRole("region", { name, exact: true });
/** How a tile's description begins in each state. */
const STATE_IN_WORDS: Record<string, RegExp> = {
  normal: /^Normal$/,
  "out-of-profile": /^Out of profile: .+ — /,
  offline: /^(Offline — |Waiting for live data)/,
  "low-battery": /^Low battery: \d+ %$/,
};

/** Opens the wall (pages turning only when `rotate` says so) and waits for its first tiles. */
async function openWall(p: Page, query = "rotate=0") {
  await p.goto(`/wall?${query}`);
  await p.getByRole("group", { name: /./ }).locator("h3").first().waitFor({ timeout: 30_000 });
}

/** Turns the pages with Next page until the tile is on screen (a wall larger than one screen). */
async function showTile(p: Page, name: string): Promise<Locator> {
  const t = tile(p, name);
  for (let i = 0; i < 12 && (await t.count()) === 0; i++) {
    const next = p.getByRole("button", { name: "Next page" });
    if ((await next.count()) === 0) break;
    await next.click();
    await p.waitForTimeout(300);
  }
  await t.waitFor({ timeout: 15_000 });
  return t;
}

async function backgroundOf(t: Locator): Promise<[number, number, number]> {
  const color = await t.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).backgroundColor);
  const [r, g, b] = color.match(/\d+/g)!.map(Number);
  return [r!, g!, b!];
}

/** The MCU names of a farm's section, in the order shown. */
const tileNames = (section: Locator) => section.locator("article h3").allInnerTexts();

describe("the wall view", () => {
  it("is reached from the sidebar and fills the screen without it", async () => {
    await page.goto("/dashboard");
    await followNavLink(page, "Wall view");
    await page.waitForURL("**/wall");
    await page.getByRole("heading", { level: 1, name: "Wall view" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Main navigation" }).count()).toBe(0);
    expect(await page.title()).toBe("Wall view · Mushroom Farm");
  });

  it("turns a tile red with the value named while a reading is out of profile, and back once it returns", async () => {
    await openWall(page);
    const bay = await showTile(page, "Bay 1");
    await expect.poll(() => stateOf(bay), { timeout: 30_000 }).toBe("normal");
    expect(await stateText(bay)).toBe("Normal");
    expect(await bay.getByText("Online", { exact: true }).count()).toBe(1);

    device("Bay 1").set({ humidity: 78 });
    await expect.poll(() => stateText(bay), { timeout: 15_000 }).toBe("Humidity 78.0 % — below 85 %");
    expect(await stateOf(bay)).toBe("out-of-profile");
    const [r, g, b] = await backgroundOf(bay);
    expect(r).toBeGreaterThan(150);
    expect(g + b).toBeLessThan(r);
    // Not colour alone: the value is named in words, its cell is marked, a screen reader hears why.
    const humidity = bay.locator(".wall-cell").filter({ has: page.locator("dt", { hasText: "Humidity" }) });
    expect(await humidity.getAttribute("data-out-of-profile")).toBe("");
    expect(await humidity.locator("dd.wall-value").innerText()).toMatch(/^78\.0\s*%$/);
    expect(await humidity.locator("dd.sr-only").textContent()).toBe("Outside the profile: below 85 %");
    const description = await page.locator(`[id="${await bay.getAttribute("aria-describedby")}"]`).textContent();
    expect(description).toBe("Out of profile: Humidity 78.0 % — below 85 %");

    // Two values out: how many, in words, then the first named.
    device("Bay 1").set({ co2: 1700 });
    await expect.poll(() => stateText(bay), { timeout: 15_000 }).toBe("2 values out of profile: Humidity 78.0 % — below 85 %");
    device("Bay 1").set({ co2: NORMAL.co2 });
    await expect.poll(() => stateText(bay), { timeout: 15_000 }).toBe("Humidity 78.0 % — below 85 %");

    device("Bay 1").set({ humidity: 90 });
    await expect.poll(() => stateOf(bay), { timeout: 15_000 }).toBe("normal");
    expect(await stateText(bay)).toBe("Normal");
    expect((await backgroundOf(bay))[0]).toBeLessThan(100);
    expect(await bay.locator("[data-out-of-profile]").count()).toBe(0);
  });

  it("groups the tiles by farm and puts those in trouble first within their farm", async () => {
    await openWall(page);
    await showTile(page, "Bay 1");
    const section = farmSection(page, FARM);
    await expect.poll(() => tileNames(section), { timeout: 30_000 }).toEqual(["Bay 1", "Bay 2", "Bay 3"]);

    // Every tile shown sits under its own farm, as the API has them.
    const res = await context.request.get(`/api/mcus/by-client/${clientId}`);
    const farmOf = new Map(((await res.json()) as Mcu[]).map((m) => [m.name, m.farm.name]));
    for (const region of await page.getByRole("main").getByRole("region").all()) {
      const farm = (await region.locator("h2").evaluate((h) => h.firstChild?.textContent ?? "")).trim();
      for (const name of await tileNames(region)) expect(farmOf.get(name), name).toBe(farm);
    }

    device("Bay 3").set({ humidity: 70 });
    device("Bay 2").set({ battery: 20 });
    // (Bay 1 may still hold the place its last trouble gave it: a place is kept 15 s.)
    await expect.poll(() => tileNames(section), { timeout: 40_000 }).toEqual(["Bay 3", "Bay 2", "Bay 1"]);
    expect(await stateOf(tile(page, "Bay 2"))).toBe("low-battery");
    expect(await stateText(tile(page, "Bay 2"))).toBe("Low battery: 20 %");
    expect(await section.locator("h2 + p").innerText()).toBe("3 MCUs · 1 out of profile · 1 low battery");

    device("Bay 3").set({ humidity: 90 });
    device("Bay 2").set({ battery: 80 });
    // The state follows the reading at once; the place waits a moment (a wavering value does not shuffle the farm).
    await expect.poll(() => stateOf(tile(page, "Bay 3")), { timeout: 15_000 }).toBe("normal");
    await expect.poll(() => tileNames(section), { timeout: 40_000 }).toEqual(["Bay 1", "Bay 2", "Bay 3"]);
    expect(await section.locator("h2 + p").innerText()).toBe("3 MCUs");
  }, 120_000);

  it("shows how old its data is while the server is down, and reconnects by itself after a restart", async () => {
    await openWall(page);
    const bay = await showTile(page, "Bay 1");
    device("Bay 1").set({ temperature: 18.4 });
    const temperature = bay.locator(".wall-cell").filter({ has: page.locator("dt", { hasText: "Temperature" }) }).locator("dd.wall-value");
    await expect.poll(() => temperature.innerText(), { timeout: 15_000 }).toMatch(/^18\.4/);

    expect(await app.server.stop()).toBe(0);
    const banner = page.getByRole("status").filter({ hasText: "Connection lost" });
    await expect.poll(() => banner.innerText(), { timeout: 30_000 }).toMatch(/^Connection lost — data from \d{1,2}:\d{2}:\d{2}( [AP]M)?, less than a minute ago\. Reconnecting…$/);
    // The tiles keep what they last showed, and the age moves on by itself.
    expect(await temperature.innerText()).toMatch(/^18\.4/);
    await expect.poll(() => banner.innerText(), { timeout: 90_000, interval: 2_000 }).toMatch(/, 1 min ago\. Reconnecting…$/);

    // The same port and data folder, as after an update or a crash.
    await app.restart();
    await expect.poll(() => banner.count(), { timeout: 60_000 }).toBe(0);
    device("Bay 1").set({ temperature: 19.7 });
    await expect.poll(() => temperature.innerText(), { timeout: 30_000 }).toMatch(/^19\.7/);
    expect(await stateOf(bay)).toBe("normal");
  }, 240_000);

  it("is read from across a room at 3840x2160 and still at 1280x800 (screenshots in .tmp/)", async () => {
    device("Bay 1").set({ humidity: 78 });
    for (const [size, minValuePx] of [["wall", 64], ["laptop", 28]] as const) {
      const { context: c, page: p } = await app.newPage(size === "wall" ? "wall" : "laptop");
      try {
        if (size === "laptop") await p.setViewportSize({ width: 1280, height: 800 });
        await signIn(p);
        await openWall(p);
        const bay = await showTile(p, "Bay 1");
        await expect.poll(() => stateOf(bay), { timeout: 30_000 }).toBe("out-of-profile");
        // Strings, as the tests' TypeScript has no DOM types. Every tile must be wholly on screen:
        // the pages hold what fits, nothing is cut at the bottom or the side.
        const geometry = (await p.evaluate(`({
          values: [...document.querySelectorAll(".wall-value")].map((v) => Number.parseFloat(getComputedStyle(v).fontSize)),
          overflowX: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          overflowY: document.documentElement.scrollHeight - document.documentElement.clientHeight,
          cut: [...document.querySelectorAll("article[role=group]")].filter((t) => t.getBoundingClientRect().bottom > innerHeight || t.getBoundingClientRect().right > innerWidth).length,
        })`)) as { values: number[]; overflowX: number; overflowY: number; cut: number };
        expect(geometry.values.length).toBeGreaterThan(0);
        expect(Math.min(...geometry.values)).toBeGreaterThanOrEqual(minValuePx);
        expect([geometry.overflowX, geometry.overflowY, geometry.cut]).toEqual([0, 0, 0]);
        const { width, height } = p.viewportSize()!;
        await p.screenshot({ path: join(SHOTS, `wall-${width}x${height}.png`) });
      } finally {
        await c.close();
      }
    }
    device("Bay 1").set({ humidity: 90 });
  }, 120_000);

  it("turns its pages by itself, holds them while someone uses the screen, and its controls work from the keyboard", async () => {
    const { context: c, page: p } = await app.newPage("laptop");
    try {
      await p.setViewportSize({ width: 1280, height: 800 });
      await signIn(p);
      await openWall(p, "rotate=5");
      const indicator = p.getByText(/^Page \d+ of \d+/);
      const pageNumber = async () => Number((await indicator.innerText()).match(/^Page (\d+)/)![1]);
      expect(await indicator.innerText()).toMatch(/^Page 1 of [2-9]/);
      // Nobody touches it: the next page comes by itself.
      await expect.poll(pageNumber, { timeout: 15_000 }).toBe(2);

      // A pointer moving over it holds the pages, and says so.
      await p.mouse.move(400, 400);
      await p.mouse.move(420, 410);
      await p.getByRole("status").filter({ hasText: "Paused while in use" }).waitFor();
      const held = await pageNumber();
      await p.waitForTimeout(7_000);
      expect(await pageNumber()).toBe(held);

      // Keyboard: every control in turn, each with a focus ring that shows.
      await p.evaluate("document.activeElement && document.activeElement.blur()");
      const seen: { name: string; outline: string }[] = [];
      for (let i = 0; i < 8; i++) {
        await p.keyboard.press("Tab");
        seen.push(
          (await p.evaluate(`(() => {
            const el = document.activeElement;
            const style = getComputedStyle(el);
            const name = el.tagName === "SELECT" ? el.labels[0].textContent : el.textContent.trim();
            return { name, outline: style.outlineStyle + " " + style.outlineWidth };
          })()`)) as { name: string; outline: string },
        );
      }
      expect(seen.map((s) => s.name).slice(0, 6)).toEqual(["Previous page", "Next page", "Pause", "Turn pages every", "Full screen", "Exit wall view"]);
      for (const s of seen.slice(0, 6)) expect(s.outline, s.name).toMatch(/^solid [3-9]/);

      // Arrow keys turn the pages too.
      const before = await pageNumber();
      await p.keyboard.press("ArrowRight");
      await expect.poll(pageNumber).not.toBe(before);

      // Pause holds them until Resume.
      await p.getByRole("button", { name: "Pause" }).click();
      await p.getByRole("status").filter({ hasText: /^Paused$/ }).waitFor();
      expect(await p.getByRole("button", { name: "Resume" }).getAttribute("aria-pressed")).toBe("true");
      await p.getByRole("button", { name: "Resume" }).click();
      await p.getByRole("button", { name: "Pause" }).waitFor();

      // Full screen, and back.
      await p.getByRole("button", { name: "Full screen" }).click();
      await expect.poll(() => p.evaluate("document.fullscreenElement !== null")).toBe(true);
      await p.getByRole("button", { name: "Exit full screen" }).click();
      await expect.poll(() => p.evaluate("document.fullscreenElement === null")).toBe(true);

      // Every tile is named by its MCU and says its state in words, not by colour alone.
      const tiles = await p.locator("article[role=group]").all();
      expect(tiles.length).toBeGreaterThan(0);
      for (const t of tiles) {
        expect(await t.getAttribute("aria-label")).toBe(await t.locator("h3").innerText());
        const words = (await p.locator(`[id="${await t.getAttribute("aria-describedby")}"]`).textContent()) ?? "";
        expect(words).toMatch(STATE_IN_WORDS[(await stateOf(t))!]!);
      }

      await p.getByRole("link", { name: "Exit wall view" }).click();
      await p.waitForURL("**/dashboard");
    } finally {
      await c.close();
    }
  }, 120_000);
});
