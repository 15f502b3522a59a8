import { readFile } from "node:fs/promises";
import type { Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mcu } from "../src/contract/entities.ts";
import { signedInClientId, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";
import { scrollToCard } from "./support/virtual-list.ts";

/**
 * The demo (server/simulator/demo.ts): Oyster Room B runs "Oyster fruiting" and no batch (Oyster
 * Room A's batch sets its profile aside); Packing Cooler has no profile.
 */
const ROOM = "Oyster Room B";
const UNLINKED = "Packing Cooler";
const FARM = "Cedar Cellar";
const DAY_MS = 86_400_000;
const MIN_MS = 60_000;

let app: DemoApp;

beforeAll(async () => {
  // LOG_LEVEL info: the server says when the demo's day of history is written (in the background, after start).
  app = await startDemoApp({ LOG_LEVEL: "info" });
  const deadline = Date.now() + 120_000;
  while (!app.server.output().includes("Demo history:")) {
    if (Date.now() > deadline) throw new Error(`the demo history was not written within 120 s:\n${app.server.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 240_000);

afterAll(async () => {
  await app?.stop();
});

/** The client's MCUs as the API answers them, asked with the page's session. */
async function mcus(page: Page): Promise<Mcu[]> {
  const clientId = await signedInClientId(page);
  const res = await page.request.get(`/api/mcus/by-client/${clientId}`);
  return (await res.json()) as Mcu[];
}

async function mcuNamed(page: Page, name: string): Promise<Mcu> {
  const found = (await mcus(page)).find((m) => m.name === name);
  if (!found) throw new Error(`no MCU named ${name}`);
  return found;
}

/** A chart of the detail page, by its caption ("Temperature (°C)"). */
const chart = (page: Page, caption: string) => page.getByRole("figure", { name: caption, exact: true });
const timelineLane = (page: Page, target: string) => page.getByRole("figure", { name: "Controllers" }).locator(`li[data-target="${target}"]`);

async function numberAttr(locator: Locator, name: string): Promise<number> {
  return Number(await locator.getAttribute(name));
}

/** Waits until the chart has drawn its buckets; how many. */
async function chartPoints(figure: Locator): Promise<number> {
  await expect.poll(() => numberAttr(figure, "data-points"), { timeout: 30_000 }).toBeGreaterThan(0);
  return numberAttr(figure, "data-points");
}

/** The rows of a CSV text (RFC 4180 quotes; a leading byte-order mark ignored). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const s = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(field), (field = "");
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && s[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** Follows an export link and answers the downloaded file's rows. */
async function download(page: Page, link: Locator): Promise<string[][]> {
  const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const path = await file.path();
  return parseCsv(await readFile(path, "utf8"));
}

/** Opens an MCU's detail page from its dashboard card, as a farmer would. */
async function openFromDashboard(page: Page, name: string) {
  const card = await scrollToCard(page, name);
  await card.getByRole("link", { name: `History of ${name}` }).click();
  await page.waitForURL(/\/mcu\/\d+/);
  await page.getByRole("heading", { level: 2, name }).waitFor();
}

describe("an MCU's history page", () => {
  it("shows a demo MCU's last 24 h from its dashboard card, with its linked profile's limits", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    await openFromDashboard(page, ROOM);
    expect(await page.getByRole("button", { name: "24 h" }).getAttribute("aria-pressed")).toBe("true");

    // The demo seeds a day of minutes: about 1 440 buckets, none outside the range.
    const temperature = chart(page, "Temperature (°C)");
    const points = await chartPoints(temperature);
    expect(points).toBeGreaterThan(1380);
    expect(points).toBeLessThanOrEqual(1442);
    expect(await numberAttr(temperature, "data-latest-at")).toBeGreaterThan(Date.now() - 5 * MIN_MS);
    // Every metric the MCU reports has its chart, each a figure with its latest, lowest and highest value in words.
    for (const caption of ["Temperature (°C)", "Humidity (%)", "Soil Temperature (°C)", "CO2 (ppm)", "Soil Moisture (%)", "Battery (%)"]) {
      const figure = chart(page, caption);
      expect(await chartPoints(figure)).toBeGreaterThan(1380);
      expect(await figure.innerText()).toMatch(/Latest [\d.,]+ \S+, lowest [\d.,]+ \S+, highest [\d.,]+ \S+/);
    }

    // The band is the linked profile's, as the API has it.
    const config = (await mcuNamed(page, ROOM)).profile_links[0]!.profile.config;
    const humidity = chart(page, "Humidity (%)");
    expect(await humidity.getAttribute("data-profile")).toBe("linked");
    expect(await numberAttr(humidity, "data-limit-low")).toBe(config.humidifier.humidity_on_below);
    expect(await numberAttr(humidity, "data-limit-high")).toBe(config.humidifier.humidity_off_above);
    expect(await humidity.innerText()).toContain(`Profile: humidifier on below ${config.humidifier.humidity_on_below} %, off above ${config.humidifier.humidity_off_above} %`);
    const co2 = chart(page, "CO2 (ppm)");
    expect(await numberAttr(co2, "data-limit-line")).toBe(config.ventilation.co2_threshold);
    expect(await co2.getAttribute("data-limit-low")).toBeNull();
    // "Oyster fruiting" keeps the room's temperature: the AC's target ± 2 °C there, nothing on the soil's.
    const room = chart(page, "Temperature (°C)");
    expect(await numberAttr(room, "data-limit-line")).toBe(config.ac.target_temp);
    expect(await numberAttr(room, "data-limit-low")).toBe(config.ac.target_temp - 2);
    expect(await chart(page, "Soil Temperature (°C)").getAttribute("data-profile")).toBe("none");
    const moisture = chart(page, "Soil Moisture (%)");
    expect([await numberAttr(moisture, "data-limit-low"), await numberAttr(moisture, "data-limit-high")]).toEqual([config.irrigation.soil_moisture_on, config.irrigation.soil_moisture_off]);

    // An MCU without a profile has no band.
    const unlinked = await mcuNamed(page, UNLINKED);
    await page.goto(`/mcu/${unlinked.mcu_id}`);
    const unlinkedHumidity = chart(page, "Humidity (%)");
    await chartPoints(unlinkedHumidity);
    expect(await unlinkedHumidity.getAttribute("data-profile")).toBe("none");
    expect(await unlinkedHumidity.getAttribute("data-limit-low")).toBeNull();
    await context.close();
  });

  it("says why each switch happened: the automation's rule on its command-log rows and on the timeline, and why each controller is on or off now", async () => {
    for (const size of ["phone", "laptop"] as const) {
      const { context, page } = await app.newPage(size);
      await signIn(page);
      const mcu = await mcuNamed(page, ROOM);
      await page.goto(`/mcu/${mcu.mcu_id}`);

      // The seeded day's automation switches carry the simulated device's rule.
      const reason = page.getByRole("list", { name: "Commands, newest first" }).locator('li[data-outcome="reported"] [data-reason]').first();
      await reason.waitFor({ timeout: 30_000 });
      expect(await reason.innerText()).toMatch(/^(Irrigation|AC|Ventilation|Humidifier) (on|off): .*\d.* (below|above|at or above|since the last watering|delivered)/);

      // Each controller's state against the band of the config it keeps now.
      const whyNot = page.getByTestId("why-not");
      await expect.poll(() => whyNot.locator("li[data-status='on'], li[data-status='off']").count(), { timeout: 30_000 }).toBe(4);
      for (const line of await whyNot.locator("li").allInnerTexts()) {
        expect(line).toMatch(/^(Irrigation|AC|Ventilation|Humidifier) (on|off)( \(automation off\))?: .+ is (below|within|above) [\d.–]+ ?(%|ppm|°C)$/);
      }
      await whyNot.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/history-why-${size}.png` });

      if (size === "laptop") {
        // Hovering along the Humidifier lane meets a switch: its tooltip says why.
        await timelineLane(page, "Humidifier").waitFor();
        const over = page.getByRole("figure", { name: "Controllers" }).locator(".u-over");
        await over.scrollIntoViewIfNeeded();
        const box = (await over.boundingBox())!;
        const tooltip = over.locator(".switch-tooltip");
        const lane = ["Irrigation", "AC", "Ventilation", "Humidifier"].indexOf("Humidifier");
        const y = box.y + ((lane + 0.7) * box.height) / 4;
        for (let x = box.x + 4; x < box.x + box.width - 4 && !(await tooltip.isVisible()); x += 6) await page.mouse.move(x, y);
        expect(await tooltip.innerText()).toMatch(/ · Humidifier (on|off): humidity [\d.]+ % (below|above) \d+ %/);
        await page.screenshot({ path: "test-results/history-why-tooltip-laptop.png" });
      }
      await context.close();
    }
  }, 120_000);

  it("follows the live readings without asking the server again: the newest bucket fills, and a range ending ahead grows", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    const mcu = await mcuNamed(page, ROOM);
    const historyRequests: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === `/api/mcus/${mcu.mcu_id}/history`) historyRequests.push(r.url());
    });
    await page.goto(`/mcu/${mcu.mcu_id}`);
    const temperature = chart(page, "Temperature (°C)");
    const before = { points: await chartPoints(temperature), at: await numberAttr(temperature, "data-latest-at"), samples: await numberAttr(temperature, "data-latest-samples") };
    // The simulated MCU reports every second: its reading goes into the newest minute, or opens the next one.
    await expect
      .poll(async () => {
        const at = await numberAttr(temperature, "data-latest-at");
        return at > before.at || (at === before.at && (await numberAttr(temperature, "data-latest-samples")) > before.samples);
      }, { timeout: 20_000 })
      .toBe(true);
    expect(await numberAttr(temperature, "data-points")).toBeGreaterThanOrEqual(before.points - 1);

    // A custom range from 20 minutes ago to an hour ahead does not slide: each new minute is a new point.
    await page.getByRole("button", { name: "Custom" }).click();
    const now = Date.now();
    await page.getByLabel("From", { exact: true }).fill(localInput(now - 20 * MIN_MS));
    await page.getByLabel("To", { exact: true }).fill(localInput(now + 60 * MIN_MS));
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => numberAttr(temperature, "data-points"), { timeout: 30_000 }).toBeLessThan(25);
    const custom = await chartPoints(temperature);
    // Within a minute and a reading: the current minute is either new here or already in the answer.
    await expect.poll(() => numberAttr(temperature, "data-points"), { timeout: 100_000 }).toBeGreaterThan(custom);
    // One request per range: the growth came from the live stream.
    expect(historyRequests.length).toBe(2);
    await context.close();
  }, 180_000);

  it("shows a switch made on the dashboard in the controllers' timeline and the command log", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    const mcu = await mcuNamed(page, ROOM);
    await page.goto(`/mcu/${mcu.mcu_id}`);
    const lane = timelineLane(page, "Humidifier");
    await expect.poll(() => lane.getAttribute("data-auto"), { timeout: 30_000 }).toBe("on");
    const changesBefore = await numberAttr(lane, "data-changes");

    // The farmer turns the humidifier's automation off on the dashboard, in another tab.
    const dashboard = await context.newPage();
    await dashboard.goto("/dashboard");
    const card = await scrollToCard(dashboard, ROOM);
    await card.getByText("Online", { exact: true }).waitFor({ timeout: 20_000 });
    const automation = card.getByRole("switch", { name: "Humidifier Automation" });
    await expect.poll(() => automation.isEnabled(), { timeout: 15_000 }).toBe(true);
    await automation.click();
    await expect.poll(() => automation.getAttribute("aria-checked"), { timeout: 15_000 }).toBe("false");

    // The history page's timeline follows the live reading.
    await expect.poll(() => lane.getAttribute("data-auto"), { timeout: 20_000 }).toBe("off");
    expect(await numberAttr(lane, "data-changes")).toBeGreaterThan(changesBefore);
    expect(await lane.innerText()).toMatch(/^Humidifier: (on|off), automation off/);

    // The command log names the switch, who made it, and the device's answer.
    const log = page.getByRole("list", { name: "Commands, newest first" });
    await expect
      .poll(
        async () => {
          await page.getByRole("button", { name: "Refresh" }).click();
          await log.waitFor({ timeout: 10_000 }).catch(() => undefined);
          return log.getByRole("listitem").filter({ hasText: "Humidifier automation turned off" }).filter({ hasText: "demo" }).filter({ hasText: "Done" }).count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBeGreaterThan(0);
    // The filters narrow it to the farmer's own commands.
    await page.getByLabel("Source").selectOption("user");
    await expect.poll(async () => (await log.getByRole("listitem").allInnerTexts()).every((t) => t.includes("demo")), { timeout: 10_000 }).toBe(true);

    // After a reload the server's timeline has the switch too.
    await page.reload();
    await expect.poll(() => timelineLane(page, "Humidifier").getAttribute("data-auto"), { timeout: 30_000 }).toBe("off");

    await automation.click();
    await expect.poll(() => automation.getAttribute("aria-checked"), { timeout: 15_000 }).toBe("true");
    await expect.poll(() => timelineLane(page, "Humidifier").getAttribute("data-auto"), { timeout: 20_000 }).toBe("on");
    await context.close();
  }, 120_000);

  it("exports the readings and the command log as CSV files whose rows parse and cover the range", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    const mcu = await mcuNamed(page, ROOM);
    await page.goto(`/mcu/${mcu.mcu_id}`);
    await chartPoints(chart(page, "Temperature (°C)"));

    const clicked = Date.now();
    const [header, ...rows] = await download(page, page.getByRole("link", { name: "Export CSV of readings" }));
    // UTC, then the same instant in the browser's time zone, with its offset.
    expect(header!.slice(0, 2)).toEqual(["time", "local_time"]);
    expect(header).toContain("temperature_avg");
    expect(header).toContain("humidity_min");
    const data = rows.filter((r) => r.length > 1);
    expect(data.length).toBeGreaterThan(1380);
    for (const r of data) expect(r[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    for (const r of data.slice(0, 50)) expect(Date.parse(r[1]!)).toBe(Date.parse(r[0]!));
    const times = data.map((r) => Date.parse(r[0]!));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]!);
    // The first minute is the range's, 24 h before the click; the last one within the last few minutes.
    expect(times[0]).toBeGreaterThanOrEqual(clicked - DAY_MS - 2 * MIN_MS);
    expect(times[0]).toBeLessThanOrEqual(clicked - DAY_MS + 5 * MIN_MS);
    expect(times[times.length - 1]).toBeGreaterThan(clicked - 5 * MIN_MS);
    for (const r of data) {
      expect(r.length).toBe(header!.length);
      for (const cell of r.slice(2)) expect(cell === "" || /^-?\d+(\.\d{1,2})?$/.test(cell)).toBe(true);
    }

    const [commandHeader, ...commandRows] = await download(page, page.getByRole("link", { name: "Export CSV of commands" }));
    expect(commandHeader).toEqual(expect.arrayContaining(["target", "outcome"]));
    const commands = commandRows.filter((r) => r.length > 1);
    expect(commands.length).toBeGreaterThan(0);
    for (const r of commands) expect(r.length).toBe(commandHeader!.length);
    await context.close();
  });

  it("zooms by drag, resets by double click or the Reset zoom button, and checks a custom range", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    const mcu = await mcuNamed(page, ROOM);
    await page.goto(`/mcu/${mcu.mcu_id}`);
    const plot = chart(page, "Humidity (%)").locator(".u-over");
    await chartPoints(chart(page, "Humidity (%)"));
    const reset = page.getByRole("button", { name: "Reset zoom" });
    expect(await reset.isDisabled()).toBe(true);
    // The top bar names the page; the line under Readings says what the charts show.
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("MCU History");
    const rangeLine = page.getByRole("heading", { name: "Readings", exact: true }).locator("xpath=following-sibling::p[1]");
    expect(await rangeLine.textContent()).toBe("Last 24 hoursfollowing live readings");

    const box = (await plot.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => reset.isEnabled()).toBe(true);
    // Zoomed: the part shown, which stays put as readings come.
    await expect.poll(() => rangeLine.textContent()).toMatch(/^Zoomed to .+ – .+ of the last 24 hours· not following live readings/);
    expect(await rangeLine.textContent()).not.toContain("Last 24 hours");
    await page.screenshot({ path: "test-results/history-zoomed-laptop.png" });
    await plot.dblclick();
    await expect.poll(() => reset.isDisabled()).toBe(true);
    await expect.poll(() => rangeLine.textContent()).toBe("Last 24 hoursfollowing live readings");

    await page.getByRole("button", { name: "Zoom in" }).click();
    await expect.poll(() => reset.isEnabled()).toBe(true);
    await reset.click();
    await expect.poll(() => reset.isDisabled()).toBe(true);

    await page.getByRole("button", { name: "Custom" }).click();
    await page.getByLabel("From", { exact: true }).fill(localInput(Date.now() - 2 * 3_600_000));
    await page.getByLabel("To", { exact: true }).fill(localInput(Date.now() - 3 * 3_600_000));
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("The end must be after the start").waitFor();
    expect(await page.getByLabel("To", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await context.close();
  });
});

