import { CLAIM_REFUSED } from "../../src/contract/claim-code.ts";
import { randomBytes } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationsRepo } from "../db/notifications-repo.ts";
import { createTestServer, sampleConfig, seedClientData, uniqueMac, type McuDevice, type TestClient, type TestServer } from "../test-support/test-server.ts";

/**
 * Two-client isolation matrix (SPEC §6: a client reaches only their own data).
 *
 * Client A owns a farm, an MCU, a controller, a sensor, a profile linked to the MCU and two
 * notifications, all with names nobody else uses. Client B owns a set of its own and tries
 * every read, update and delete on A's things: by client_id in the path, query or body (403)
 * and by id (404, never a 200 or a 403 that would confirm the id exists). MACs A has
 * registered are refused to B with 409. At the end A's (and B's) data must be exactly as
 * before, and no response of the whole run may carry a password hash, a device key hash or a
 * password.
 */

type Method = "GET" | "POST" | "PUT" | "DELETE";
interface Req {
  method: Method;
  url: string;
  body?: unknown;
}

interface Recorded {
  who: string;
  method: Method;
  url: string;
  res: LightMyRequestResponse;
}

const tok = randomBytes(4).toString("hex");
const A_PASSWORD = `A-own-password-${tok}`;
const ATTACKER_PASSWORD = `hacked-by-B-${tok}`;

const A_NAMES = {
  farm: `A-farm-${tok}`,
  location: `A-location-${tok}`,
  mcu: `A-mcu-${tok}`,
  controller: `A-controller-${tok}`,
  sensor: `A-sensor-${tok}`,
  profile: `A-profile-${tok}`,
  mobile: "+961 70 424 242",
  address: `A-address-${tok}`,
  noteTitle: `A-note-title-${tok}`,
  noteBody: `A-note-body-${tok}`,
};

let server: TestServer;
const recorded: Recorded[] = [];

/** The client's request helpers, recording every response for the final leak check. */
function recording(c: TestClient, who: string): TestClient {
  const rec = async (method: Method, url: string, p: Promise<LightMyRequestResponse>) => {
    const res = await p;
    recorded.push({ who, method, url, res });
    return res;
  };
  return {
    ...c,
    get: (url) => rec("GET", url, c.get(url)),
    post: (url, body) => rec("POST", url, c.post(url, body)),
    put: (url, body) => rec("PUT", url, c.put(url, body)),
    del: (url) => rec("DELETE", url, c.del(url)),
  };
}

function send(c: TestClient, r: Req): Promise<LightMyRequestResponse> {
  switch (r.method) {
    case "GET":
      return c.get(r.url);
    case "POST":
      return c.post(r.url, r.body);
    case "PUT":
      return c.put(r.url, r.body);
    case "DELETE":
      return c.del(r.url);
  }
}

async function ok(res: LightMyRequestResponse, what: string, status = 200) {
  if (res.statusCode !== status) throw new Error(`${what}: expected ${status}, got ${res.statusCode} ${res.body}`);
  return res.json();
}

interface Owned {
  c: TestClient;
  farm: { farm_id: number };
  mcu: { mcu_id: number; mac: string };
  controller: { unit_id: number; mac: string };
  sensor: { sensor_id: number; mac: string };
  profile: { profile_id: number };
  link?: { id: number };
}

let A: Required<Owned>;
let B: Owned;

/** Every string of A's that must never reach B. */
let aSecrets: string[];
let aClaimCode: string;

const lower = (mac: string) => mac.toLowerCase().replace(/:/g, "-");

/** A's secrets that the request itself does not carry (B may see its own input echoed). */
function secretsNotIn(r: Req): string[] {
  const sentRaw = `${decodeURIComponent(r.url)} ${JSON.stringify(r.body ?? null)}`;
  const sent = sentRaw.toUpperCase().replace(/-/g, ":");
  return aSecrets.filter((s) => !sentRaw.includes(s) && !sent.includes(s.toUpperCase().replace(/-/g, ":")));
}

