import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ALARM_COMMENT_MAX,
  ALARM_EVENT,
  ALARM_PAGE_MAX,
  ALARM_PATHS,
  alarm as alarmSchema,
  alarmPage,
  DEFAULT_NOTIFICATION_PREFERENCES,
  farmAcknowledgement,
  notificationPreferences,
  type Alarm,
  type AlarmKind,
  type AlarmState,
  type NotificationPreferences,
} from "../../../src/contract/alarms.ts";
import { TOPICS } from "../../../src/contract/mqtt.ts";
import { createTestSystem, nextEvent, type TestSystem } from "../../test-support/test-system.ts";
import { createTestServer, type TestClient, type TestServer } from "../../test-support/test-server.ts";

/**
 * The alarm and notification-preference API: the list with its filters and pages, the
 * acknowledgement, the preferences; every endpoint for the signed-in client only, every bad
 * parameter a 400 naming it. Alarm rows go straight into the alerts table here (the engine that
 * opens them is tested in server/alerts); the last part runs the whole server with a device and a
 * socket, for the `alarm` event of each transition.
 */

const NOW = Date.parse("2026-06-01T10:30:00Z");

let server: TestServer;
let a: TestClient;
let b: TestClient;
let farmA: number;
let farmA2: number;
let farmB: number;
let roomA: number;
let roomA2: number;
let roomB: number;
/** Events the API raised: alarms changed and preferences stored. */
const raised: { alarms: Alarm[]; preferences: number[] } = { alarms: [], preferences: [] };

async function created<T>(res: Promise<LightMyRequestResponse>): Promise<T> {
  const r = await res;
  if (r.statusCode !== 201) throw new Error(`${r.statusCode} ${r.body}`);
  return r.json() as T;
}

const farm = async (c: TestClient, name: string) => (await created<{ farm_id: number }>(c.post("/api/farms", { name, location: "Byblos", client_id: c.clientId }))).farm_id;
const mcu = async (c: TestClient, farmId: number, name: string) =>
  (await created<{ mcu_id: number }>(c.post("/api/mcus", { name, ...(await c.mcuDevice()), farm_id: farmId, status: "active" }))).mcu_id;

/** An alarm row as the engine leaves it, opened `minutesAgo` before NOW (acknowledged by "someone" a minute before NOW, or resolved a minute after it opened). */
async function addAlarm(c: TestClient, mcuId: number, kind: AlarmKind, minutesAgo: number, state: AlarmState = "open"): Promise<number> {
  const opened = new Date(NOW - minutesAgo * 60_000);
  const acknowledged = state === "acknowledged";
  const [row] = await server.db.query<{ alert_id: number }>(
    `insert into alerts (client_id, mcu_id, type, raised_at, title, body, state, resolved_at, acknowledged_at, acknowledged_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning alert_id`,
    [
      c.clientId,
      mcuId,
      kind,
      opened,
      `${kind} ${minutesAgo}`,
      "What it was.",
      state,
      state === "resolved" ? new Date(opened.getTime() + 60_000) : null,
      acknowledged ? new Date(NOW - 60_000) : null,
      acknowledged ? "someone" : null,
    ],
  );
  return row!.alert_id;
}

const qs = (query: Record<string, string>) => `?${new URLSearchParams(query)}`;

function ok(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
  return res.json();
}

/** A 400 with a message, as the app shows it. */
function refused(res: LightMyRequestResponse, message: string | RegExp, status = 400) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { code: string; message: string };
  if (typeof message === "string") expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
  return body;
}

async function list(c: TestClient, query: Record<string, string> = {}) {
  return alarmPage.assert(ok(await c.get(`${ALARM_PATHS.alarms}${Object.keys(query).length ? qs(query) : ""}`)));
}
const titles = (page: { alarms: Alarm[] }) => page.alarms.map((x) => x.title);

