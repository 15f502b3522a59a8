import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordOpenAlert } from "../db/alerts-repo.ts";
import { memberOf } from "../test-support/team.ts";
import { createTestServer, seedClientData, type TestClient, type TestServer } from "../test-support/test-server.ts";

const DAY_MS = 86_400_000;

let server: TestServer;
let owner: TestClient;
let fx: Awaited<ReturnType<typeof seedClientData>>;

beforeAll(async () => {
  server = await createTestServer();
  owner = await server.signUp();
  fx = await seedClientData(owner);
});
afterAll(async () => server?.close());

async function invite(role = "grower", days?: number) {
  const res = await owner.post(`/api/farms/${fx.farm.farm_id}/invitations`, { role, note: "for Rania", ...(days ? { days } : {}) });
  expect(res.statusCode).toBe(201);
  return res.json() as { invitation: { invitation_id: number; state: string; expires_at: string }; code: string };
}

describe("invitations", () => {
  it("shows the code once, stores only its hash, and lists the invitation without it", async () => {
    const { invitation, code } = await invite("viewer");
    expect(code).toMatch(/^[A-Z2-7]{24}$/);
    expect(invitation.state).toBe("open");
    const [row] = await server.db.query<{ code_hash: string }>("select code_hash from farm_invitations where invitation_id = $1", [invitation.invitation_id]);
    expect(row!.code_hash).not.toContain(code);
    const listed = (await owner.get(`/api/farms/${fx.farm.farm_id}/invitations`)).body;
    expect(listed).toContain(`"invitation_id":${invitation.invitation_id}`);
    expect(listed).not.toContain(code);
  });

  it("previews the farm and role, then joins once: a second use is refused", async () => {
    const { code } = await invite("grower");
    const person = await server.signUp();
    const preview = await person.get(`/api/invitations/${code.toLowerCase().replace(/(.{4})/g, "$1-")}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ farm_name: "Oyster House", role: "grower", invited_by: owner.registration.username });
    const joined = await person.post("/api/invitations/accept", { code });
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toEqual({ farm_id: fx.farm.farm_id, owner_id: owner.clientId, role: "grower" });
    const again = await (await server.signUp()).post("/api/invitations/accept", { code });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe("This invitation code is not valid: check it, or ask for a new invitation");
  });

  it("refuses an expired invitation with 410, and a revoked one", async () => {
    const expiring = await invite("viewer", 1);
    const revoked = await invite("viewer");
    const res = await owner.del(`/api/farms/${fx.farm.farm_id}/invitations/${revoked.invitation.invitation_id}`);
    expect(res.json().state).toBe("revoked");
    const person = await server.signUp();
    const withdrawn = await person.post("/api/invitations/accept", { code: revoked.code });
    expect([withdrawn.statusCode, withdrawn.json().message]).toEqual([410, "This invitation was withdrawn: ask for a new one"]);
    server.clock.advance(DAY_MS + 1000);
    const expired = await person.post("/api/invitations/accept", { code: expiring.code });
    expect([expired.statusCode, expired.json().message]).toEqual([410, "This invitation has expired: ask for a new one"]);
    const states = (await owner.get(`/api/farms/${fx.farm.farm_id}/invitations`)).json() as { invitation_id: number; state: string }[];
    expect(states.find((i) => i.invitation_id === expiring.invitation.invitation_id)?.state).toBe("expired");
    expect(await person.get("/api/clients/me/farm-roles").then((r) => r.json())).toEqual(expect.not.arrayContaining([expect.objectContaining({ farm_id: fx.farm.farm_id })]));
  });

  it("keeps the higher role when a member accepts a second invitation, and the account stays Owner", async () => {
    const person = await memberOf(server, owner, fx.farm.farm_id, "manager");
    await memberOf(server, owner, fx.farm.farm_id, "viewer", person);
    const roles = (await person.get("/api/clients/me/farm-roles")).json();
    expect(roles).toEqual([{ farm_id: fx.farm.farm_id, owner_id: owner.clientId, role: "manager" }]);
    const self = await memberOf(server, owner, fx.farm.farm_id, "viewer", owner).catch((e: Error) => e);
    expect(self).not.toBeInstanceOf(Error);
    expect((await owner.get(`/api/farms/${fx.farm.farm_id}/members`)).json()[0]).toMatchObject({ client_id: owner.clientId, role: "owner", account_owner: true });
  });
});

describe("members", () => {
  it("see the farm's lists beside their own, and nothing of the account's other farms", async () => {
    const other = (await owner.post("/api/farms", { name: "Shiitake Barn", location: "Zahle", client_id: owner.clientId })).json();
    const device = await owner.mcuDevice();
    const hidden = (await owner.post("/api/mcus", { name: "Barn 1", ...device, farm_id: other.farm_id, status: "active" })).json();
    const grower = await memberOf(server, owner, fx.farm.farm_id, "grower");
    const own = await seedClientData(grower);

    const farms = (await grower.get(`/api/farms/myfarms/get?client_id=${grower.clientId}`)).json() as { farm_id: number }[];
    expect(farms.map((f) => f.farm_id)).toEqual([own.farm.farm_id, fx.farm.farm_id]);
    const mcus = (await grower.get(`/api/mcus/by-client/${grower.clientId}`)).json() as { mcu_id: number }[];
    expect(mcus.map((m) => m.mcu_id)).toEqual(expect.arrayContaining([own.mcu.mcu_id, fx.mcu.mcu_id]));
    expect(mcus.map((m) => m.mcu_id)).not.toContain(hidden.mcu_id);
    const page = await grower.get(`/api/mcus/by-client/${grower.clientId}?limit=1`);
    expect([page.headers["x-total-count"], page.json().length]).toEqual([String(mcus.length), 1]);
    const controllers = (await grower.get("/api/controllers")).json() as { unit_id: number }[];
    expect(controllers.map((c) => c.unit_id)).toEqual(expect.arrayContaining([own.controller.unit_id, fx.controller.unit_id]));
    // Another farm of the account, by id: as if it did not exist.
    expect((await grower.get(`/api/mcus/${hidden.mcu_id}/config-changes`)).statusCode).toBe(404);
    expect((await grower.get(`/api/farms/${other.farm_id}/members`)).statusCode).toBe(404);
  });

  it("lose the farm at once when removed, and may leave by themselves", async () => {
    const viewer = await memberOf(server, owner, fx.farm.farm_id, "viewer");
    const leaver = await memberOf(server, owner, fx.farm.farm_id, "viewer");
    expect((await viewer.get(`/api/farms/${fx.farm.farm_id}/members`)).statusCode).toBe(200);
    expect((await owner.del(`/api/farms/${fx.farm.farm_id}/members/${viewer.clientId}`)).json().message).toBe("Member removed");
    expect((await viewer.get(`/api/farms/${fx.farm.farm_id}/members`)).statusCode).toBe(404);
    expect((await viewer.get(`/api/farms/myfarms/get?client_id=${viewer.clientId}`)).json()).toEqual([]);
    expect((await leaver.del(`/api/farms/${fx.farm.farm_id}/members/${leaver.clientId}`)).json().message).toBe("You left the farm");
    expect((await leaver.get("/api/clients/me/farm-roles")).json()).toEqual([]);
  });

  it("come off the on-call rota when removed, gone or made a Viewer, with the rota's change in the trail", async () => {
    const always = (client_id: number) => ({ client_id, days: [0, 1, 2, 3, 4, 5, 6], start: "00:00", end: "00:00" });
    const [removed, lowered, leaver, staying] = [await memberOf(server, owner, fx.farm.farm_id, "grower"), await memberOf(server, owner, fx.farm.farm_id, "grower"), await memberOf(server, owner, fx.farm.farm_id, "manager"), await memberOf(server, owner, fx.farm.farm_id, "grower")];
    const people = [removed, lowered, leaver, staying, owner].map((p) => always(p.clientId));
    expect((await owner.put(`/api/farms/${fx.farm.farm_id}/rota`, { time_zone: "Asia/Beirut", repeat_minutes: 5, escalate_minutes: 15, shifts: people })).statusCode).toBe(200);
    const onRota = async () => ((await owner.get(`/api/farms/${fx.farm.farm_id}/rota`)).json() as { shifts: { client_id: number }[] }).shifts.map((s) => s.client_id);

    // Removed, they would still be called about a farm they no longer see.
    expect((await owner.del(`/api/farms/${fx.farm.farm_id}/members/${removed.clientId}`)).statusCode).toBe(200);
    expect(await onRota()).toEqual([lowered, leaver, staying, owner].map((p) => p.clientId));
    // A Viewer cannot acknowledge what they would be called about.
    expect((await owner.put(`/api/farms/${fx.farm.farm_id}/members/${lowered.clientId}`, { role: "viewer" })).statusCode).toBe(200);
    expect((await leaver.del(`/api/farms/${fx.farm.farm_id}/members/${leaver.clientId}`)).statusCode).toBe(200);
    // Another role that acknowledges alarms keeps the shift, and so do the others.
    expect((await owner.put(`/api/farms/${fx.farm.farm_id}/members/${staying.clientId}`, { role: "manager" })).statusCode).toBe(200);
    expect(await onRota()).toEqual([staying.clientId, owner.clientId]);
    // The rota, as saved, is one the rota's own route accepts.
    const saved = (await owner.get(`/api/farms/${fx.farm.farm_id}/rota`)).json() as { time_zone: string; repeat_minutes: number; escalate_minutes: number; shifts: unknown[] };
    expect(saved).toMatchObject({ time_zone: "Asia/Beirut", repeat_minutes: 5, escalate_minutes: 15 });
    expect((await owner.put(`/api/farms/${fx.farm.farm_id}/rota`, { time_zone: saved.time_zone, repeat_minutes: saved.repeat_minutes, escalate_minutes: saved.escalate_minutes, shifts: saved.shifts })).statusCode).toBe(200);

    const trail = (await owner.get(`/api/farms/${fx.farm.farm_id}/audit?kind=rota`)).json() as { entries: { actor: string; action: string; before: { shifts: { client_id: number }[] }; after: { shifts: { client_id: number }[] } }[] };
    const dropped = trail.entries.filter((e) => e.before?.shifts.length === e.after?.shifts.length + 1);
    expect(dropped.map((e) => [e.actor, e.action, e.before.shifts.find((s) => !e.after.shifts.some((a) => a.client_id === s.client_id))?.client_id])).toEqual([
      [leaver.registration.username, "changed", leaver.clientId],
      [owner.registration.username, "changed", lowered.clientId],
      [owner.registration.username, "changed", removed.clientId],
    ]);
    expect((await owner.put(`/api/farms/${fx.farm.farm_id}/rota`, { time_zone: "UTC", repeat_minutes: 5, escalate_minutes: 15, shifts: [] })).statusCode).toBe(200);
  });

  it("cannot touch the farm's account, whatever their role", async () => {
    const coOwner = await memberOf(server, owner, fx.farm.farm_id, "owner");
    const res = await coOwner.put(`/api/farms/${fx.farm.farm_id}/members/${owner.clientId}`, { role: "viewer" });
    expect([res.statusCode, res.json().message]).toEqual([403, "The farm's account is always its Owner"]);
    expect((await coOwner.del(`/api/farms/${fx.farm.farm_id}/members/${owner.clientId}`)).statusCode).toBe(403);
  });

  it("acknowledge an alarm in their own name", async () => {
    const grower = await memberOf(server, owner, fx.farm.farm_id, "grower");
    const n = await server.app.repos.notifications.create(owner.clientId, { type: "battery_low", title: "Room A: battery low", body: "Battery at 20%." }, new Date(server.clock.now), { mcuId: fx.mcu.mcu_id });
    await recordOpenAlert(server.db, { clientId: owner.clientId, mcuId: fx.mcu.mcu_id, type: "battery_low" }, n.notification_id, new Date(server.clock.now));
    const [open] = await server.db.query<{ alert_id: number }>("select alert_id from alerts where mcu_id = $1 and state = 'open'", [fx.mcu.mcu_id]);
    const res = await grower.post(`/api/alarms/${open!.alert_id}/acknowledge`, { comment: "Charging it" });
    expect(res.json()).toMatchObject({ state: "acknowledged", acknowledged_by: grower.registration.username });
  });

  it("act with their weakest role on a batch that spans farms, and not at all where they are no member", async () => {
    const second = (await owner.post("/api/farms", { name: "Second", location: "Tyre", client_id: owner.clientId })).json();
    const device = await owner.mcuDevice();
    const far = (await owner.post("/api/mcus", { name: "Far", ...device, farm_id: second.farm_id, status: "active" })).json();
    const manager = await memberOf(server, owner, fx.farm.farm_id, "manager");
    const recipe = (await owner.post("/api/recipes", { name: "Span", species: "Oyster", phases: [{ name: "Run", days: 3, confirm: null, config: fx.profile.config, ramps: [] }] })).json();
    const res = await manager.post("/api/batches", { name: "Across", recipe_id: recipe.recipe_id, mcu_ids: [fx.mcu.mcu_id, far.mcu_id], time_zone: "UTC" });
    expect([res.statusCode, res.json().message]).toEqual([403, "This touches a farm you are not a member of"]);
    await memberOf(server, owner, second.farm_id, "grower", manager);
    const weaker = await manager.post("/api/batches", { name: "Across", recipe_id: recipe.recipe_id, mcu_ids: [fx.mcu.mcu_id, far.mcu_id], time_zone: "UTC" });
    expect([weaker.statusCode, weaker.json().message]).toEqual([403, "A Grower on this farm cannot start, change or end batches"]);
  });
});