/** Everything A can list about itself, as answered by the API. */
async function snapshot(o: Owned) {
  const id = o.c.clientId;
  return {
    mcus: await ok(await o.c.get(`/api/mcus/by-client/${id}`), "mcus"),
    farms: await ok(await o.c.get(`/api/farms/myfarms/get?client_id=${id}`), "farms"),
    profiles: await ok(await o.c.get(`/api/setting-profiles/${id}`), "profiles"),
    controllers: await ok(await o.c.get("/api/controllers"), "controllers"),
    sensors: await ok(await o.c.get("/api/sensors"), "sensors"),
    notifications: await ok(await o.c.get(`/notifications/${id}`), "notifications"),
    me: await ok(await o.c.get("/api/clients/me"), "me"),
  };
}
let aBefore: Awaited<ReturnType<typeof snapshot>>;
let bBefore: Awaited<ReturnType<typeof snapshot>>;

const mcuBody = (name: string, device: string | McuDevice, farm_id: number) => ({ name, ...(typeof device === "string" ? { mac: device } : device), farm_id });
const controllerBody = (name: string, mac: string, mcu_id: number) => ({ name, mac, type: "Humidifier", mcu_id });
const sensorBody = (name: string, mac: string, mcu_id: number) => ({ name, mac, type: "CO2", mcu_id });
const profileBody = (name: string, client_id: number) => ({ name, client_id, config: sampleConfig });

beforeAll(async () => {
  server = await createTestServer();

  // Client A: its own password, mobile and address, and seeded data renamed to unique names.
  const a = recording(
    await server.signUp({ password: A_PASSWORD, confirmPassword: A_PASSWORD, mobile: A_NAMES.mobile, address: A_NAMES.address }),
    "A",
  );
  const seeded = await seedClientData(a);
  aClaimCode = seeded.mcuClaimCode;
  const aId = a.clientId;
  const farm = await ok(await a.put(`/api/farms/${seeded.farm.farm_id}`, { name: A_NAMES.farm, location: A_NAMES.location }), "rename farm");
  const mcu = await ok(await a.put(`/api/mcus/${seeded.mcu.mcu_id}`, mcuBody(A_NAMES.mcu, seeded.mcu.mac, farm.farm_id)), "rename mcu");
  const controller = await ok(
    await a.put(`/api/controllers/${seeded.controller.unit_id}`, controllerBody(A_NAMES.controller, seeded.controller.mac, mcu.mcu_id)),
    "rename controller",
  );
  const sensor = await ok(await a.put(`/api/sensors/${seeded.sensor.sensor_id}`, sensorBody(A_NAMES.sensor, seeded.sensor.mac, mcu.mcu_id)), "rename sensor");
  const profile = await ok(await a.put(`/api/setting-profiles/${seeded.profile.profile_id}`, profileBody(A_NAMES.profile, aId)), "rename profile");
  const notes = notificationsRepo(server.db);
  await notes.create(aId, { type: "wash", title: A_NAMES.noteTitle, body: A_NAMES.noteBody }, new Date(server.clock.now));
  await notes.create(aId, { type: "coupon", title: `${A_NAMES.noteTitle}-2`, body: `${A_NAMES.noteBody}-2` }, new Date(server.clock.now));
  A = { c: a, farm, mcu, controller, sensor, profile, link: seeded.link };

  // Client B: a set of its own, named so that nothing of A's can be mistaken for it.
  const b = recording(await server.signUp(), "B");
  const bId = b.clientId;
  const bFarm = await ok(await b.post("/api/farms", { name: "B farm", location: "B town", client_id: bId }), "B farm", 201);
  const bMcu = await ok(await b.post("/api/mcus", { ...mcuBody("B mcu", await b.mcuDevice(), bFarm.farm_id), status: "active" }), "B mcu", 201);
  const bController = await ok(await b.post("/api/controllers", controllerBody("B controller", uniqueMac(), bMcu.mcu_id)), "B controller", 201);
  const bSensor = await ok(await b.post("/api/sensors", sensorBody("B sensor", uniqueMac(), bMcu.mcu_id)), "B sensor", 201);
  const bProfile = await ok(await b.post("/api/setting-profiles", profileBody("B profile", bId)), "B profile", 201);
  await notes.create(bId, { type: "ads", title: "B note", body: "B body" }, new Date(server.clock.now));
  B = { c: b, farm: bFarm, mcu: bMcu, controller: bController, sensor: bSensor, profile: bProfile };

  const aClient = await ok(await a.get("/api/clients/me"), "A me");
  aSecrets = [
    ...Object.values(A_NAMES),
    `${A_NAMES.noteTitle}-2`,
    aClient.username,
    aClient.email,
    A_PASSWORD,
    A.mcu.mac,
    A.controller.mac,
    A.sensor.mac,
  ];

  aBefore = await snapshot(A);
  bBefore = await snapshot(B);
  // The snapshots really hold A's data, so comparing them later proves something.
  if (aBefore.mcus.length !== 1 || aBefore.mcus[0].profile_links.length !== 1 || aBefore.notifications.length !== 2) {
    throw new Error(`unexpected seed for A: ${JSON.stringify(aBefore)}`);
  }
});

