import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProfileConfig } from "../../src/contract/entities.ts";
import { can, cannotText, ROLES, type Right, type Role } from "../../src/contract/team.ts";
import { recordOpenAlert } from "../db/alerts-repo.ts";
import { notificationsRepo } from "../db/notifications-repo.ts";
import { steadyPhase } from "../test-support/running-batch.ts";
import { routesOf } from "../test-support/route-table.ts";
import { memberOf } from "../test-support/team.ts";
import { createTestServer, sampleConfig, seedClientData, uniqueMac, type TestClient, type TestServer } from "../test-support/test-server.ts";

/**
 * The role matrix: every route of the signed-in scope, tried by every role on a farm and by a
 * stranger. The table below names each route's right (or `own`: the person's own records and
 * loads of what they may see); the route table is read from the server, so a route added without
 * a row here fails the test, as a route without an access rule fails the server's start.
 *
 * For each row, on a target made fresh for it: every role without the right gets 403 with the
 * words the app shows, a stranger and a member of another farm of the same account get 404 (the
 * target's existence is not confirmed; a member reaches only the farms they are on), and then the
 * weakest role with the right is let through.
 */

type Method = "GET" | "POST" | "PUT" | "DELETE";
interface Call {
  url: string;
  body?: unknown;
}
interface Case {
  right: Right;
  /** The request, on a target made for it by the farm's account. */
  make(): Promise<Call>;
  /** What a stranger gets (404 by default: an id of someone else's is not confirmed). */
  stranger?: number;
  /**
   * Something of the account as a whole (a recipe, a new profile or recipe in the account): a
   * member of any of its farms may, so the neighbour below is not refused.
   */
  accountWide?: true;
}
type Row = "own" | Case | Case[];

let server: TestServer;
let owner: TestClient;
let members: Record<Role, TestClient>;
let stranger: TestClient;
/** An Owner-role member of another farm of the same account: no more a member of the target's farm than a stranger. */
let neighbour: TestClient;
let fx: Awaited<ReturnType<typeof seedClientData>>;

const config = sampleConfig as ProfileConfig;
const range = "from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z";
const ok = (res: LightMyRequestResponse, what: string) => {
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json();
};

async function newMcuWithMac(): Promise<{ mcu_id: number; mac: string }> {
  const device = await owner.mcuDevice();
  return ok(await owner.post("/api/mcus", { name: `MCU ${device.mac}`, ...device, farm_id: fx.farm.farm_id, status: "active" }), "mcu");
}
const newMcu = async () => (await newMcuWithMac()).mcu_id;
async function newRecipe(): Promise<number> {
  return ok(await owner.post("/api/recipes", { name: `Recipe ${uniqueMac()}`, species: "Oyster", phases: [steadyPhase("Fruiting", 7, config)] }), "recipe").recipe_id;
}
async function newBatch(): Promise<number> {
  const mcu = await newMcu();
  return ok(await owner.post("/api/batches", { name: "Batch", recipe_id: await newRecipe(), mcu_ids: [mcu], time_zone: "UTC" }), "batch").batch_id;
}
async function endedBatch(): Promise<number> {
  const id = await newBatch();
  ok(await owner.post(`/api/batches/${id}/actions`, { action: "end", reason: "test" }), "end");
  return id;
}
async function newAlarm(): Promise<number> {
  const mcu = await newMcu();
  const n = await notificationsRepo(server.db).create(owner.clientId, { type: "alert", title: "Battery low", body: "Battery low" }, new Date(), { mcuId: mcu });
  await recordOpenAlert(server.db, { clientId: owner.clientId, mcuId: mcu, type: "battery_low" }, n.notification_id, new Date());
  const [row] = await server.db.query<{ alert_id: number }>("select alert_id from alerts where mcu_id = $1", [mcu]);
  return row!.alert_id;
}
async function newProfile(linkTo?: number): Promise<number> {
  const profile = ok(await owner.post("/api/setting-profiles", { name: `P ${uniqueMac()}`, client_id: owner.clientId, config: sampleConfig }), "profile").profile_id;
  if (linkTo !== undefined) ok(await owner.post("/api/setting-profiles/link", { mcu_id: linkTo, profile_id: profile }), "link");
  return profile;
}
async function newLink(): Promise<number> {
  const mcu = await newMcu();
  const profile = await newProfile();
  return ok(await owner.post("/api/setting-profiles/link", { mcu_id: mcu, profile_id: profile }), "link").id;
}
const controllerBody = (mcu: number) => ({ name: "Mist", mac: uniqueMac(), type: "Humidifier", mcu_id: mcu });
const sensorBody = (mcu: number) => ({ name: "CO2", mac: uniqueMac(), type: "CO2", mcu_id: mcu });
const mcuPath = async (tail: string) => ({ url: `/api/mcus/${fx.mcu.mcu_id}/${tail}` });
const farmPath = async (tail: string) => ({ url: `/api/farms/${fx.farm.farm_id}/${tail}` });

