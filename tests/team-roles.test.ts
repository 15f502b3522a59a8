import { mkdir } from "node:fs/promises";
import type { BrowserContext, Locator, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cannotText, type Right, type Role } from "../src/contract/team.ts";
import { apiCaller, expectToast, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";

/**
 * What each role may do on the screens that change a farm, in Chromium against the real server
 * and the demo fleet: the demo account (the Owner of North Barn, with its MCUs, profiles, recipes
 * and a batch started here) invites a Viewer and a Grower. Whatever their role may not do is off,
 * with the server's sentence beside it; the Owner's screens are SPEC's, with nothing off.
 */

const FARM = "North Barn";
/** A North Barn room with a setting profile linked (the demo's). */
const LINKED_ROOM = "Enoki Chamber";
/** A North Barn room with no batch: this test's batch runs there. */
const BATCH_ROOM = "King Oyster Rack";
const BATCH = "Roles test run";
const PROFILE = "Oyster fruiting";
const RECIPE_NAME = "Roles test oyster";
const SHOTS = "/tmp/role-shots";

const config = {
  irrigation: { on_cycle_hours: 12, off_cycle_liters: 5, soil_moisture_on: 45, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 800 },
  ac: { based_on: "room_temp", target_temp: 16 },
  humidifier: { humidity_on_below: 90, humidity_off_above: 95 },
};
/** Its first phase waits for the grower, so a Grower has a phase to confirm at once. */
const RECIPE = {
  name: RECIPE_NAME,
  species: "Oyster",
  phases: [
    { name: "Pinning", days: 5, confirm: "Pins visible", config, ramps: [] },
    { name: "Fruiting", days: 7, confirm: null, config, ramps: [] },
  ],
};

let app: DemoApp;
let owner: { context: BrowserContext; page: Page };
let ownerApi: ReturnType<typeof apiCaller>;
let farmId: number;
let batchId: number;
const people: Partial<Record<"viewer" | "grower", { username: string; password: string }>> = {};

const card = (page: Page, name: string): Locator => page.getByRole("article", { name, exact: true });
const reason = (role: Role, right: Right) => cannotText(role, right);

/** The control is off, and its accessible description is the role's sentence, shown on the page. */
async function expectRefused(control: Locator, text: string) {
  // The person's roles come over the socket, maybe just after the list they judge.
  await expect.poll(() => control.isDisabled()).toBe(true);
  const describedBy = await control.getAttribute("aria-describedby");
  expect(describedBy).not.toBeNull();
  const note = control.page().locator(`[id="${describedBy}"]`);
  expect(await note.innerText()).toBe(text);
  expect(await note.isVisible()).toBe(true);
}

/** The control may be used, and nothing says otherwise. */
async function expectAllowed(control: Locator) {
  expect(await control.isDisabled()).toBe(false);
  expect(await control.getAttribute("aria-describedby")).toBeNull();
}

/** A new person who registered and joined North Barn with `role` through an invitation of the Owner. */
async function join(role: "viewer" | "grower") {
  const { code } = await ownerApi("post", `/api/farms/${farmId}/invitations`, { role });
  const { context, page } = await app.newPage("laptop");
  const username = `${role}${Date.now().toString(36)}`;
  const password = "spores-and-caps";
  const registration = { username, email: `${username}@example.com`, password, confirmPassword: password, mobile: "+961 3 123-456", country: "LB", address: "2 Barn Road, Tripoli" };
  expect((await context.request.post("/api/clients", { headers: { Origin: app.url }, data: registration })).ok()).toBe(true);
  await signIn(page, username, password);
  expect(await apiCaller(app, context)("post", "/api/invitations/accept", { code })).toMatchObject({ farm_id: farmId, role });
  people[role] = { username, password };
  return { context, page };
}

/** A batch's page, once its actions (or its harvests, for an ended one) are on screen. */
async function openBatch(page: Page) {
  await page.goto(`/batches/${batchId}`);
  await page.getByRole("heading", { level: 2, name: BATCH }).waitFor();
  await page.getByRole("heading", { name: "Harvests" }).waitFor();
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await startDemoApp();
  owner = await app.newPage("laptop");
  await signIn(owner.page);
  ownerApi = apiCaller(app, owner.context);
  const clientId = Number(await owner.page.evaluate("JSON.parse(localStorage.getItem('client')).client_id"));
  const farms = (await ownerApi("get", `/api/farms/myfarms/get?client_id=${clientId}`)) as { farm_id: number; name: string }[];
  farmId = farms.find((f) => f.name === FARM)!.farm_id;
  const mcus = (await ownerApi("get", `/api/mcus/by-client/${clientId}`)) as { mcu_id: number; name: string }[];
  const room = mcus.find((m) => m.name === BATCH_ROOM)!;
  const recipe = (await ownerApi("post", "/api/recipes", RECIPE)) as { recipe_id: number };
  const batch = (await ownerApi("post", "/api/batches", { name: BATCH, recipe_id: recipe.recipe_id, mcu_ids: [room.mcu_id], time_zone: "Asia/Beirut", started_at: new Date().toISOString() })) as { batch_id: number };
  batchId = batch.batch_id;
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe("farm roles on the screens that change a farm", () => {
  it("shows a Viewer the shared farm, its MCUs, profiles, recipes and batch with every change off and why", async () => {
    const { context, page } = await join("viewer");

    await page.goto("/farms");
    const farm = card(page, FARM);
    await farm.waitFor();
    // The Viewer has no farm of their own: the shared one is all there is.
    expect(await page.getByRole("article").count()).toBe(1);
    await farm.getByText("Shared with you · Viewer", { exact: true }).waitFor();
    await expectRefused(farm.getByRole("button", { name: `Edit farm ${FARM}` }), reason("viewer", "editFarm"));
    await expectRefused(farm.getByRole("button", { name: `Delete farm ${FARM}` }), reason("viewer", "editFarm"));
    expect(await farm.getByRole("link", { name: `Members of farm ${FARM}` }).getAttribute("href")).toBe(`/farms/${farmId}/members`);
    expect(await farm.getByRole("link", { name: `On-call rota of farm ${FARM}` }).getAttribute("href")).toBe(`/farms/${farmId}/rota`);
    expect(await farm.getByRole("link", { name: `Audit trail of farm ${FARM}` }).count()).toBe(0);
    // Creating a farm stays in the person's own account: always open.
    await expectAllowed(page.getByRole("button", { name: "Add New Farm" }));

    await page.goto("/mcu");
    const mcu = card(page, LINKED_ROOM);
    await mcu.waitFor();
    await expectRefused(mcu.getByRole("button", { name: `Edit ${LINKED_ROOM}` }), reason("viewer", "manageDevices"));
    await expectRefused(mcu.getByRole("button", { name: `Delete ${LINKED_ROOM}` }), reason("viewer", "manageDevices"));
    await expectRefused(mcu.getByRole("combobox", { name: `Profile of ${LINKED_ROOM}` }), reason("viewer", "manageProfiles"));
    await expectRefused(mcu.getByRole("button", { name: `Unlink profile from ${LINKED_ROOM}` }), reason("viewer", "manageProfiles"));
    await expectRefused(page.getByRole("button", { name: "Add MCU" }), reason("viewer", "manageDevices"));
    await expectRefused(page.getByRole("button", { name: "Scan MCU" }), reason("viewer", "manageDevices"));

    // Controllers follow their MCU's farm: North Barn's are all the Viewer sees, none open to change.
    await page.goto("/controllers");
    const controllers = page.getByRole("list", { name: "Controllers" });
    await controllers.getByRole("listitem").first().waitFor();
    const deviceButtons = controllers.getByRole("button", { name: /^(Edit|Delete) / });
    expect(await deviceButtons.count()).toBeGreaterThan(0);
    for (const button of await deviceButtons.all()) await expectRefused(button, reason("viewer", "manageDevices"));
    await expectRefused(page.getByRole("button", { name: "Scan Controller" }), reason("viewer", "manageDevices"));

    await page.goto("/settings-profile");
    const profile = card(page, PROFILE);
    await profile.waitFor();
    await expectRefused(profile.getByRole("button", { name: `Edit profile ${PROFILE}` }), reason("viewer", "manageProfiles"));
    await expectRefused(profile.getByRole("button", { name: `Delete profile ${PROFILE}` }), reason("viewer", "manageProfiles"));
    await expectAllowed(page.getByRole("button", { name: "Add New Profile" }));

    await page.goto("/recipes");
    const recipe = card(page, RECIPE_NAME);
    await recipe.waitFor();
    await expectRefused(recipe.getByRole("button", { name: `Edit recipe ${RECIPE_NAME}` }), reason("viewer", "manageRecipes"));
    await expectRefused(recipe.getByRole("button", { name: `Delete recipe ${RECIPE_NAME}` }), reason("viewer", "manageRecipes"));

    await page.goto("/batches");
    await card(page, BATCH).waitFor();
    await expectRefused(page.getByRole("button", { name: "Start a batch" }), reason("viewer", "manageBatches"));
    await openBatch(page);
    const actions = page.getByRole("region", { name: "Actions" });
    await expectRefused(actions.getByRole("button", { name: "Confirm: Pins visible" }), reason("viewer", "confirmPhases"));
    for (const name of ["Hold", "Extend", "Skip to next phase", "End batch"]) await expectRefused(actions.getByRole("button", { name, exact: true }), reason("viewer", "manageBatches"));
    expect(await page.getByRole("button", { disabled: false }).filter({ hasText: /Confirm|Hold|Extend|Skip|End batch|Record flush|Save dry weight/ }).count()).toBe(0);
    // No harvest form to fill in vain: the reason stands in its place.
    expect(await page.getByRole("button", { name: /^Record flush/ }).count()).toBe(0);
    await page.getByRole("region", { name: "Harvests" }).getByText(reason("viewer", "recordHarvests"), { exact: true }).waitFor();
    await expectRefused(page.getByRole("button", { name: "Save dry weight" }), reason("viewer", "manageBatches"));
    await page.screenshot({ path: `${SHOTS}/batch-viewer-laptop.png`, fullPage: true });
    await context.close();
  });

  it("shows a Grower Confirm and harvests open, and starting or ending a batch off", async () => {
    const { context, page } = await join("grower");
    await page.goto("/batches");
    await card(page, BATCH).waitFor();
    await expectRefused(page.getByRole("button", { name: "Start a batch" }), reason("grower", "manageBatches"));

    await openBatch(page);
    const actions = page.getByRole("region", { name: "Actions" });
    for (const name of ["Hold", "Extend", "Skip to next phase", "End batch"]) await expectRefused(actions.getByRole("button", { name, exact: true }), reason("grower", "manageBatches"));
    await expectRefused(page.getByRole("button", { name: "Save dry weight" }), reason("grower", "manageBatches"));

    // The day's work goes through, and the server agrees.
    const record = page.getByRole("button", { name: "Record flush 1" });
    await expectAllowed(record);
    await page.getByLabel("Fresh weight (kg)").fill("2.5");
    await record.click();
    await expectToast(page, /^Flush 1: .+ recorded$/);
    await expectAllowed(page.getByRole("button", { name: "Delete the harvest of flush 1" }));

    const confirm = actions.getByRole("button", { name: "Confirm: Pins visible" });
    await expectAllowed(confirm);
    await confirm.click();
    await page.getByRole("dialog", { name: "Confirm: Pins visible" }).getByRole("button", { name: "Confirm: Pins visible" }).click();
    await expectToast(page, "Pins visible confirmed: Fruiting started");
    await page.screenshot({ path: `${SHOTS}/batch-grower-laptop.png`, fullPage: true });
    await context.close();
  });

  it("shows the Owner every change open, with no badge and no reason, as SPEC's screens", async () => {
    const { page } = owner;
    await page.goto("/farms");
    await card(page, FARM).waitFor();
    await expect.poll(() => page.getByRole("article").count()).toBe(3);
    expect(await page.getByText("Shared with you").count()).toBe(0);
    expect(await page.getByText(/on this farm cannot/).count()).toBe(0);
    for (const article of await page.getByRole("article").all()) {
      for (const button of await article.getByRole("button").all()) await expectAllowed(button);
    }
    await card(page, FARM).getByRole("link", { name: `Audit trail of farm ${FARM}` }).waitFor();

    await page.goto("/mcu");
    const mcu = card(page, LINKED_ROOM);
    await mcu.waitFor();
    await expectAllowed(mcu.getByRole("button", { name: `Edit ${LINKED_ROOM}` }));
    await expectAllowed(mcu.getByRole("button", { name: `Delete ${LINKED_ROOM}` }));
    await expectAllowed(mcu.getByRole("combobox", { name: `Profile of ${LINKED_ROOM}` }));
    await expectAllowed(page.getByRole("button", { name: "Add MCU" }));
    await expectAllowed(page.getByRole("button", { name: "Scan MCU" }));
    expect(await page.getByText(/on this farm cannot/).count()).toBe(0);

    await page.goto("/batches");
    await card(page, BATCH).waitFor();
    await expectAllowed(page.getByRole("button", { name: "Start a batch" }));
    await openBatch(page);
    const actions = page.getByRole("region", { name: "Actions" });
    // The Grower's confirmation moved it to its last phase.
    for (const name of ["Hold", "Extend", "Skip last phase", "End batch"]) await expectAllowed(actions.getByRole("button", { name, exact: true }));
    await expectAllowed(page.getByRole("button", { name: "Record flush 2" }));
    await expectAllowed(page.getByRole("button", { name: "Save dry weight" }));
    expect(await page.getByText(/on this farm cannot/).count()).toBe(0);
  });

  it("says the server's sentence after SPEC's text when a role changed since the screen showed Delete", async () => {
    const { context, page } = owner;
    // The role as the server now knows it: the screen still offers the delete.
    const sentence = reason("viewer", "manageDevices");
    await context.route("**/api/sensors/*", (route) =>
      route.request().method() === "DELETE" ? route.fulfill({ status: 403, json: { code: "FORBIDDEN", message: sentence } }) : route.fallback(),
    );
    await page.goto("/sensors");
    const sensors = page.getByRole("list", { name: "Sensors" });
    await sensors.getByRole("button", { name: /^Delete / }).first().click();
    await page.getByRole("alertdialog", { name: "Delete this sensor?" }).getByRole("button", { name: "OK" }).click();
    await expectToast(page, `Delete failed: ${sentence}`);
    await context.unroute("**/api/sensors/*");
  });

  it("screenshots Manage Farms and MCU Manager as the Viewer on a phone and a laptop", async () => {
    const viewer = people.viewer!;
    for (const [size, viewport] of [
      ["phone", { width: 390, height: 844 }],
      ["laptop", { width: 1366, height: 768 }],
    ] as const) {
      const context = await app.browser.newContext({ viewport, baseURL: app.url, reducedMotion: "reduce" });
      const page = await context.newPage();
      await signIn(page, viewer.username, viewer.password);
      await page.goto("/farms");
      await card(page, FARM).getByText(reason("viewer", "editFarm")).waitFor();
      await page.screenshot({ path: `${SHOTS}/farms-viewer-${size}.png`, fullPage: true });
      await page.goto("/mcu");
      await card(page, LINKED_ROOM).getByText(reason("viewer", "manageDevices")).waitFor();
      await page.screenshot({ path: `${SHOTS}/mcu-viewer-${size}.png`, fullPage: true });
      await context.close();
    }
  });
});