afterAll(() => server?.close());

/** B's attempt was refused with `status`, a JSON `message`, and nothing of A's in the answer. */
async function expectRefused(r: Req, status: number, code: string) {
  const res = await send(B.c, r);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  const body = res.json();
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe("string");
  expect(body.message.length).toBeGreaterThan(0);
  for (const secret of secretsNotIn(r)) expect(res.body, `answer leaks "${secret}"`).not.toContain(secret);
  return body as { code: string; message: string };
}

interface Case {
  name: string;
  /** Async where the request needs a freshly provisioned MCU MAC. */
  request: () => Req | Promise<Req>;
}

describe("client isolation: client_id of another client in a path, query or body", () => {
  const cases: Case[] = [
    { name: "refuses client B reading client A's notifications by client_id with 403", request: () => ({ method: "GET", url: `/notifications/${A.c.clientId}` }) },
    {
      name: "refuses client B marking client A's notifications read by client_id with 403",
      request: () => ({ method: "PUT", url: `/notifications/${A.c.clientId}/read`, body: { notification_ids: aNotificationIds() } }),
    },
    { name: "refuses client B reading client A's MCUs by client_id with 403", request: () => ({ method: "GET", url: `/api/mcus/by-client/${A.c.clientId}` }) },
    {
      name: "refuses client B reading client A's farms by client_id in the query with 403",
      request: () => ({ method: "GET", url: `/api/farms/myfarms/get?client_id=${A.c.clientId}` }),
    },
    {
      name: "refuses client B reading client A's setting profiles by client_id with 403",
      request: () => ({ method: "GET", url: `/api/setting-profiles/${A.c.clientId}` }),
    },
    {
      name: "refuses client B renaming client A's account with 403",
      request: () => ({ method: "PUT", url: `/api/clients/${A.c.clientId}`, body: { username: "hacker" } }),
    },
    {
      name: "refuses client B changing client A's password with 403",
      request: () => ({
        method: "PUT",
        url: `/api/clients/${A.c.clientId}`,
        body: { client_id: A.c.clientId, password: ATTACKER_PASSWORD, confirm_password: ATTACKER_PASSWORD },
      }),
    },
    {
      name: "refuses client B replacing client A's push token with 403",
      request: () => ({ method: "PUT", url: `/api/clients/${A.c.clientId}`, body: { client_id: A.c.clientId, fcm_token: "stolen-token" } }),
    },
    {
      name: "refuses client B changing client A's email through B's own path with A's client_id in the body with 403",
      request: () => ({ method: "PUT", url: `/api/clients/${B.c.clientId}`, body: { client_id: A.c.clientId, email: "hacker@example.com" } }),
    },
    {
      name: "refuses client B adding a farm to client A's account with 403",
      request: () => ({ method: "POST", url: "/api/farms", body: { name: "Planted farm", location: "Nowhere", client_id: A.c.clientId } }),
    },
    {
      name: "refuses client B adding a setting profile to client A's account with 403",
      request: () => ({ method: "POST", url: "/api/setting-profiles", body: profileBody("Planted profile", A.c.clientId) }),
    },
    {
      name: "refuses client B handing its own profile to client A (client_id A in the body) with 403",
      request: () => ({ method: "PUT", url: `/api/setting-profiles/${B.profile.profile_id}`, body: profileBody("Gift", A.c.clientId) }),
    },
  ];

  it.each(cases)("$name", async ({ request }) => {
    await expectRefused(await request(), 403, "FORBIDDEN");
  });
});

/** A's notification ids (unread when seeded; "after every attempt" checks they stay so). */
const aNotificationIds = () => (aBefore.notifications as { notification_id: number }[]).map((n) => n.notification_id);

describe("client isolation: another client's notification ids", () => {
  it("marks none of client A's notifications read when client B names their ids on its own path", async () => {
    const res = await B.c.put(`/notifications/${B.c.clientId}/read`, { notification_ids: aNotificationIds() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ updated: 0 });
  });
});