beforeAll(async () => {
  server = await createTestServer({
    startAt: NOW,
    events: { alarmChanged: (_c: number, alarm: Alarm) => raised.alarms.push(alarm), preferencesChanged: (clientId: number) => raised.preferences.push(clientId) },
  });
  a = await server.signUp();
  b = await server.signUp();
  farmA = await farm(a, "Oyster House");
  farmA2 = await farm(a, "Shiitake Barn");
  farmB = await farm(b, "B's cellar");
  roomA = await mcu(a, farmA, "Room A");
  roomA2 = await mcu(a, farmA2, "Barn 1");
  roomB = await mcu(b, farmB, "B's room");
  // Client A: newest first by opening, two opened in the same instant.
  await addAlarm(a, roomA, "humidity_low", 5);
  await addAlarm(a, roomA, "co2_high", 10, "acknowledged");
  await addAlarm(a, roomA2, "mcu_offline", 20);
  await addAlarm(a, roomA2, "battery_low", 20);
  await addAlarm(a, roomA, "humidity_low", 60, "resolved");
  await addAlarm(a, roomA2, "mcu_offline", 90, "resolved");
  await addAlarm(b, roomB, "co2_high", 1);
});
afterAll(() => server?.close());

describe("GET /api/alarms", () => {
  it("lists the client's active alarms by default, newest opened first, joined with MCU and farm", async () => {
    const page = await list(a);
    expect(titles(page)).toEqual(["humidity_low 5", "co2_high 10", "battery_low 20", "mcu_offline 20"]);
    expect(page.next).toBeNull();
    expect(page.alarms[0]).toMatchObject({ kind: "humidity_low", state: "open", mcu_id: roomA, mcu_name: "Room A", farm_id: farmA, farm_name: "Oyster House", opened_at: "2026-06-01T10:25:00.000Z", resolved_at: null });
    expect(page.alarms[1]).toMatchObject({ state: "acknowledged", acknowledged_by: "someone", acknowledged_at: "2026-06-01T10:29:00.000Z" });
  });

  it("carries each alarm's words, for the app to say in its reader's language, and none for an alarm stored without them", async () => {
    const words = {
      title: { key: "alarms.humidityLow.title", values: { name: "Room A" } },
      body: { key: "alarms.humidityLow.body", values: { value: { num: 78.4, decimals: 1 }, limit: 85 } },
    };
    const [said] = await server.db.query<{ alert_id: number }>("update alerts set words = $1 where client_id = $2 and title = 'humidity_low 60' returning alert_id", [
      JSON.stringify(words),
      a.clientId,
    ]);
    const all = (await list(a, { state: "all" })).alarms;
    expect(all.find((x) => x.alarm_id === said!.alert_id)!.words).toEqual(words);
    expect(all.filter((x) => x.alarm_id !== said!.alert_id && "words" in x)).toEqual([]);
  });

  it("filters by state, farm, MCU and kind, together", async () => {
    expect(titles(await list(a, { state: "resolved" }))).toEqual(["humidity_low 60", "mcu_offline 90"]);
    expect(titles(await list(a, { state: "all" }))).toHaveLength(6);
    expect(titles(await list(a, { state: "all", farm_id: String(farmA2) }))).toEqual(["battery_low 20", "mcu_offline 20", "mcu_offline 90"]);
    expect(titles(await list(a, { mcu_id: String(roomA) }))).toEqual(["humidity_low 5", "co2_high 10"]);
    expect(titles(await list(a, { state: "all", kind: "mcu_offline" }))).toEqual(["mcu_offline 20", "mcu_offline 90"]);
    expect(titles(await list(a, { state: "resolved", farm_id: String(farmA), kind: "humidity_low" }))).toEqual(["humidity_low 60"]);
    expect(titles(await list(a, { farm_id: String(farmA2), mcu_id: String(roomA) }))).toEqual([]);
  });

  it("pages with an opaque cursor, neither skipping nor repeating alarms opened in the same instant", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(a, { state: "all", limit: "1", ...(cursor ? { cursor } : {}) });
      seen.push(...titles(page));
      cursor = page.next;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(seen).toEqual(titles(await list(a, { state: "all" })));
    expect(pages).toBe(6);
    const two = await list(a, { limit: "2" });
    expect(titles(two)).toEqual(["humidity_low 5", "co2_high 10"]);
    expect(titles(await list(a, { cursor: two.next! }))).toEqual(["battery_low 20", "mcu_offline 20"]);
  });

  it("shows a client only its own alarms, and answers 404 for another client's farm or MCU as a filter", async () => {
    expect(titles(await list(b, { state: "all" }))).toEqual(["co2_high 1"]);
    refused(await a.get(`${ALARM_PATHS.alarms}?farm_id=${farmB}`), "Farm not found", 404);
    refused(await a.get(`${ALARM_PATHS.alarms}?mcu_id=${roomB}`), "MCU not found", 404);
    refused(await a.get(`${ALARM_PATHS.alarms}?mcu_id=2147483647`), "MCU not found", 404);
  });

  it.each([
    ["state=open", "state must be active, resolved or all"],
    ["state=", "state must be active, resolved or all"],
    ["farm_id=0", "farm_id must be a positive whole number"],
    ["farm_id=abc", "farm_id must be a positive whole number"],
    ["mcu_id=-1", "mcu_id must be a positive whole number"],
    ["mcu_id=99999999999", "mcu_id must be a positive whole number"],
    ["kind=mcu_online", /^kind must be one of mcu_offline, battery_low, .* or sensor_stuck$/],
    ["limit=0", `limit must be a whole number from 1 to ${ALARM_PAGE_MAX}`],
    [`limit=${ALARM_PAGE_MAX + 1}`, `limit must be a whole number from 1 to ${ALARM_PAGE_MAX}`],
    ["limit=2.5", `limit must be a whole number from 1 to ${ALARM_PAGE_MAX}`],
    ["cursor=not%20a%20cursor", "cursor must be the next of a previous page"],
    [`cursor=${Buffer.from("[1,2,3]").toString("base64url")}`, "cursor must be the next of a previous page"],
    [`cursor=${Buffer.from('["12", -4]').toString("base64url")}`, "cursor must be the next of a previous page"],
    ["cursor=abc", "cursor must be the next of a previous page"],
    [`cursor=${Buffer.from('["12", "x"]').toString("base64url")}`, "cursor must be the next of a previous page"],
    ["sort=opened_at", "Unknown query parameter: sort"],
    ["state=all&state=active", "state must be given once"],
  ] as const)("refuses %s with a 400 naming the parameter", async (query, message) => {
    const body = refused(await a.get(`${ALARM_PATHS.alarms}?${query}`), message);
    expect(body.code).toBe("VALIDATION");
  });

  it("answers 401 without a session", async () => {
    expect((await server.app.inject({ method: "GET", url: ALARM_PATHS.alarms })).statusCode).toBe(401);
  });
});

