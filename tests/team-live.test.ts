import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cannotText } from "../src/contract/team.ts";
import { apiCaller, expectToast, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";

/**
 * Several people on one farm, in Chromium against the real server and the demo fleet: the demo
 * account (the Owner) invites a Viewer and a Grower to Valley Tunnels. The Viewer sees the farm's
 * live dashboard and its wall but cannot switch; the Grower switches and acknowledges the farm's
 * alarm; once the Owner removes the Grower, the Grower's dashboard no longer shows the farm.
 */

const FARM = "Valley Tunnels";
const ROOM = "Tunnel 1";
/** A room of another farm of the demo account: a member of Valley Tunnels never sees it. */
const OTHER_ROOM = "Oyster Room A";

let app: DemoApp;
let owner: { context: BrowserContext; page: Page };
let ownerApi: ReturnType<typeof apiCaller>;
let farmId: number;

/** A new person who registered, signed in and joined the farm with `role` through an invitation of the Owner. */
async function member(role: "viewer" | "grower", size: "phone" | "laptop" = "laptop") {
  const { code } = await ownerApi("post", `/api/farms/${farmId}/invitations`, { role });
  const session = await app.newPage(size);
  const n = `${role}${Date.now().toString(36)}`;
  const reg = { username: n, email: `${n}@example.com`, password: "spores-and-caps", confirmPassword: "spores-and-caps", mobile: "+961 3 123-456", country: "LB", address: "1 Tunnel Road, Zahle" };
  const registered = await session.context.request.post("/api/clients", { headers: { Origin: app.url }, data: reg });
  expect(registered.ok()).toBe(true);
  await signIn(session.page, n, reg.password);
  const joined = await apiCaller(app, session.context)("post", "/api/invitations/accept", { code });
  expect(joined).toMatchObject({ farm_id: farmId, role });
  return { ...session, username: n, clientId: Number(await session.page.evaluate("JSON.parse(localStorage.getItem('client')).client_id")) };
}

const card = (page: Page, name: string) => page.getByRole("article", { name });
const lastUpdated = (page: Page, name: string) => card(page, name).getByText(/^Last updated:/).innerText();

beforeAll(async () => {
  app = await startDemoApp();
  owner = await app.newPage("laptop");
  await signIn(owner.page);
  ownerApi = apiCaller(app, owner.context);
  const farms = (await ownerApi("get", `/api/farms/myfarms/get?client_id=${await owner.page.evaluate("JSON.parse(localStorage.getItem('client')).client_id")}`)) as { farm_id: number; name: string }[];
  farmId = farms.find((f) => f.name === FARM)!.farm_id;
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe("a farm shared by several people", () => {
  it("shows a Viewer the farm's live dashboard and wall, with no switch they can use", async () => {
    const viewer = await member("viewer", "phone");
    const { page } = viewer;
    await page.goto("/dashboard");
    const room = card(page, ROOM);
    await room.getByText("Online", { exact: true }).waitFor({ timeout: 20_000 });
    // Live: the readings keep coming.
    const before = await lastUpdated(page, ROOM);
    await expect.poll(() => lastUpdated(page, ROOM), { timeout: 15_000 }).not.toBe(before);
    // Every switch is there, showing the device's state, and disabled with the reason said once on the card.
    const switches = room.getByRole("switch");
    expect(await switches.count()).toBe(8);
    for (const s of await switches.all()) expect(await s.isDisabled()).toBe(true);
    // (Each switch also carries it as its accessible description.)
    await room.locator("p", { hasText: cannotText("viewer", "switchControllers") }).first().waitFor();
    // Nothing of the account's other farms.
    expect(await card(page, OTHER_ROOM).count()).toBe(0);
    await page.screenshot({ path: "/tmp/team-live-viewer-phone.png", fullPage: false });

    await page.goto("/wall?rotate=0");
    const tile = page.getByRole("group", { name: new RegExp(`^${ROOM}\\b`) });
    await tile.first().waitFor({ timeout: 30_000 });
    expect(await page.getByRole("switch").count()).toBe(0);
    expect(await page.getByRole("group", { name: new RegExp(`^${OTHER_ROOM}\\b`) }).count()).toBe(0);
    await viewer.context.close();
  });

  it("lets a Grower switch and acknowledge, and takes the farm away at once when the Owner removes them", async () => {
    const grower = await member("grower");
    const { page, context, clientId, username } = grower;
    await page.goto("/dashboard");
    const room = card(page, ROOM);
    await room.getByText("Online", { exact: true }).waitFor({ timeout: 20_000 });
    const automation = room.getByRole("switch", { name: "Humidifier Automation" });
    await expect.poll(() => automation.isEnabled(), { timeout: 10_000 }).toBe(true);
    const was = await automation.getAttribute("aria-checked");
    await automation.click();
    await expect.poll(() => automation.getAttribute("aria-checked"), { timeout: 10_000 }).not.toBe(was);
    // The command log (written in batches) names who switched.
    const roomId = await mcuIdOf(ROOM);
    const actors = async () => ((await apiCaller(app, context)("get", `/api/mcus/${roomId}/commands?source=user`)) as { entries: { actor: string | null }[] }).entries.map((e) => e.actor);
    await expect.poll(actors, { timeout: 10_000 }).toContain(username);

    // The farm's alarm (the demo's low battery in the Packing Cooler).
    await page.goto("/alarms");
    const acknowledge = page.getByRole("button", { name: /^Acknowledge: Packing Cooler: battery low/ });
    await acknowledge.waitFor({ timeout: 15_000 });
    await acknowledge.click();
    await page.getByRole("dialog").getByRole("button", { name: "Acknowledge" }).click();
    await expect.poll(() => page.getByText(`Acknowledged by ${username} at`).count(), { timeout: 10_000 }).toBeGreaterThan(0);

    // Removed: the farm leaves the Grower's dashboard without a reload of the page.
    await page.goto("/dashboard");
    await room.getByText("Online", { exact: true }).waitFor({ timeout: 20_000 });
    const removed = await owner.context.request.delete(`/api/farms/${farmId}/members/${clientId}`, { headers: { Origin: app.url } });
    expect(removed.ok()).toBe(true);
    const removedAt = Date.now();
    await expect.poll(() => card(page, ROOM).count(), { timeout: 10_000 }).toBe(0);
    expect(Date.now() - removedAt).toBeLessThan(10_000);
    // And says why, rather than leaving an empty dashboard to read as lost data.
    await expectToast(page, `${FARM} is no longer shared with you: its MCUs, alarms and batches have left your lists.`);
    // And the server refuses what the role allowed a moment ago.
    const refused = await context.request.get(`/api/farms/${farmId}/members`, { headers: { Origin: app.url } });
    expect(refused.status()).toBe(404);
    await context.close();
  });
});

describe("a member told of a farm taken away", () => {
  it("tells a Viewer who only ever opened the office wall, in the wall's own full screen", async () => {
    const viewer = await member("viewer");
    const { page, clientId } = viewer;
    // Straight to the wall after signing in: no screen that asks for the person's roles was opened.
    await page.goto("/wall?rotate=0");
    const tile = page.getByRole("group", { name: new RegExp(`^${ROOM}\\b`) });
    await tile.first().waitFor({ timeout: 30_000 });
    const removed = await owner.context.request.delete(`/api/farms/${farmId}/members/${clientId}`, { headers: { Origin: app.url } });
    expect(removed.ok()).toBe(true);
    await expectToast(page, `${FARM} is no longer shared with you: its MCUs, alarms and batches have left your lists.`);
    await page.waitForTimeout(800);
    await page.screenshot({ path: "/tmp/team-live-wall-removed.png", fullPage: false });
    await expect.poll(() => tile.count(), { timeout: 10_000 }).toBe(0);
    await viewer.context.close();
  });
});

describe("a farm's Members list", () => {
  it("stays current for everyone who has it open: a join, a role change and a removal show without a reload", async () => {
    const viewer = await member("viewer", "phone");
    const listed = (page: Page, name: string) => page.getByRole("list", { name: "Members" }).getByRole("listitem", { name, exact: true });
    await owner.page.goto(`/farms/${farmId}/members`);
    await viewer.page.goto(`/farms/${farmId}/members`);
    await listed(owner.page, viewer.username).waitFor();
    await listed(viewer.page, viewer.username).waitFor();

    // Someone joins with a code, in their own browser.
    const grower = await member("grower");
    await listed(owner.page, grower.username).waitFor({ timeout: 10_000 });
    await listed(viewer.page, grower.username).waitFor({ timeout: 10_000 });
    // The Owner's open invitations show the code used.
    await owner.page.getByRole("list", { name: "Invitations" }).locator('[data-invitation-state="accepted"]', { hasText: `Accepted by ${grower.username}` }).waitFor({ timeout: 10_000 });

    // The role changed in another app of the Owner's; the member, whose dashboard shows the farm
    // as a Grower's (its switches on), is told on it.
    await expect.poll(() => card(grower.page, ROOM).getByRole("switch", { name: "Humidifier Automation" }).isEnabled(), { timeout: 20_000 }).toBe(true);
    await ownerApi("put", `/api/farms/${farmId}/members/${grower.clientId}`, { role: "viewer" });
    await expectToast(grower.page, `You are now a Viewer on ${FARM}.`);
    await expect.poll(() => listed(viewer.page, grower.username).locator("[data-role]").innerText(), { timeout: 10_000 }).toBe("Viewer");
    await expect.poll(() => listed(owner.page, grower.username).getByLabel(`Role of ${grower.username}`).inputValue(), { timeout: 10_000 }).toBe("viewer");

    // Removed there too.
    const removed = await owner.context.request.delete(`/api/farms/${farmId}/members/${grower.clientId}`, { headers: { Origin: app.url } });
    expect(removed.ok()).toBe(true);
    await listed(owner.page, grower.username).waitFor({ state: "detached", timeout: 10_000 });
    await listed(viewer.page, grower.username).waitFor({ state: "detached", timeout: 10_000 });
    await viewer.page.screenshot({ path: "/tmp/team-live-members-phone.png", fullPage: false });
    await grower.context.close();
    await viewer.context.close();
  });
});

describe("a farm's on-call rota", () => {
  it("follows the farm's members while open: a join, a role change and a removal show without a reload", async () => {
    const { page } = owner;
    await ownerApi("put", `/api/farms/${farmId}/rota`, { time_zone: "UTC", repeat_minutes: 5, escalate_minutes: 15, shifts: [] });
    await page.goto(`/farms/${farmId}/rota`);
    await page.locator("[data-on-call]", { hasText: "Nobody is on call now." }).waitFor();
    await page.getByRole("button", { name: "Add shift" }).click();
    const shift = page.getByRole("listitem", { name: "Shift 1" });
    const person = shift.getByLabel("Person");
    /** A select's choices as the person reads them (an option's inner text is empty while the list is closed). */
    type Select = { options: ArrayLike<{ text: string }>; selectedOptions: ArrayLike<{ text: string }> };
    const offered = () => person.evaluate((el) => Array.from((el as unknown as Select).options, (o) => o.text));

    // Someone joins with a code, in their own browser: the open form offers them.
    const grower = await member("grower");
    await expect.poll(offered, { timeout: 5_000 }).toContain(`${grower.username} (Grower)`);

    // Put on call all day, every day, and saved.
    await person.selectOption({ label: `${grower.username} (Grower)` });
    for (const day of ["Saturday", "Sunday"]) await shift.getByRole("button", { name: day }).click();
    await shift.getByLabel("Starts").fill("00:00");
    await shift.getByLabel("Ends").fill("00:00");
    await page.getByRole("button", { name: "Save rota" }).click();
    await expectToast(page, "On-call rota saved");
    await page.locator("[data-on-call]", { hasText: `On call now: ${grower.username} (no backup)` }).waitFor();

    // Made a Viewer in another app of the Owner's: the server takes them off the rota, and the
    // untouched form follows, rather than still naming them on call.
    await ownerApi("put", `/api/farms/${farmId}/members/${grower.clientId}`, { role: "viewer" });
    await page.locator("[data-on-call]", { hasText: "Nobody is on call now." }).waitFor({ timeout: 5_000 });
    await shift.waitFor({ state: "detached", timeout: 5_000 });
    expect(((await ownerApi("get", `/api/farms/${farmId}/rota`)) as { shifts: unknown[] }).shifts).toEqual([]);

    // A Grower again, chosen in an edit not yet saved, then removed from the farm: the edit keeps
    // them and says they are no longer a member, rather than dropping them without a word.
    await ownerApi("put", `/api/farms/${farmId}/members/${grower.clientId}`, { role: "grower" });
    await page.getByRole("button", { name: "Add shift" }).click();
    await expect.poll(offered, { timeout: 5_000 }).toContain(`${grower.username} (Grower)`);
    await person.selectOption({ label: `${grower.username} (Grower)` });
    const removed = await owner.context.request.delete(`/api/farms/${farmId}/members/${grower.clientId}`, { headers: { Origin: app.url } });
    expect(removed.ok()).toBe(true);
    const chosen = () => person.evaluate((el) => (el as unknown as Select).selectedOptions[0]?.text ?? "");
    await expect.poll(chosen, { timeout: 5_000 }).toBe(`${grower.username} (no longer a member)`);
    expect(await person.inputValue()).toBe(String(grower.clientId));
    const note = `${grower.username} is no longer a member of this farm. Choose someone else for this shift, or remove it.`;
    await shift.getByRole("status").filter({ hasText: note }).waitFor();
    expect(await person.getAttribute("aria-describedby")).toBe(await shift.getByRole("status").filter({ hasText: note }).getAttribute("id"));
    await page.screenshot({ path: "/tmp/team-live-rota-laptop.png", fullPage: true });
    await grower.context.close();
  });
});

async function mcuIdOf(name: string): Promise<number> {
  const clientId = await owner.page.evaluate("JSON.parse(localStorage.getItem('client')).client_id");
  const mcus = (await ownerApi("get", `/api/mcus/by-client/${clientId}`)) as { mcu_id: number; name: string }[];
  return mcus.find((m) => m.name === name)!.mcu_id;
}