describe("client isolation: another client's ids answer 404", () => {
  const cases: Case[] = [
    // Farms
    {
      name: "answers 404 when client B renames client A's farm",
      request: () => ({ method: "PUT", url: `/api/farms/${A.farm.farm_id}`, body: { name: "Stolen farm", location: "Elsewhere" } }),
    },
    { name: "answers 404 when client B deletes client A's farm", request: () => ({ method: "DELETE", url: `/api/farms/${A.farm.farm_id}` }) },
    // MCUs
    {
      name: "answers 404 when client B moves client A's MCU to B's farm",
      // A provisioned MAC, so that only the foreign id can be the reason for the refusal.
      request: async () => ({ method: "PUT", url: `/api/mcus/${A.mcu.mcu_id}`, body: mcuBody("Stolen mcu", await B.c.mcuDevice(), B.farm.farm_id) }),
    },
    {
      name: "answers 404 when client B renames client A's MCU keeping A's farm and MAC",
      request: () => ({ method: "PUT", url: `/api/mcus/${A.mcu.mcu_id}`, body: mcuBody("Stolen mcu", A.mcu.mac, A.farm.farm_id) }),
    },
    { name: "answers 404 when client B deletes client A's MCU", request: () => ({ method: "DELETE", url: `/api/mcus/${A.mcu.mcu_id}` }) },
    {
      name: "answers 404 when client B registers an MCU on client A's farm",
      request: async () => ({ method: "POST", url: "/api/mcus", body: { ...mcuBody("Planted mcu", await B.c.mcuDevice(), A.farm.farm_id), status: "active" } }),
    },
    {
      name: "answers 404 when client B moves its own MCU to client A's farm",
      request: () => ({ method: "PUT", url: `/api/mcus/${B.mcu.mcu_id}`, body: mcuBody("B mcu", B.mcu.mac, A.farm.farm_id) }),
    },
    // Controllers
    {
      name: "answers 404 when client B re-points client A's controller to B's MCU",
      request: () => ({ method: "PUT", url: `/api/controllers/${A.controller.unit_id}`, body: controllerBody("Stolen controller", uniqueMac(), B.mcu.mcu_id) }),
    },
    {
      name: "answers 404 when client B renames client A's controller keeping A's MCU and MAC",
      request: () => ({
        method: "PUT",
        url: `/api/controllers/${A.controller.unit_id}`,
        body: controllerBody("Stolen controller", A.controller.mac, A.mcu.mcu_id),
      }),
    },
    { name: "answers 404 when client B deletes client A's controller", request: () => ({ method: "DELETE", url: `/api/controllers/${A.controller.unit_id}` }) },
    {
      name: "answers 404 when client B adds a controller to client A's MCU",
      request: () => ({ method: "POST", url: "/api/controllers", body: controllerBody("Planted controller", uniqueMac(), A.mcu.mcu_id) }),
    },
    {
      name: "answers 404 when client B attaches its own controller to client A's MCU",
      request: () => ({ method: "PUT", url: `/api/controllers/${B.controller.unit_id}`, body: controllerBody("B controller", B.controller.mac, A.mcu.mcu_id) }),
    },
    // Sensors
    {
      name: "answers 404 when client B re-points client A's sensor to B's MCU",
      request: () => ({ method: "PUT", url: `/api/sensors/${A.sensor.sensor_id}`, body: sensorBody("Stolen sensor", uniqueMac(), B.mcu.mcu_id) }),
    },
    {
      name: "answers 404 when client B renames client A's sensor keeping A's MCU and MAC",
      request: () => ({ method: "PUT", url: `/api/sensors/${A.sensor.sensor_id}`, body: sensorBody("Stolen sensor", A.sensor.mac, A.mcu.mcu_id) }),
    },
    { name: "answers 404 when client B deletes client A's sensor", request: () => ({ method: "DELETE", url: `/api/sensors/${A.sensor.sensor_id}` }) },
    {
      name: "answers 404 when client B adds a sensor to client A's MCU",
      request: () => ({ method: "POST", url: "/api/sensors", body: sensorBody("Planted sensor", uniqueMac(), A.mcu.mcu_id) }),
    },
    {
      name: "answers 404 when client B attaches its own sensor to client A's MCU",
      request: () => ({ method: "PUT", url: `/api/sensors/${B.sensor.sensor_id}`, body: sensorBody("B sensor", B.sensor.mac, A.mcu.mcu_id) }),
    },
    // Profiles and links
    {
      name: "answers 404 when client B edits client A's setting profile",
      request: () => ({ method: "PUT", url: `/api/setting-profiles/${A.profile.profile_id}`, body: profileBody("Stolen profile", B.c.clientId) }),
    },
    {
      name: "answers 404 when client B deletes client A's setting profile",
      request: () => ({ method: "DELETE", url: `/api/setting-profiles/${A.profile.profile_id}` }),
    },
    {
      name: "answers 404 when client B unlinks client A's profile from A's MCU",
      request: () => ({ method: "DELETE", url: `/api/setting-profiles/link/${A.link.id}` }),
    },
    {
      name: "answers 404 when client B links its own profile to client A's MCU",
      request: () => ({ method: "POST", url: "/api/setting-profiles/link", body: { mcu_id: A.mcu.mcu_id, profile_id: B.profile.profile_id } }),
    },
    {
      name: "answers 404 when client B links client A's profile to B's own MCU",
      request: () => ({ method: "POST", url: "/api/setting-profiles/link", body: { mcu_id: B.mcu.mcu_id, profile_id: A.profile.profile_id } }),
    },
    // Scans by MAC
    {
      name: "answers 404 when client B scans client A's controller MAC",
      request: () => ({ method: "GET", url: `/api/controllers/scan-mac/${encodeURIComponent(A.controller.mac)}` }),
    },
    {
      name: "answers 404 when client B scans client A's controller MAC written lower-case with dashes",
      request: () => ({ method: "GET", url: `/api/controllers/scan-mac/${lower(A.controller.mac)}` }),
    },
    {
      name: "answers 404 when client B scans client A's sensor MAC",
      request: () => ({ method: "GET", url: `/api/sensors/scan-mac/${encodeURIComponent(A.sensor.mac)}` }),
    },
    {
      name: "answers 404 when client B scans client A's MCU MAC as a controller",
      request: () => ({ method: "GET", url: `/api/controllers/scan-mac/${encodeURIComponent(A.mcu.mac)}` }),
    },
    {
      name: "answers 404 when client B scans client A's controller MAC as a sensor",
      request: () => ({ method: "GET", url: `/api/sensors/scan-mac/${encodeURIComponent(A.controller.mac)}` }),
    },
  ];

  it.each(cases)("$name", async ({ request }) => {
    await expectRefused(await request(), 404, "NOT_FOUND");
  });

  it("answers another client's ids exactly as ids that do not exist", async () => {
    // The same refusal for A's MCU and for an id nobody has: the answer tells B nothing.
    const foreign = await send(B.c, { method: "DELETE", url: `/api/mcus/${A.mcu.mcu_id}` });
    const missing = await send(B.c, { method: "DELETE", url: "/api/mcus/2147483000" });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
  });
});