describe("a farm's history page", () => {
  it("compares the farm's MCUs on the metric picked, from Manage Farms, with its CSV", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    await page.goto("/farms");
    await page.getByRole("link", { name: `History of farm ${FARM}` }).click();
    await page.waitForURL(/\/farms\/\d+\/history/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Farm History");
    const figure = page.getByRole("figure", { name: "Temperature (°C) by MCU" });
    await expect.poll(() => figure.getAttribute("data-series"), { timeout: 30_000 }).toBe("4");
    expect(await numberAttr(figure, "data-points")).toBeGreaterThan(4 * 1380);
    for (const name of ["Oyster Room A", "Oyster Room B", "Shiitake Logs", "Spawn Lab"]) await figure.locator(".u-legend").getByText(name, { exact: true }).waitFor();
    expect(await figure.innerText()).toMatch(/4 of 4 MCUs reported/);

    await page.getByLabel("Metric").selectOption("co2");
    const co2 = page.getByRole("figure", { name: "CO2 (ppm) by MCU" });
    await expect.poll(() => numberAttr(co2, "data-points"), { timeout: 30_000 }).toBeGreaterThan(4 * 1380);
    expect(new URL(page.url()).searchParams.get("metric")).toBe("co2");

    const [header, ...rows] = await download(page, page.getByRole("link", { name: "Export CSV of the comparison" }));
    expect(header!.slice(0, 2)).toEqual(["time", "local_time"]);
    const data = rows.filter((r) => r.length > 1);
    expect(data.length).toBeGreaterThan(1380);
    for (const r of data.slice(0, 50)) expect(r.length).toBe(header!.length);
    await context.close();
  });
});

