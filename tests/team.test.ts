import { mkdir } from "node:fs/promises";
import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, expectToast, signedInClientId, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";

/**
 * The farm team screens in Chromium against the real server: the demo account (the Owner of its
 * farms) invites a Grower from Members, a new person signs up from the invitation's link and joins,
 * the Owner makes them a Viewer and removes them, puts themself on call, and reads all of it in the
 * audit trail.
 */

const FARM = "Valley Tunnels";
const SHOTS = "/tmp/team-shots";
const SIZES = { phone: { width: 390, height: 844 }, laptop: { width: 1366, height: 768 }, wall: { width: 2560, height: 1440 } } as const;

/** The page at each size, a screenshot each (`fullPage` false for a dialog, which is fixed to the viewport); back to `back` after. */
async function shootSizes(page: Page, name: string, back: keyof typeof SIZES, fullPage = true) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    // A frame for the layout to follow the new width.
    await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
    await page.screenshot({ path: `${SHOTS}/${name}-${size}.png`, fullPage });
  }
  await page.setViewportSize(SIZES[back]);
}

let app: DemoApp;
let owner: { context: BrowserContext; page: Page };
let farmId: number;
let code = "";
let joinLink = "";
const newcomer = `grower${Date.now().toString(36)}`;
const PASSWORD = "spores-and-caps";

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await startDemoApp();
  owner = await app.newPage("laptop");
  await owner.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
  await signIn(owner.page);
  const farms = (await apiCaller(app, owner.context)("get", `/api/farms/myfarms/get?client_id=${await signedInClientId(owner.page)}`)) as { farm_id: number; name: string }[];
  farmId = farms.find((f) => f.name === FARM)!.farm_id;
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

const member = (page: Page, username: string) => page.getByRole("listitem", { name: username, exact: true });