describe("client isolation: MACs another client has registered", () => {
  type Kind = "mcus" | "controllers" | "sensors";
  interface MacCase extends Case {
    /** A's list where the device lives, and the id field / value it must keep. */
    owner: () => { list: Kind; idField: string; id: number };
    /** A controller's or sensor's MAC never changes, so taking another's is refused before any lookup. */
    identityChange?: true;
    /** An MCU claim: refused with the one answer that does not say whether, or by whom, the device is held. */
    claimRefused?: true;
  }
  const aMcu = () => ({ list: "mcus" as const, idField: "mcu_id", id: A.mcu.mcu_id });
  const aController = () => ({ list: "controllers" as const, idField: "unit_id", id: A.controller.unit_id });
  const aSensor = () => ({ list: "sensors" as const, idField: "sensor_id", id: A.sensor.sensor_id });

  const cases: MacCase[] = [
    {
      name: "refuses client B registering an MCU with client A's MCU MAC and its right claim code, with the one claim answer",
      request: () => ({ method: "POST", url: "/api/mcus", body: { ...mcuBody("Clone mcu", { mac: A.mcu.mac, claim_code: aClaimCode }, B.farm.farm_id), status: "active" } }),
      owner: aMcu,
      claimRefused: true,
    },
    {
      name: "refuses client B registering an MCU with client A's MCU MAC written lower-case with dashes, with the one claim answer",
      request: () => ({ method: "POST", url: "/api/mcus", body: { ...mcuBody("Clone mcu", { mac: lower(A.mcu.mac), claim_code: aClaimCode }, B.farm.farm_id), status: "active" } }),
      owner: aMcu,
      claimRefused: true,
    },
    {
      name: "refuses client B changing its own MCU's MAC to client A's MCU MAC, with the one claim answer",
      request: () => ({ method: "PUT", url: `/api/mcus/${B.mcu.mcu_id}`, body: mcuBody("B mcu", { mac: A.mcu.mac, claim_code: aClaimCode }, B.farm.farm_id) }),
      owner: aMcu,
      claimRefused: true,
    },
    {
      name: "refuses client B registering a controller with client A's controller MAC with 409",
      request: () => ({ method: "POST", url: "/api/controllers", body: controllerBody("Clone controller", A.controller.mac, B.mcu.mcu_id) }),
      owner: aController,
    },
    {
      name: "refuses client B changing its own controller's MAC to client A's controller MAC with 400",
      identityChange: true,
      request: () => ({
        method: "PUT",
        url: `/api/controllers/${B.controller.unit_id}`,
        body: controllerBody("B controller", A.controller.mac, B.mcu.mcu_id),
      }),
      owner: aController,
    },
    {
      name: "refuses client B registering a sensor with client A's sensor MAC with 409",
      request: () => ({ method: "POST", url: "/api/sensors", body: sensorBody("Clone sensor", A.sensor.mac, B.mcu.mcu_id) }),
      owner: aSensor,
    },
    {
      name: "refuses client B changing its own sensor's MAC to client A's sensor MAC with 400",
      identityChange: true,
      request: () => ({ method: "PUT", url: `/api/sensors/${B.sensor.sensor_id}`, body: sensorBody("B sensor", A.sensor.mac, B.mcu.mcu_id) }),
      owner: aSensor,
    },
    {
      name: "refuses client B registering a controller with client A's sensor MAC with 409",
      request: () => ({ method: "POST", url: "/api/controllers", body: controllerBody("Clone controller", A.sensor.mac, B.mcu.mcu_id) }),
      owner: aSensor,
    },
    {
      name: "refuses client B registering an MCU with client A's controller MAC, with the one claim answer",
      request: () => ({ method: "POST", url: "/api/mcus", body: { ...mcuBody("Clone mcu", { mac: A.controller.mac, claim_code: aClaimCode }, B.farm.farm_id), status: "active" } }),
      owner: aController,
      claimRefused: true,
    },
  ];

  const listUrl = (kind: Kind) => (kind === "mcus" ? `/api/mcus/by-client/${A.c.clientId}` : `/api/${kind}`);

  it.each(cases)("$name", async ({ request, owner, identityChange, claimRefused }) => {
    if (claimRefused) {
      const body = await expectRefused(await request(), 400, "VALIDATION");
      expect(body.message).toBe(CLAIM_REFUSED);
    } else if (identityChange) {
      const body = await expectRefused(await request(), 400, "VALIDATION");
      expect(body.message).toBe("The MAC address and type of a device cannot be changed. Delete it and add it again.");
    } else {
      const body = await expectRefused(await request(), 409, "CONFLICT");
      // A clear message: it names the problem, not a generic failure.
      expect(body.message).toMatch(/MAC/);
      expect(body.message).toMatch(/already (registered|in use|used)/i);
    }
    // A's device is untouched, still A's and with the same fields.
    const o = owner();
    const list = (await ok(await A.c.get(listUrl(o.list)), `A ${o.list}`)) as Record<string, unknown>[];
    const before = (aBefore[o.list] as Record<string, unknown>[]).find((d) => d[o.idField] === o.id);
    expect(before).toBeDefined();
    expect(list.find((d) => d[o.idField] === o.id)).toEqual(before);
  });
});