/** A moment as a datetime-local field takes it (the browser's time zone: the test's). */
function localInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

describe("the history pages on a phone, a laptop and a wall screen", () => {
  it("lays the charts out one, two and three to a row, without sideways scrolling", async () => {
    const expected = { phone: 1, laptop: 2, wall: 3 } as const;
    for (const size of ["phone", "laptop", "wall"] as const) {
      const { context, page } = await app.newPage(size);
      await signIn(page);
      const mcu = await mcuNamed(page, ROOM);
      await page.goto(`/mcu/${mcu.mcu_id}`);
      const figures = page.locator("figure[data-metric]");
      await expect.poll(() => figures.count(), { timeout: 30_000 }).toBe(6);
      await chartPoints(figures.first());
      await timelineLane(page, "AC").waitFor();
      const boxes = await Promise.all((await figures.all()).map((f) => f.boundingBox()));
      expect(boxes.filter((b) => b && Math.abs(b.y - boxes[0]!.y) < 2).length).toBe(expected[size]);
      expect(await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);
      await page.screenshot({ path: `test-results/history-mcu-${size}.png`, fullPage: true });
      // Zoomed, the line under Readings names the part shown (what a farmer sees of it at each size).
      await page.getByRole("button", { name: "Zoom in" }).click();
      const zoomed = page.getByText(/^Zoomed to .+ not following live readings/);
      await zoomed.waitFor();
      if (size === "phone") await page.setViewportSize({ width: 390, height: 844 });
      await zoomed.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/history-mcu-zoomed-${size}.png` });

      const farm = mcu.farm_id;
      await page.goto(`/farms/${farm}/history`);
      await expect.poll(() => page.locator("figure[data-series]").getAttribute("data-series"), { timeout: 30_000 }).toBe("4");
      expect(await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);
      await page.screenshot({ path: `test-results/history-farm-${size}.png`, fullPage: true });
      await context.close();
    }
  }, 180_000);
});