/** Every route of the signed-in scope with its right; "own": the person's own, checked by the isolation tests. */
const MATRIX: Record<string, Row> = {
  "GET /api/clients/me": "own",
  "PUT /api/clients/:client_id": "own",
  "GET /api/clients/me/farm-roles": "own",
  "GET /notifications/:client_id": "own",
  "PUT /notifications/:client_id/read": "own",
  "GET /api/notification-preferences": "own",
  "PUT /api/notification-preferences": "own",
  "GET /api/farms/myfarms/get": "own",
  "POST /api/farms": "own",
  "GET /api/mcus/by-client/:clientId": "own",
  "GET /api/controllers": "own",
  "GET /api/sensors": "own",
  "GET /api/controllers/scan-mac/:mac": "own",
  "GET /api/sensors/scan-mac/:mac": "own",
  "GET /api/setting-profiles/:clientId": "own",
  "GET /api/recipes": "own",
  "POST /api/recipes/starters": "own",
  "GET /api/batches": "own",
  "GET /api/invitations/:code": "own",
  "POST /api/invitations/accept": "own",
  "GET /api/push/vapid-public-key": "own",
  "PUT /api/push/subscription": "own",
  "DELETE /api/push/subscription": "own",

  "PUT /api/farms/:farm_id": { right: "editFarm", make: async () => ({ url: `/api/farms/${fx.farm.farm_id}`, body: { name: "Oyster House", location: "Byblos" } }) },
  "DELETE /api/farms/:farm_id": {
    right: "editFarm",
    // An empty farm of the account with every member on it.
    make: async () => {
      const farm = ok(await owner.post("/api/farms", { name: `Spare ${uniqueMac()}`, location: "Batroun", client_id: owner.clientId }), "farm").farm_id;
      for (const r of ROLES) await memberOf(server, owner, farm, r, members[r]);
      return { url: `/api/farms/${farm}` };
    },
  },
  "GET /api/farms/:farm_id/history": { right: "see", make: () => farmPath(`history?${range}&metric=temperature`) },
  "GET /api/farms/:farm_id/history.csv": { right: "see", make: () => farmPath(`history.csv?${range}&metric=temperature`) },
  "GET /api/farms/:farm_id/members": { right: "see", make: () => farmPath("members") },
  "PUT /api/farms/:farm_id/members/:client_id": {
    right: "manageMembers",
    make: async () => ({ url: `/api/farms/${fx.farm.farm_id}/members/${(await memberOf(server, owner, fx.farm.farm_id, "viewer")).clientId}`, body: { role: "grower" } }),
  },
  "DELETE /api/farms/:farm_id/members/:client_id": {
    right: "manageMembers",
    make: async () => ({ url: `/api/farms/${fx.farm.farm_id}/members/${(await memberOf(server, owner, fx.farm.farm_id, "viewer")).clientId}` }),
  },
  "GET /api/farms/:farm_id/invitations": { right: "manageMembers", make: () => farmPath("invitations") },
  "POST /api/farms/:farm_id/invitations": { right: "manageMembers", make: async () => ({ url: `/api/farms/${fx.farm.farm_id}/invitations`, body: { role: "viewer" } }) },
  "DELETE /api/farms/:farm_id/invitations/:invitation_id": {
    right: "manageMembers",
    make: async () => ({ url: `/api/farms/${fx.farm.farm_id}/invitations/${ok(await owner.post(`/api/farms/${fx.farm.farm_id}/invitations`, { role: "viewer" }), "invite").invitation.invitation_id}` }),
  },

  "POST /api/mcus": { right: "manageDevices", make: async () => ({ url: "/api/mcus", body: { name: "New", ...(await owner.mcuDevice()), farm_id: fx.farm.farm_id, status: "active" } }) },
  "PUT /api/mcus/:mcu_id": {
    right: "manageDevices",
    make: async () => {
      const mcu = await newMcuWithMac();
      return { url: `/api/mcus/${mcu.mcu_id}`, body: { name: "Renamed", farm_id: fx.farm.farm_id, mac: mcu.mac } };
    },
  },
  "DELETE /api/mcus/:mcu_id": { right: "manageDevices", make: async () => ({ url: `/api/mcus/${await newMcu()}` }) },
  "GET /api/mcus/:mcu_id/history": { right: "see", make: () => mcuPath(`history?${range}`) },
  "GET /api/mcus/:mcu_id/history.csv": { right: "see", make: () => mcuPath(`history.csv?${range}`) },
  "GET /api/mcus/:mcu_id/timeline": { right: "see", make: () => mcuPath(`timeline?${range}`) },
  "GET /api/mcus/:mcu_id/timeline.csv": { right: "see", make: () => mcuPath(`timeline.csv?${range}`) },
  "GET /api/mcus/:mcu_id/commands": { right: "see", make: () => mcuPath(`commands?${range}`) },
  "GET /api/mcus/:mcu_id/commands.csv": { right: "see", make: () => mcuPath(`commands.csv?${range}`) },
  "GET /api/mcus/:mcu_id/config-changes": { right: "see", make: () => mcuPath("config-changes") },

  "POST /api/controllers": { right: "manageDevices", make: async () => ({ url: "/api/controllers", body: controllerBody(fx.mcu.mcu_id) }) },
  "PUT /api/controllers/:unit_id": {
    right: "manageDevices",
    make: async () => {
      const body = controllerBody(fx.mcu.mcu_id);
      return { url: `/api/controllers/${ok(await owner.post("/api/controllers", body), "controller").unit_id}`, body: { ...body, name: "Renamed" } };
    },
  },
  "DELETE /api/controllers/:unit_id": { right: "manageDevices", make: async () => ({ url: `/api/controllers/${ok(await owner.post("/api/controllers", controllerBody(fx.mcu.mcu_id)), "controller").unit_id}` }) },
  "POST /api/sensors": { right: "manageDevices", make: async () => ({ url: "/api/sensors", body: sensorBody(fx.mcu.mcu_id) }) },
  "PUT /api/sensors/:sensor_id": {
    right: "manageDevices",
    make: async () => {
      const body = sensorBody(fx.mcu.mcu_id);
      return { url: `/api/sensors/${ok(await owner.post("/api/sensors", body), "sensor").sensor_id}`, body: { ...body, name: "Renamed" } };
    },
  },
  "DELETE /api/sensors/:sensor_id": { right: "manageDevices", make: async () => ({ url: `/api/sensors/${ok(await owner.post("/api/sensors", sensorBody(fx.mcu.mcu_id)), "sensor").sensor_id}` }) },

  "POST /api/setting-profiles": {
    right: "manageProfiles",
    accountWide: true,
    make: async () => ({ url: "/api/setting-profiles", body: { name: "Member's", client_id: owner.clientId, config: sampleConfig } }),
    // A profile for another account is refused by the body's client_id.
    stranger: 403,
  },
  "PUT /api/setting-profiles/:profile_id": {
    right: "manageProfiles",
    make: async () => ({ url: `/api/setting-profiles/${await newProfile(await newMcu())}`, body: { name: "Edited", client_id: owner.clientId, config: sampleConfig } }),
    // Refused by the body's client_id before the id is looked up (nothing said about the profile).
    stranger: 403,
  },
  "DELETE /api/setting-profiles/:profile_id": { right: "manageProfiles", make: async () => ({ url: `/api/setting-profiles/${await newProfile(await newMcu())}` }) },
  "POST /api/setting-profiles/link": { right: "manageProfiles", make: async () => ({ url: "/api/setting-profiles/link", body: { mcu_id: await newMcu(), profile_id: await newProfile() } }) },
  "DELETE /api/setting-profiles/link/:linkId": { right: "manageProfiles", make: async () => ({ url: `/api/setting-profiles/link/${await newLink()}` }) },

  "POST /api/recipes": {
    right: "manageRecipes",
    accountWide: true,
    make: async () => ({ url: "/api/recipes", body: { name: `R ${uniqueMac()}`, species: "Oyster", client_id: owner.clientId, phases: [steadyPhase("Fruiting", 7, config)] } }),
    // Added to the stranger's own account instead: the body's account is one they have no role in.
    stranger: 201,
  },
  "PUT /api/recipes/:recipe_id": { right: "manageRecipes", accountWide: true, make: async () => ({ url: `/api/recipes/${await newRecipe()}`, body: { name: "Edited", species: "Oyster", phases: [steadyPhase("Fruiting", 8, config)] } }) },
  "DELETE /api/recipes/:recipe_id": { right: "manageRecipes", accountWide: true, make: async () => ({ url: `/api/recipes/${await newRecipe()}` }) },

  "POST /api/batches": {
    right: "manageBatches",
    make: async () => ({ url: "/api/batches", body: { name: "B", recipe_id: await newRecipe(), mcu_ids: [await newMcu()], time_zone: "UTC" } }),
  },
  "PUT /api/batches/:batch_id": { right: "manageBatches", make: async () => ({ url: `/api/batches/${await newBatch()}`, body: { name: "Renamed" } }) },
  "DELETE /api/batches/:batch_id": { right: "manageBatches", make: async () => ({ url: `/api/batches/${await endedBatch()}` }) },
  "POST /api/batches/:batch_id/actions": [
    { right: "manageBatches", make: async () => ({ url: `/api/batches/${await newBatch()}/actions`, body: { action: "hold", reason: "test" } }) },
    // Confirming a phase that does not wait is refused (409) after the right is checked.
    { right: "confirmPhases", make: async () => ({ url: `/api/batches/${await newBatch()}/actions`, body: { action: "confirm" } }) },
  ],
  "POST /api/batches/:batch_id/harvests": { right: "recordHarvests", make: async () => ({ url: `/api/batches/${await newBatch()}/harvests`, body: { fresh_kg: 1.5 } }) },
  "DELETE /api/batches/:batch_id/harvests/:harvest_id": {
    right: "recordHarvests",
    make: async () => {
      const batch = await newBatch();
      const harvest = ok(await owner.post(`/api/batches/${batch}/harvests`, { fresh_kg: 1.5 }), "harvest").harvests[0].harvest_id;
      return { url: `/api/batches/${batch}/harvests/${harvest}` };
    },
  },

  "GET /api/farms/:farm_id/rota": { right: "see", make: () => farmPath("rota") },
  "PUT /api/farms/:farm_id/rota": {
    right: "editRota",
    make: async () => {
      const body = { time_zone: "Asia/Beirut", repeat_minutes: 5, escalate_minutes: 15, shifts: [{ client_id: owner.clientId, days: [1, 2, 3], start: "08:00", end: "20:00" }] };
      ok(await owner.put(`/api/farms/${fx.farm.farm_id}/rota`, { ...body, repeat_minutes: 10 }), "rota");
      return { url: `/api/farms/${fx.farm.farm_id}/rota`, body };
    },
  },
  "GET /api/alarms/:alarm_id/notices": { right: "see", make: async () => ({ url: `/api/alarms/${await newAlarm()}/notices` }) },
  "GET /api/farms/:farm_id/audit": { right: "readAudit", make: () => farmPath("audit") },
  "GET /api/farms/:farm_id/audit.csv": { right: "readAudit", make: () => farmPath("audit.csv") },

  "GET /api/alarms": { right: "see", make: async () => ({ url: `/api/alarms?farm_id=${fx.farm.farm_id}` }) },
  "POST /api/alarms/:alarm_id/acknowledge": { right: "acknowledgeAlarms", make: async () => ({ url: `/api/alarms/${await newAlarm()}/acknowledge`, body: {} }) },
  "POST /api/alarms/acknowledge": { right: "acknowledgeAlarms", make: async () => ({ url: "/api/alarms/acknowledge", body: { farm_id: fx.farm.farm_id } }) },
};