describe("POST /api/alarms/:id/acknowledge", () => {
  const ack = (c: TestClient, id: number | string, body: unknown = {}) => c.post(typeof id === "number" ? ALARM_PATHS.acknowledge(id) : `/api/alarms/${id}/acknowledge`, body);

  it("records who, when and the comment (trimmed), answers the whole alarm and tells the client's sockets", async () => {
    const id = await addAlarm(a, roomA, "soil_moisture_low", 3);
    raised.alarms.length = 0;
    const answer = alarmSchema.assert(ok(await ack(a, id, { comment: "  Watering by hand  " })));
    expect(answer).toMatchObject({
      alarm_id: id,
      kind: "soil_moisture_low",
      state: "acknowledged",
      acknowledged_at: new Date(NOW).toISOString(),
      acknowledged_by: a.registration.username,
      ack_comment: "Watering by hand",
      resolved_at: null,
      mcu_name: "Room A",
      farm_name: "Oyster House",
    });
    expect(raised.alarms).toEqual([answer]);
    // Still active: listed until it resolves.
    expect((await list(a)).alarms.find((x) => x.alarm_id === id)).toEqual(answer);
  });

  it("answers an acknowledged alarm as it is when acknowledged again, without an event", async () => {
    const id = await addAlarm(a, roomA, "temperature_off_target", 4);
    const first = ok(await ack(a, id, { comment: "Seen" }));
    raised.alarms.length = 0;
    server.clock.advance(60_000);
    const again = ok(await ack(a, id, { comment: "Another comment" }));
    expect(again).toEqual(first);
    expect(raised.alarms).toEqual([]);
  });

  it("takes no comment, or an empty one, as none", async () => {
    const [x, y, z] = [await addAlarm(a, roomA2, "humidity_low", 6), await addAlarm(a, roomA2, "co2_high", 6), await addAlarm(a, roomA2, "temperature_off_target", 6)];
    expect(ok(await ack(a, x)).ack_comment).toBeNull();
    expect(ok(await ack(a, y, { comment: "   " })).ack_comment).toBeNull();
    expect(ok(await ack(a, z, { comment: null })).ack_comment).toBeNull();
  });

  it("refuses a resolved alarm with 409 alarm_resolved and leaves it unchanged", async () => {
    const id = await addAlarm(a, roomA, "battery_low", 200, "resolved");
    const body = refused(await ack(a, id), /resolved/, 409);
    expect(body.code).toBe("alarm_resolved");
    const stored = (await list(a, { state: "resolved" })).alarms.find((x) => x.alarm_id === id)!;
    expect(stored).toMatchObject({ state: "resolved", acknowledged_at: null, acknowledged_by: null });
  });

  it("answers 404 for another client's alarm and for none, changing nothing", async () => {
    const theirs = await addAlarm(b, roomB, "humidity_low", 2);
    refused(await ack(a, theirs, { comment: "not mine" }), "Alarm not found", 404);
    refused(await ack(a, 2_000_000_000), "Alarm not found", 404);
    expect((await list(b)).alarms.find((x) => x.alarm_id === theirs)).toMatchObject({ state: "open", acknowledged_by: null, ack_comment: null });
  });

  it("refuses a bad id or body with a 400 saying what is wrong", async () => {
    const id = await addAlarm(a, await mcu(a, farmA, "Room C"), "humidity_low", 7);
    refused(await ack(a, "abc"), "Alarm id must be a positive whole number");
    refused(await ack(a, "0"), "Alarm id must be a positive whole number");
    refused(await ack(a, id, { comment: "x".repeat(ALARM_COMMENT_MAX + 1) }), `comment must be at most ${ALARM_COMMENT_MAX} characters`);
    refused(await ack(a, id, { comment: 5 }), /^comment must be/);
    refused(await ack(a, id, { comment: "ok", by: "someone else" }), "Unknown field: by");
    refused(await ack(a, id, []), "The request body must be a JSON object");
    const notJson = await server.app.inject({ method: "POST", url: ALARM_PATHS.acknowledge(id), headers: { cookie: a.cookie, "content-type": "application/json" }, payload: "{comment:" });
    refused(notJson, "The request body is not valid JSON");
    // Nothing of it was taken.
    expect((await list(a)).alarms.find((x) => x.alarm_id === id)).toMatchObject({ state: "open" });
    // The longest comment allowed is taken whole.
    expect(ok(await ack(a, id, { comment: "y".repeat(ALARM_COMMENT_MAX) })).ack_comment).toHaveLength(ALARM_COMMENT_MAX);
  });

  it("answers 401 without a session", async () => {
    const id = await addAlarm(a, await mcu(a, farmA, "Room D"), "co2_high", 8);
    const res = await server.app.inject({ method: "POST", url: ALARM_PATHS.acknowledge(id), headers: { "content-type": "application/json" }, payload: "{}" });
    expect(res.statusCode).toBe(401);
  });
});