describe("client isolation: client B's own lists", () => {
  const ids = (rows: Record<string, unknown>[], field: string) => rows.map((r) => r[field]);
  const lists: { name: string; url: () => string; field: string; expected: () => unknown[] }[] = [
    { name: "lists only client B's own MCUs", url: () => `/api/mcus/by-client/${B.c.clientId}`, field: "mcu_id", expected: () => [B.mcu.mcu_id] },
    {
      name: "lists only client B's own farms",
      url: () => `/api/farms/myfarms/get?client_id=${B.c.clientId}`,
      field: "farm_id",
      expected: () => [B.farm.farm_id],
    },
    {
      name: "lists only client B's own setting profiles",
      url: () => `/api/setting-profiles/${B.c.clientId}`,
      field: "profile_id",
      expected: () => [B.profile.profile_id],
    },
    { name: "lists only client B's own notifications", url: () => `/notifications/${B.c.clientId}`, field: "title", expected: () => ["B note"] },
    { name: "lists only client B's own controllers", url: () => "/api/controllers", field: "unit_id", expected: () => [B.controller.unit_id] },
    { name: "lists only client B's own sensors", url: () => "/api/sensors", field: "sensor_id", expected: () => [B.sensor.sensor_id] },
  ];

  it.each(lists)("$name", async ({ url, field, expected }) => {
    const res = await B.c.get(url());
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(res.json(), field)).toEqual(expected());
    for (const secret of aSecrets) expect(res.body, `list leaks "${secret}"`).not.toContain(secret);
  });

  it("shows client B only its own account on /api/clients/me", async () => {
    const res = await B.c.get("/api/clients/me");
    expect(res.statusCode).toBe(200);
    expect(res.json().client_id).toBe(B.c.clientId);
    for (const secret of aSecrets) expect(res.body).not.toContain(secret);
  });

  it("does not show client A's profile link on client B's MCU", async () => {
    const mcus = (await B.c.get(`/api/mcus/by-client/${B.c.clientId}`)).json();
    expect(mcus[0].profile_links).toEqual([]);
    expect(mcus[0].controllers.map((c: { unit_id: number }) => c.unit_id)).toEqual([B.controller.unit_id]);
    expect(mcus[0].sensors.map((s: { sensor_id: number }) => s.sensor_id)).toEqual([B.sensor.sensor_id]);
  });
});

