import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, signIn, signedInClientId, startDemoApp, type DemoApp } from "./support/app-harness.ts";

const DAY = 86_400_000;

const base = {
  irrigation: { on_cycle_hours: 12, off_cycle_liters: 5, soil_moisture_on: 30, soil_moisture_off: 70 },
  ventilation: { co2_threshold: 1500 },
  ac: { based_on: "room_temp", target_temp: 18 },
};

/**
 * A spawn run that keeps the humidifier off (the demo rooms stay above 70 %), then a fruiting phase
 * that wants 98 %: at the phase change the device's automation must switch the humidifier on.
 */
const RECIPE = {
  name: "E2E phase change",
  species: "Oyster",
  phases: [
    { name: "Spawn run", days: 1, confirm: null, config: { ...base, humidifier: { humidity_on_below: 60, humidity_off_above: 70 } }, ramps: [] },
    { name: "Fruiting", days: 7, confirm: null, config: { ...base, humidifier: { humidity_on_below: 98, humidity_off_above: 99.5 } }, ramps: [{ setting: "ac.target_temp", to: 16 }] },
  ],
};

/** How long after the test starts the batch's spawn run ends (it started a day ago less this). */
const BOUNDARY_IN_MS = 30_000;

/**
 * A grow cycle end to end, with the real server and simulated rooms: a batch started (a day ago,
 * less half a minute) crosses into its next phase while the test watches. The plan runner moves it
 * on at the boundary and sends the device its new config; the room's automation follows (the
 * humidifier comes on), the card shows the new phase, the chart draws the plan, and the command log
 * says why the humidifier switched.
 */
describe("A grow cycle's phase change", () => {
  let app: DemoApp;
  let context: BrowserContext;
  let page: Page;
  let mcu: { mcu_id: number; name: string };
  let batchId = 0;
  const changeAt = Date.now() + BOUNDARY_IN_MS;

  beforeAll(async () => {
    app = await startDemoApp();
    ({ context, page } = await app.newPage("laptop"));
  });
  afterAll(async () => app?.stop());

  it("starts a batch whose first phase ends in half a minute, on a demo MCU in no other batch", async () => {
    await signIn(page);
    const api = apiCaller(app, context);
    const recipe = await api("post", "/api/recipes", RECIPE);
    const clientId = await signedInClientId(page);
    const mcus = (await api("get", `/api/mcus/by-client/${clientId}`)) as { mcu_id: number; name: string }[];
    const taken = new Set(((await api("get", "/api/batches")) as { status: string; mcu_ids: number[] }[]).filter((b) => b.status === "running").flatMap((b) => b.mcu_ids));
    mcu = mcus.find((m) => !taken.has(m.mcu_id))!;
    const batch = await api("post", "/api/batches", {
      name: "E2E phase change",
      recipe_id: recipe.recipe_id,
      mcu_ids: [mcu.mcu_id],
      time_zone: "UTC",
      started_at: new Date(changeAt - DAY).toISOString(),
    });
    batchId = batch.batch_id;
    expect(batch).toMatchObject({ status: "running", phase_index: 0 });

    await page.goto("/dashboard");
    const card = page.getByRole("article", { name: mcu.name, exact: true });
    await card.getByText("Spawn run · day 1 of 1").waitFor({ timeout: 20_000 });
    expect(await card.getByText(`Profile`).first().isVisible()).toBe(true);
  });

  it("moves on at the boundary: the device gets fruiting's config, the card shows the new phase", async () => {
    const api = apiCaller(app, context);
    const card = page.getByRole("article", { name: mcu.name, exact: true });
    await card.getByText("Fruiting · day 1 of 7").waitFor({ timeout: BOUNDARY_IN_MS + 30_000 });
    // Within 2 s of the due time: the plan moved it on at the boundary (its tick is a second).
    const changes = (await api("get", `/api/mcus/${mcu.mcu_id}/config-changes`)) as { at: string; cause: string; detail: string; config: { humidifier: { humidity_on_below: number } } }[];
    expect(changes[0]).toMatchObject({ cause: "batch", detail: "Fruiting, day 1", config: { humidifier: { humidity_on_below: 98 } } });
    expect(Date.parse(changes[0]!.at) - changeAt).toBeLessThan(2000);
    const batch = ((await api("get", "/api/batches")) as { batch_id: number; phase_index: number; events: { kind: string }[] }[]).find((b) => b.batch_id === batchId)!;
    expect(batch.phase_index).toBe(1);
    expect(batch.events.at(-1)?.kind).toBe("advance");
    await page.screenshot({ path: "test-results/grow-cycle-dashboard-laptop.png" });
  });

  it("the room follows: the humidifier comes on by its automation, and the command log says why", async () => {
    await page.goto(`/mcu/${mcu.mcu_id}?range=1h`);
    const log = page.getByRole("region", { name: "Command log" });
    const reason = log.getByText(/Humidifier on: humidity [\d.]+ % below 98 % — Fruiting, day 1/).first();
    // The log loads when the page opens: the switch may come after, so the page is opened again until it shows.
    await expect
      .poll(
        async () => {
          if (await reason.isVisible()) return true;
          await page.getByRole("button", { name: "Refresh" }).click();
          await page.waitForTimeout(1000);
          return reason.isVisible();
        },
        { timeout: 40_000, interval: 500 },
      )
      .toBe(true);
    // The humidity chart draws the batch's plan under the readings.
    const humidity = page.locator("figure[data-metric='humidity']");
    await humidity.waitFor();
    expect(Number(await humidity.getAttribute("data-plan-pieces"))).toBeGreaterThan(0);
    await humidity.getByText("Plan of batch E2E phase change", { exact: false }).waitFor();
    await page.screenshot({ path: "test-results/grow-cycle-history-laptop.png", fullPage: true });
  });
});