describe("POST /api/alarms/acknowledge (a farm's alarms at once)", () => {
  const ackFarm = (c: TestClient, body: unknown) => c.post(ALARM_PATHS.acknowledgeFarm, body);

  it("acknowledges every open alarm of the farm with the comment, leaves the rest as they are and tells the client's sockets", async () => {
    const tunnels = await farm(a, "Tunnels");
    const [t1, t2] = [await mcu(a, tunnels, "Tunnel 1"), await mcu(a, tunnels, "Tunnel 2")];
    // An open door: three alarms of one MCU within a minute, and one of another MCU of the farm.
    const door = [await addAlarm(a, t1, "temperature_off_target", 3), await addAlarm(a, t1, "humidity_low", 3), await addAlarm(a, t1, "co2_high", 2), await addAlarm(a, t2, "co2_high", 1)];
    const seenBefore = await addAlarm(a, t2, "humidity_low", 9, "acknowledged");
    const resolved = await addAlarm(a, t2, "battery_low", 30, "resolved");
    const elsewhere = await addAlarm(a, roomA2, "soil_moisture_low", 2);
    raised.alarms.length = 0;

    const answer = farmAcknowledgement.assert(ok(await ackFarm(a, { farm_id: tunnels, comment: "  Door closed  " })));
    expect(answer.acknowledged.map((x) => x.alarm_id).sort()).toEqual([...door].sort());
    for (const x of answer.acknowledged) {
      expect(x).toMatchObject({ state: "acknowledged", acknowledged_by: a.registration.username, acknowledged_at: new Date(server.clock.now).toISOString(), ack_comment: "Door closed", farm_id: tunnels });
    }
    expect(raised.alarms).toEqual(answer.acknowledged);

    const all = (await list(a, { state: "all", farm_id: String(tunnels) })).alarms;
    expect(all.find((x) => x.alarm_id === seenBefore)).toMatchObject({ state: "acknowledged", acknowledged_by: "someone", ack_comment: null });
    expect(all.find((x) => x.alarm_id === resolved)).toMatchObject({ state: "resolved", acknowledged_at: null });
    expect((await list(a, { mcu_id: String(roomA2) })).alarms.find((x) => x.alarm_id === elsewhere)).toMatchObject({ state: "open" });

    // Nothing open any more: nothing to acknowledge, no event.
    raised.alarms.length = 0;
    expect(ok(await ackFarm(a, { farm_id: tunnels }))).toEqual({ acknowledged: [] });
    expect(raised.alarms).toEqual([]);
  });

  it("answers 404 for another client's farm and for none, changing nothing", async () => {
    const theirs = await addAlarm(b, roomB, "soil_moisture_low", 2);
    refused(await ackFarm(a, { farm_id: farmB, comment: "not mine" }), "Farm not found", 404);
    refused(await ackFarm(a, { farm_id: 2_000_000_000 }), "Farm not found", 404);
    expect((await list(b)).alarms.find((x) => x.alarm_id === theirs)).toMatchObject({ state: "open", acknowledged_by: null });
  });

  it("refuses a bad body with a 400 saying what is wrong", async () => {
    refused(await ackFarm(a, {}), "farm_id is required");
    refused(await ackFarm(a, { farm_id: "abc" }), "farm_id must be a positive whole number");
    refused(await ackFarm(a, { farm_id: farmA, comment: "x".repeat(ALARM_COMMENT_MAX + 1) }), `comment must be at most ${ALARM_COMMENT_MAX} characters`);
    refused(await ackFarm(a, { farm_id: farmA, client_id: b.clientId }), "Unknown field: client_id");
  });

  it("answers 401 without a session", async () => {
    const res = await server.app.inject({ method: "POST", url: ALARM_PATHS.acknowledgeFarm, headers: { "content-type": "application/json" }, payload: JSON.stringify({ farm_id: farmA }) });
    expect(res.statusCode).toBe(401);
  });
});