describe("farm teams", () => {
  it("lets the Owner invite a Grower from Members, and shows the code only once", async () => {
    const { page } = owner;
    // Reached from the farm's card: the tab's title names the farm (the layout's own title came after it).
    await page.goto("/farms");
    await page.getByRole("link", { name: `Members of farm ${FARM}` }).click();
    await page.getByRole("heading", { level: 2, name: FARM }).waitFor();
    await page.getByRole("heading", { level: 1, name: "Farm Members" }).waitFor();
    await expect.poll(() => page.title()).toBe(`${FARM} · Members · Mushroom Farm`);
    // On a phone every tab shows whole, inside the farm's card.
    await page.setViewportSize({ width: 375, height: 812 });
    const nav = page.getByRole("navigation", { name: "Farm team" });
    const card = await nav.locator("xpath=ancestor::header[1]").boundingBox();
    const rows = new Set<number>();
    for (const name of ["Members", "On-call rota", "Audit trail"]) {
      const tab = await nav.getByRole("link", { name, exact: true }).boundingBox();
      expect(tab!.x + tab!.width, `the ${name} tab ends inside the card`).toBeLessThanOrEqual(card!.x + card!.width);
      expect(await nav.getByRole("link", { name, exact: true }).evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      rows.add(Math.round(tab!.y));
    }
    expect(rows.size, "the tabs on one row").toBe(1);
    await page.setViewportSize(SIZES.laptop);
    await member(page, "demo").getByText("Owner (account)").waitFor();
    // The account cannot leave its own farm.
    expect(await page.getByRole("button", { name: "Leave farm" }).count()).toBe(0);

    await page.getByRole("button", { name: "Invite", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Invite to ${FARM}` });
    await dialog.getByLabel("Role").selectOption("grower");
    await dialog.getByText("See this farm; switch controllers; acknowledge alarms; confirm phases; record harvests").waitFor();
    expect(await dialog.getByLabel("Days valid").inputValue()).toBe("7");
    await dialog.getByLabel("Note (optional)").fill("Night shift grower");
    await dialog.getByRole("button", { name: "Create invitation" }).click();

    const ready = page.getByRole("dialog", { name: "Invitation ready" });
    await ready.getByText("This code is shown only now").waitFor();
    const shown = await ready.locator("[data-invitation-code]").innerText();
    expect(shown).toMatch(/^([A-Z0-9]{4} ){5}[A-Z0-9]{4}$/);
    code = shown.replace(/ /g, "");
    joinLink = await ready.locator("[data-join-link]").innerText();
    expect(joinLink).toBe(`${app.url}/join?code=${code}`);
    await shootSizes(page, "members-code", "laptop", false);

    await ready.getByRole("button", { name: "Copy link" }).click();
    await expectToast(page, "Link copied");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(joinLink);
    await ready.getByRole("button", { name: "Done" }).click();
    await ready.waitFor({ state: "detached" });

    // Listed without its code, open, with Revoke.
    const invitations = page.getByRole("list", { name: "Invitations" });
    const open = invitations.locator('[data-invitation-state="open"]', { hasText: "Night shift grower" });
    await open.getByRole("button", { name: /^Revoke/ }).waitFor();
    expect(await page.getByText(code).count()).toBe(0);
    await shootSizes(page, "members", "laptop");
  });

  it("lets a new person sign up from the invitation's link, join, and see the farm", async () => {
    const { context, page } = await app.newPage("phone");
    await page.setViewportSize(SIZES.phone);
    await page.goto(joinLink.slice(app.url.length));
    await page.getByRole("heading", { level: 1, name: "Join a farm" }).waitFor();
    await page.getByText("You have an invitation to a farm.").waitFor();
    await shootSizes(page, "join-signed-out", "phone");

    await page.getByRole("link", { name: "Create account" }).click();
    await page.waitForURL("**/register?next=**");
    await page.getByLabel("Username", { exact: true }).fill(newcomer);
    await page.getByLabel("Email", { exact: true }).fill(`${newcomer}@example.com`);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Mobile", { exact: true }).fill("+961 3 123-456");
    await page.getByLabel("Address", { exact: true }).fill("1 Tunnel Road, Zahle");
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL("**/login?next=**");

    await page.getByLabel("Email or Username").fill(newcomer);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    // Back on Join, with the code filled in and what it offers.
    await page.waitForURL(`**/join?code=${code}`);
    const preview = page.locator("[data-invitation-preview]");
    await preview.waitFor();
    expect(await preview.innerText()).toBe(`demo invited you to ${FARM} as Grower.`);
    expect(await page.getByLabel("Invitation code").inputValue()).toBe(code.replace(/(.{4})(?=.)/g, "$1 "));
    // The whole code shows in the field, on a phone as narrow as 360 px.
    for (const width of [360, 375]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await page.getByLabel("Invitation code").evaluate((el) => el.scrollWidth <= el.clientWidth), `the code fits the field at ${width} px`).toBe(true);
    }
    await page.setViewportSize(SIZES.phone);
    await shootSizes(page, "join", "phone");

    await page.getByRole("button", { name: `Join ${FARM}` }).click();
    await expectToast(page, `You joined ${FARM}`);
    await page.waitForURL("**/dashboard");
    await page.goto("/farms");
    await page.getByRole("list", { name: "Farms" }).getByText(FARM).first().waitFor();

    // A Grower sees the team read-only, with the reason in the server's words. Opened afresh (the
    // roles come with the page's lists), nothing of the Owner's shows or is asked meanwhile.
    const asked: string[] = [];
    page.on("request", (r) => asked.push(new URL(r.url()).pathname));
    await page.goto(`/farms/${farmId}/members`);
    await page.getByText("A Grower on this farm cannot invite, change or remove members. The Owner of the farm can.").waitFor();
    await member(page, newcomer).getByText("You", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Invite", exact: true }).count()).toBe(0);
    expect(await page.getByRole("combobox").count()).toBe(0);
    await page.getByRole("button", { name: "Leave farm" }).waitFor();
    expect(asked.filter((path) => path.endsWith("/invitations"))).toEqual([]);
    // The audit trail is not offered (the farm's card does not offer it either).
    const tabs = page.getByRole("navigation", { name: "Farm team" });
    expect(await tabs.getByRole("link").allInnerTexts()).toEqual(["Members", "On-call rota"]);
    await tabs.getByRole("link", { name: "On-call rota" }).click();
    await page.getByText("A Grower on this farm cannot change the on-call rota. A Manager or the Owner can.").waitFor();
    expect(await page.getByRole("button", { name: "Save rota" }).count()).toBe(0);
    // Told there are no shifts, not asked to add one.
    await page.getByText("No shifts yet: nobody is on call.", { exact: true }).waitFor();
    // Its address still says why.
    await page.goto(`/farms/${farmId}/audit`);
    await page.getByText("A Grower on this farm cannot read the audit trail. A Manager or the Owner can.").waitFor();

    // The code worked once: a second use is refused in the server's words.
    await page.goto(`/join?code=${code}`);
    await page.getByRole("alert").filter({ hasText: /not valid|expired|withdrawn/ }).first().waitFor();
    await context.close();
  });

  it("lets the Owner make the new member a Viewer, then remove them", async () => {
    const { page } = owner;
    await page.goto(`/farms/${farmId}/members`);
    const newbie = member(page, newcomer);
    await newbie.waitFor();
    expect(await newbie.getByLabel(`Role of ${newcomer}`).inputValue()).toBe("grower");
    // The invitation is used now.
    await page.getByRole("list", { name: "Invitations" }).locator('[data-invitation-state="accepted"]', { hasText: `Accepted by ${newcomer}` }).waitFor();
    await shootSizes(page, "members-with-grower", "laptop");

    await newbie.getByLabel(`Role of ${newcomer}`).selectOption("viewer");
    // Fewer rights: asked first.
    const confirm = page.getByRole("alertdialog");
    await confirm.getByText(`Make ${newcomer} a Viewer?`).waitFor();
    await confirm.getByRole("button", { name: "OK" }).click();
    await expectToast(page, `${newcomer} is now a Viewer`);
    expect(await newbie.getByLabel(`Role of ${newcomer}`).inputValue()).toBe("viewer");

    await newbie.getByRole("button", { name: `Remove ${newcomer}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
    await expectToast(page, "Member removed");
    await newbie.waitFor({ state: "detached" });
  });

  it("lets a member leave the farm, and the farm leaves their lists", async () => {
    const { code: leaverCode } = (await apiCaller(app, owner.context)("post", `/api/farms/${farmId}/invitations`, { role: "viewer" })) as { code: string };
    const { context, page } = await app.newPage("phone");
    const name = `viewer${Date.now().toString(36)}`;
    const registered = await context.request.post("/api/clients", {
      headers: { Origin: app.url },
      data: { username: name, email: `${name}@example.com`, password: PASSWORD, confirmPassword: PASSWORD, mobile: "+961 3 123-456", country: "LB", address: "2 Tunnel Road, Zahle" },
    });
    expect(registered.ok()).toBe(true);
    await signIn(page, name, PASSWORD);
    await apiCaller(app, context)("post", "/api/invitations/accept", { code: leaverCode });

    await page.goto(`/farms/${farmId}/members`);
    await page.getByRole("button", { name: "Leave farm" }).click();
    await page.getByRole("alertdialog").getByText(`Leave ${FARM}?`).waitFor();
    await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
    await expectToast(page, "You left the farm");
    await page.waitForURL("**/farms");
    await page.getByText("No farms yet").waitFor();
    // Their own doing: not told as if someone had taken the farm away.
    await page.waitForTimeout(1000);
    expect(await page.getByRole("alert").filter({ hasText: "no longer shared with you" }).count()).toBe(0);
    await context.close();
  });

  it("lets the Owner put themself on call and shows who is on call now", async () => {
    const { page } = owner;
    await page.getByRole("link", { name: "On-call rota" }).click();
    await page.waitForURL(`**/farms/${farmId}/rota`);
    await page.getByText("Nobody is on call now.").waitFor();
    expect(await page.getByLabel("Time zone").inputValue()).toBe(await page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone"));
    expect(await page.getByLabel("Repeat every (minutes)").inputValue()).toBe("5");
    expect(await page.getByLabel("Escalate every (minutes)").inputValue()).toBe("15");

    // A shift without a person is not sent.
    await page.getByRole("button", { name: "Add shift" }).click();
    const shift = page.getByRole("listitem", { name: "Shift 1" });
    await page.getByRole("button", { name: "Save rota" }).click();
    await shift.getByRole("alert").filter({ hasText: "Choose who is on call" }).waitFor();

    await shift.getByLabel("Person").selectOption({ label: "demo (Owner)" });
    for (const day of ["Saturday", "Sunday"]) await shift.getByRole("button", { name: day }).click();
    expect(await shift.getByRole("button", { pressed: true }).count()).toBe(7);
    // All day, every day: from midnight to midnight the next day.
    await shift.getByLabel("Starts").fill("00:00");
    await shift.getByLabel("Ends").fill("00:00");
    await shift.getByText("Ends next day", { exact: true }).waitFor();

    await page.getByRole("button", { name: "Add shift" }).click();
    const second = page.getByRole("listitem", { name: "Shift 2" });
    await second.getByLabel("Person").selectOption({ label: "demo (Owner)" });
    await second.getByLabel("Starts").fill("08:00");
    await second.getByLabel("Ends").fill("20:00");
    await second.getByRole("button", { name: "Move Shift 2 up" }).click();
    expect(await page.getByRole("listitem", { name: "Shift 1" }).getByLabel("Starts").inputValue()).toBe("08:00");
    await page.getByRole("listitem", { name: "Shift 1" }).getByRole("button", { name: "Remove Shift 1" }).click();

    await page.getByRole("button", { name: "Save rota" }).click();
    await expectToast(page, "On-call rota saved");
    await page.locator("[data-on-call]", { hasText: "On call now: demo (no backup)" }).waitFor();
    await shootSizes(page, "rota", "laptop");

    const saved = (await apiCaller(app, owner.context)("get", `/api/farms/${farmId}/rota`)) as { shifts: unknown[] };
    expect(saved.shifts).toEqual([{ client_id: await signedInClientId(page), days: [0, 1, 2, 3, 4, 5, 6], start: "00:00", end: "00:00" }]);

    // Outside the shifts an alarm goes to the farm's managers and owners (not as the account's settings say).
    const later = `${String((new Date().getUTCHours() + 6) % 24).padStart(2, "0")}:00`;
    const minute = later.replace(/00$/, "01");
    await apiCaller(app, owner.context)("put", `/api/farms/${farmId}/rota`, { time_zone: "UTC", repeat_minutes: 5, escalate_minutes: 15, shifts: [{ client_id: await signedInClientId(page), days: [0, 1, 2, 3, 4, 5, 6], start: later, end: minute }] });
    await page.reload();
    await page.locator("[data-on-call]", { hasText: "Nobody is on call now. Alarms go straight to the farm's managers and owners." }).waitFor();
    await apiCaller(app, owner.context)("put", `/api/farms/${farmId}/rota`, { time_zone: "UTC", repeat_minutes: 5, escalate_minutes: 15, shifts: saved.shifts });
  });

  it("shows the Owner the member's join and role change in the audit trail, filtered, with its CSV", async () => {
    const { page } = owner;
    await page.getByRole("link", { name: "Audit trail" }).click();
    await page.waitForURL(`**/farms/${farmId}/audit`);
    const table = page.getByRole("table");
    await table.waitFor();
    await table.getByRole("row", { name: /On-call rota changed/ }).first().waitFor();

    await page.getByLabel("What").selectOption("member");
    await page.getByRole("button", { name: "Apply" }).click();
    const joined = table.getByRole("row", { name: new RegExp(`${newcomer}.*Member joined`) });
    await joined.waitFor();
    const roleChange = table.getByRole("row", { name: /Member role changed/ });
    await roleChange.waitFor();
    expect(await roleChange.innerText()).toContain("role: grower → viewer");
    expect(await joined.innerText()).toContain(`role: grower; username: ${newcomer}`);
    await table.getByRole("row", { name: new RegExp(`Member removed.*${newcomer}`) }).waitFor();
    await table.getByRole("row", { name: /Member left/ }).waitFor();
    expect(await table.getByRole("row", { name: /On-call rota/ }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Download CSV" }).getAttribute("href")).toBe(`/api/farms/${farmId}/audit.csv?kind=member`);

    const csv = await owner.context.request.get(`/api/farms/${farmId}/audit.csv?kind=member`);
    expect(csv.ok()).toBe(true);
    expect(await csv.text()).toContain("role changed");

    await page.getByRole("button", { name: "Reset" }).click();
    await table.getByRole("row", { name: /On-call rota changed/ }).first().waitFor();
    await shootSizes(page, "audit", "laptop");
    // A phone gets a stacked list, not a table.
    await page.setViewportSize(SIZES.phone);
    await page.getByRole("list", { name: "Changes to the farm, newest first" }).waitFor();
    expect(await page.getByRole("table").count()).toBe(0);
    await page.setViewportSize(SIZES.laptop);
  });

  it("shows, folded on an alarm's card, whom the on-call rota called about it", async () => {
    const { page } = owner;
    await page.goto("/alarms");
    // The first toggle on screen, held by the panel it controls: the active alarms (from the data
    // core) may show up after the recent ones (fetched), above them, and a bare `.first()` would
    // then name another alarm's toggle, still folded, than the one clicked.
    const panelId = await page.getByRole("button", { name: "Who was called" }).first().getAttribute("aria-controls");
    const toggle = page.locator(`button[aria-controls="${panelId}"]`);
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    const panel = page.locator(`[id="${await toggle.getAttribute("aria-controls")}"]`);
    await panel.getByText(/^(Called .+ \((on call|backup|managers and owners)\) at \d\d:\d\d · (displayed \d\d:\d\d|not displayed yet)|Nobody was called about it by an on-call rota\.)/).first().waitFor();
    await page.screenshot({ path: `${SHOTS}/alarm-calls-laptop.png` });
  });
});
