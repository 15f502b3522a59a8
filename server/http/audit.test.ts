import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry, AuditPage } from "../../src/contract/team.ts";
import { memberOf } from "../test-support/team.ts";
import { createTestServer, sampleConfig, seedClientData, type TestClient, type TestServer } from "../test-support/test-server.ts";

let server: TestServer;
let owner: TestClient;
let manager: TestClient;
let fx: Awaited<ReturnType<typeof seedClientData>>;
let otherFarm: number;

const trail = async (c: TestClient, query = "") => (await c.get(`/api/farms/${fx.farm.farm_id}/audit${query}`)).json() as AuditPage;

beforeAll(async () => {
  server = await createTestServer();
  owner = await server.signUp();
  fx = await seedClientData(owner);
  manager = await memberOf(server, owner, fx.farm.farm_id, "manager");
  otherFarm = (await owner.post("/api/farms", { name: "Other", location: "Tyre", client_id: owner.clientId })).json().farm_id;
  await owner.put(`/api/farms/${otherFarm}`, { name: "Other barn", location: "Tyre" });
  await manager.put(`/api/mcus/${fx.mcu.mcu_id}`, { name: "Room A (north)", farm_id: fx.farm.farm_id, mac: fx.mcu.mac });
  await manager.put(`/api/setting-profiles/${fx.profile.profile_id}`, { name: "Pinning", client_id: owner.clientId, config: { ...sampleConfig, ventilation: { co2_threshold: 900 } } });
});
afterAll(async () => server?.close());

describe("the audit trail", () => {
  it("lists the farm's changes newest first, with who, from where, and the record before and after", async () => {
    const { entries } = await trail(owner);
    const [profile, mcu] = entries;
    expect(profile).toMatchObject({ kind: "profile", action: "changed", actor: manager.registration.username, farm_id: fx.farm.farm_id, entity_id: String(fx.profile.profile_id) });
    expect((profile!.before!.config as typeof sampleConfig).ventilation.co2_threshold).toBe(1200);
    expect((profile!.after!.config as typeof sampleConfig).ventilation.co2_threshold).toBe(900);
    expect(mcu).toMatchObject({ kind: "mcu", action: "changed", before: expect.objectContaining({ name: "Room A" }), after: expect.objectContaining({ name: "Room A (north)" }) });
    expect(mcu!.address).toBe("127.0.0.1");
    // The seeding's creations are there too, oldest last; another farm's changes are not.
    expect(entries.map((e) => `${e.kind} ${e.action}`)).toEqual(expect.arrayContaining(["controller created", "sensor created", "link linked", "member joined", "invitation created"]));
    expect(entries.some((e) => e.farm_id === otherFarm)).toBe(false);
  });

  it("filters by kind and actor, pages with a cursor, and exports CSV", async () => {
    const byManager = await trail(owner, `?actor=${encodeURIComponent(manager.registration.username.toUpperCase())}`);
    expect(new Set(byManager.entries.map((e) => e.actor))).toEqual(new Set([manager.registration.username]));
    expect((await trail(owner, "?kind=mcu")).entries.every((e: AuditEntry) => e.kind === "mcu")).toBe(true);
    const first = await trail(owner, "?limit=2");
    expect(first.entries).toHaveLength(2);
    const second = await trail(owner, `?limit=2&cursor=${first.next}`);
    expect(second.entries[0]!.audit_id).not.toBe(first.entries[1]!.audit_id);
    expect(Number(second.entries[0]!.audit_id)).toBeLessThan(Number(first.entries[1]!.audit_id));
    const csv = await owner.get(`/api/farms/${fx.farm.farm_id}/audit.csv?kind=profile`);
    expect(csv.headers["content-type"]).toMatch(/text\/csv/);
    const lines = csv.body.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines[0]).toBe("at,actor,address,kind,id,action,before,after");
    expect(lines.slice(1).every((l) => l.includes(",profile,"))).toBe(true);
    expect((await trail(owner, "?kind=nope")) as unknown).toMatchObject({ code: "VALIDATION" });
  });

  it("is read by Owners and Managers only", async () => {
    const grower = await memberOf(server, owner, fx.farm.farm_id, "grower");
    const res = await grower.get(`/api/farms/${fx.farm.farm_id}/audit`);
    expect([res.statusCode, res.json().message]).toEqual([403, "A Grower on this farm cannot read the audit trail"]);
    expect((await manager.get(`/api/farms/${fx.farm.farm_id}/audit`)).statusCode).toBe(200);
  });

  it("forgets entries older than the command log keeps", async () => {
    const { entries } = await trail(owner);
    const cutoff = new Date(Date.parse(entries[0]!.at) + 1);
    expect(await server.app.repos.audit.sweep(cutoff)).toBeGreaterThan(0);
    expect((await trail(owner)).entries).toEqual([]);
  });
});