describe("notification preferences", () => {
  const whole = (over: Partial<NotificationPreferences> = {}): NotificationPreferences => ({ ...structuredClone(DEFAULT_NOTIFICATION_PREFERENCES), ...over });

  it("answers the defaults until the client stores some, then what it stored, and tells this node's cache", async () => {
    const c = await server.signUp();
    expect(notificationPreferences.assert(ok(await c.get(ALARM_PATHS.preferences)))).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
    const mine = whole({
      in_app: { device_status: false, environmental: true, battery: false },
      push: { emergency: false },
      quiet_hours: { enabled: true, start: "21:30", end: "07:15", time_zone: "asia/beirut" },
    });
    raised.preferences.length = 0;
    const stored = ok(await c.put(ALARM_PATHS.preferences, mine));
    const expected = { ...mine, quiet_hours: { ...mine.quiet_hours, time_zone: "Asia/Beirut" } };
    expect(stored).toEqual(expected);
    expect(raised.preferences).toEqual([c.clientId]);
    expect(ok(await c.get(ALARM_PATHS.preferences))).toEqual(expected);
    // Stored again whole.
    expect(ok(await c.put(ALARM_PATHS.preferences, whole()))).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
    // Each client has its own.
    await c.put(ALARM_PATHS.preferences, mine);
    expect(ok(await b.get(ALARM_PATHS.preferences))).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
  });

  it.each<[string, (p: Record<string, any>) => void, string]>([
    ["a section missing", (p) => delete p.push, "push is required"],
    ["a switch missing", (p) => delete p.in_app.battery, "in_app.battery is required"],
    ["a switch that is not a boolean", (p) => (p.push.emergency = "yes"), 'push.emergency must be boolean (was "yes")'],
    ["an unknown field", (p) => (p.email = { alerts: true }), "Unknown field: email"],
    ["an unknown field in a section", (p) => (p.in_app.sms = true), "Unknown field: in_app.sms"],
    ["a start that is not HH:MM", (p) => (p.quiet_hours.start = "7:00"), "quiet_hours.start must be a time of day as HH:MM (24 h), like 22:00"],
    ["an end past the day", (p) => (p.quiet_hours.end = "24:00"), "quiet_hours.end must be a time of day as HH:MM (24 h), like 22:00"],
    ["an unknown time zone", (p) => (p.quiet_hours.time_zone = "Mars/Olympus_Mons"), "quiet_hours.time_zone must be an IANA time zone, like Asia/Beirut or UTC"],
    ["an offset for a time zone", (p) => (p.quiet_hours.time_zone = "+03:00"), "quiet_hours.time_zone must be an IANA time zone, like Asia/Beirut or UTC"],
    ["an empty time zone", (p) => (p.quiet_hours.time_zone = ""), "quiet_hours.time_zone must be an IANA time zone, like Asia/Beirut or UTC"],
  ])("refuses %s with a 400 naming it, storing nothing", async (_name, spoil, message) => {
    const c = await server.signUp();
    const body = whole({ push: { emergency: false } }) as Record<string, any>;
    spoil(body);
    refused(await c.put(ALARM_PATHS.preferences, body), message);
    expect(ok(await c.get(ALARM_PATHS.preferences))).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
  });

  it("answers 401 without a session", async () => {
    expect((await server.app.inject({ method: "GET", url: ALARM_PATHS.preferences })).statusCode).toBe(401);
    const put = await server.app.inject({ method: "PUT", url: ALARM_PATHS.preferences, headers: { "content-type": "application/json" }, payload: JSON.stringify(whole()) });
    expect(put.statusCode).toBe(401);
  });
});