describe("client isolation: after every attempt", () => {
  it("leaves client A's MCUs, farms, profiles, devices, notifications and account unchanged", async () => {
    const after = await snapshot(A);
    expect(after.mcus).toEqual(aBefore.mcus);
    expect(after.farms).toEqual(aBefore.farms);
    expect(after.profiles).toEqual(aBefore.profiles);
    expect(after.controllers).toEqual(aBefore.controllers);
    expect(after.sensors).toEqual(aBefore.sensors);
    expect(after.notifications).toEqual(aBefore.notifications);
    expect(after.me).toEqual(aBefore.me);
  });

  it("leaves client B's own data unchanged by its refused attempts", async () => {
    expect(await snapshot(B)).toEqual(bBefore);
  });

  it("still signs client A in with A's own password and not with the attacker's", async () => {
    const username = aBefore.me.username as string;
    const good = await server.app.inject({ method: "POST", url: "/api/clients/login", payload: { username, password: A_PASSWORD } });
    recorded.push({ who: "A", method: "POST", url: "/api/clients/login", res: good });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().client.client_id).toBe(A.c.clientId);
    const bad = await server.app.inject({ method: "POST", url: "/api/clients/login", payload: { username, password: ATTACKER_PASSWORD } });
    recorded.push({ who: "B", method: "POST", url: "/api/clients/login", res: bad });
    expect(bad.statusCode).toBe(401);
  });

  it("keeps client A's existing session signed in", async () => {
    const res = await A.c.get("/api/clients/me");
    expect(res.statusCode).toBe(200);
    expect(res.json().client_id).toBe(A.c.clientId);
  });

  it("never answers with a password hash, a device key hash or a password", () => {
    // Every request of this file went through the recorders: seeding, attacks, lists, snapshots.
    expect(recorded.length).toBeGreaterThan(80);
    expect(recorded.some((r) => r.who === "B" && r.res.statusCode === 403)).toBe(true);
    for (const { who, method, url, res } of recorded) {
      const text = `${JSON.stringify(res.headers)}\n${res.body}`;
      const where = `${who} ${method} ${url} -> ${res.statusCode}`;
      expect(text, where).not.toContain("password_hash");
      expect(text, where).not.toContain("passwordHash");
      expect(text, where).not.toContain("key_hash");
      expect(text, where).not.toContain(A_PASSWORD);
      expect(text, where).not.toContain(ATTACKER_PASSWORD);
    }
  });
});