const PUBLIC = new Set(["POST /api/clients", "POST /api/clients/login", "POST /api/clients/logout", "GET /api/metrics", "POST /api/push/displayed"]);

beforeAll(async () => {
  server = await createTestServer();
  owner = await server.signUp();
  fx = await seedClientData(owner);
  members = {} as Record<Role, TestClient>;
  for (const r of ROLES) members[r] = await memberOf(server, owner, fx.farm.farm_id, r);
  stranger = await server.signUp();
  const barn = ok(await owner.post("/api/farms", { name: "Neighbouring barn", location: "Jbeil", client_id: owner.clientId }), "farm").farm_id;
  neighbour = await memberOf(server, owner, barn, "owner");
}, 60_000);
afterAll(async () => server?.close());

/** The weakest role first: each role's refusal is tried before anyone is let through. */
const WEAKEST_FIRST = [...ROLES].reverse();

async function send(c: TestClient, method: Method, call: Call) {
  if (method === "GET") return c.get(call.url);
  if (method === "DELETE") return c.del(call.url);
  return method === "POST" ? c.post(call.url, call.body ?? {}) : c.put(call.url, call.body ?? {});
}

describe("the role matrix", () => {
  it("has a row for every route of the signed-in scope, and none for a route that is gone", () => {
    // Parameters compared by position only: two routes of one shape share a node (":clientId|:profile_id").
    const shape = (route: string) => route.replace(/:[A-Za-z_]+(\|:[A-Za-z_]+)*/g, ":*");
    const served = new Set(routesOf(server.app.printRoutes({ commonPrefix: false })).filter((r) => /^\S+ \/(api|notifications)\//.test(r) && !PUBLIC.has(r)).map(shape));
    const rows = new Set(Object.keys(MATRIX).map(shape));
    // The table is read: the API has dozens of signed-in routes (a parse that found none would pass anything).
    expect(served.size).toBeGreaterThan(50);
    expect([...served].filter((r) => !rows.has(r)), "routes without a row in the role matrix").toEqual([]);
    expect([...rows].filter((r) => !served.has(r)), "rows of routes the server does not serve").toEqual([]);
  });

  for (const [route, row] of Object.entries(MATRIX)) {
    if (row === "own") continue;
    const [method] = route.split(" ") as [Method, string];
    for (const c of Array.isArray(row) ? row : [row]) {
      it(`${route} needs ${c.right}`, async () => {
        const call = await c.make();
        const answers: string[] = [];
        for (const r of WEAKEST_FIRST) {
          if (can(r, c.right)) continue;
          const res = await send(members[r], method, call);
          if (res.statusCode !== 403 || res.json().message !== cannotText(r, c.right)) answers.push(`${r}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
        const outsider = await send(stranger, method, call);
        if (outsider.statusCode !== (c.stranger ?? 404)) answers.push(`stranger: ${outsider.statusCode} ${outsider.body.slice(0, 120)}`);
        if (!c.accountWide) {
          const next = await send(neighbour, method, call);
          if (next.statusCode !== (c.stranger ?? 404)) answers.push(`member of another farm: ${next.statusCode} ${next.body.slice(0, 120)}`);
        }
        expect(answers).toEqual([]);
        const allowed = WEAKEST_FIRST.find((r) => can(r, c.right))!;
        const last = (await server.db.query<{ last: string | null }>("select max(audit_id)::text as last from audit_log"))[0]!.last;
        const res = await send(members[allowed], method, call);
        // Let through: whatever the handler then says about the request itself (409 for a phase that does not wait), never 403 or 404.
        expect([403, 404].includes(res.statusCode) || res.statusCode >= 500, `${allowed}: ${res.statusCode} ${res.body.slice(0, 200)}`).toBe(false);
        // A change that went through is in the farm's account's trail, by the member, with the record before and after.
        const recorded = await server.db.query<{ client_id: number; actor: string; before: object | null; after: object | null }>(
          "select client_id, actor, before, after from audit_log where audit_id > coalesce($1::bigint, 0) order by audit_id",
          [last],
        );
        // (An acknowledgement is kept on the alarm itself: who and when, with the comment.)
        if (method === "GET" || res.statusCode >= 400 || /acknowledge/.test(route)) expect(recorded).toEqual([]);
        else {
          expect(recorded).toHaveLength(1);
          expect(recorded[0]).toMatchObject({ client_id: owner.clientId, actor: members[allowed].registration.username });
          if (method !== "POST" || /actions|harvests/.test(route)) expect(recorded[0]!.before, "before").not.toBeNull();
          if (method !== "DELETE" || /harvests|invitations/.test(route)) expect(recorded[0]!.after, "after").not.toBeNull();
          // A revoked invitation stays, marked revoked.
          if (method === "DELETE" && !/harvests|invitations/.test(route)) expect(recorded[0]!.after, "after a delete").toBeNull();
          if (method === "POST" && !/actions|harvests|acknowledge/.test(route)) expect(recorded[0]!.before, "before a create").toBeNull();
        }
      });
    }
  }
});