describe("the alarm socket event, from a device's readings to the owner's sockets", () => {
  let t: TestSystem;
  beforeAll(async () => {
    t = await createTestSystem({ alerts: { graceMs: 200, holdMs: 400, repeatMs: 60_000 } });
  });
  afterAll(() => t?.close());

  it("carries the whole alarm as it opens, is acknowledged and resolves, to the owner only", async () => {
    const owner = await t.signUp();
    const stranger = await t.signUp();
    const dev = await owner.device();
    const { socket } = await owner.socket();
    const { socket: theirs } = await stranger.socket();
    const strangerHeard: unknown[] = [];
    theirs.on(ALARM_EVENT, (x: unknown) => strangerHeard.push(x));
    const raw = await t.rawMqtt(dev.mac, dev.key);
    const report = (batteryLevel: number) => raw.publishAsync(TOPICS.telemetry(dev.mac), JSON.stringify({ DHT: { temperature: 19, humidity: 88, count: 1 }, batteryLevel }));

    const opened = nextEvent<Alarm>(socket, ALARM_EVENT, (x) => x.mcu_id === dev.mcuId && x.state === "open");
    await report(12);
    const open = alarmSchema.assert(await opened);
    expect(open).toMatchObject({ kind: "battery_low", mac: dev.mac, farm_id: owner.farmId, farm_name: "Test farm", title: `MCU ${dev.mac.slice(-5)}: battery low` });
    // Its words too: the app says them in each reader's language.
    expect(open.words).toEqual({ title: { key: "alarms.batteryLow.title", values: { name: `MCU ${dev.mac.slice(-5)}` } }, body: { key: "alarms.batteryLow.body", values: { level: 12 } } });

    const acknowledged = nextEvent<Alarm>(socket, ALARM_EVENT, (x) => x.alarm_id === open.alarm_id && x.state === "acknowledged");
    const answer = await owner.http.post(ALARM_PATHS.acknowledge(open.alarm_id), { comment: "On it" });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await acknowledged).toEqual(answer.json());

    const resolved = nextEvent<Alarm>(socket, ALARM_EVENT, (x) => x.alarm_id === open.alarm_id && x.state === "resolved", 10_000);
    // Above 35 % for longer than the 400 ms hold: resolved, still with its acknowledgement.
    for (let i = 0; i < 8; i++) {
      await report(80);
      await new Promise((r) => setTimeout(r, 100));
    }
    const done = alarmSchema.assert(await resolved);
    expect(done).toMatchObject({ ack_comment: "On it", resolved_at: expect.any(String), words: open.words });
    expect(Date.parse(done.resolved_at!)).toBeGreaterThan(Date.parse(done.opened_at));
    expect(strangerHeard).toEqual([]);
  }, 30_000);
});
