import { describe, expect, it, vi } from "vitest";
import { CoreError } from "../contract/core-error.ts";
import { VirtualAction, VirtualTimeScheduler } from "rxjs";
import type { Alarm } from "../contract/alarms-values.ts";
import { alarmRecord } from "../test-support/alarms.ts";
import type { Notification } from "../contract/entities.ts";
import { mcuQueryKey, type FleetResults, type SnapshotBatch } from "../contract/live.ts";
import { SOCKET_EVENTS } from "../contract/realtime.ts";
import { ALARM_EVENT } from "../contract/alarms-values.ts";
import { connectingTo, fakeSocket } from "../test-support/fake-socket.ts";
import { createDataCore, type CoreDeps, type DataCoreUpdate } from "./core.ts";
import { farmRecord, macOf, mcuRecord } from "../test-support/records.ts";
import { SessionEndedError, type SessionEnded } from "../contract/session-ended.ts";

type Answer = { status: number; body?: unknown };
const json = ({ status, body }: Answer) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const ENDED = { code: "UNAUTHENTICATED", message: "Your session has ended. Please sign in again." };
const note = (id: number, read = false): Notification => ({ notification_id: id, type: "wash", title: `Note ${id}`, body: "", read_status: read, createdAt: "2026-11-23T10:00:00.000Z" });

/**
 * A started core (client 7) whose fetch answers by "METHOD path" from `routes` (a function of the
 * request's body when it needs one), and a fake socket; everything it reports is recorded.
 */
function createDeps(routes: Record<string, Answer | ((body: unknown) => Answer)> = {}, deps: Omit<CoreDeps, "fetch" | "connect"> = {}) {
  const requests: { key: string; body: unknown }[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? "GET"} ${String(input)}`;
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    requests.push({ key, body });
    // A list asked for with ?limit= answers its head and the total, as the server does.
    const exact = routes[key];
    const [path, query] = exact ? [key, undefined] : key.split("?");
    const route = exact ?? routes[path!];
    if (!route) return json({ status: 404, body: { code: "NOT_FOUND", message: `No route ${key}` } });
    const answer = typeof route === "function" ? route(body) : route;
    const limit = Number(new URLSearchParams(query ?? "").get("limit"));
    if (query && Array.isArray(answer.body) && answer.status === 200) {
      const res = json({ status: 200, body: answer.body.slice(0, limit) });
      res.headers.set("x-total-count", String(answer.body.length));
      return res;
    }
    return json(answer);
  }) as typeof globalThis.fetch;
  const socket = fakeSocket();
  const core = createDataCore({ ...deps, fetch, connect: connectingTo(socket) });
  const ended: SessionEnded[] = [];
  const updates: DataCoreUpdate[] = [];
  core.subscribe((u) => updates.push(u));
  core.onSessionEnded((e) => ended.push(e));
  core.start(7);
  return { core, socket, ended, updates, requests };
}

describe("the data core reports an ended session once", () => {
  it("reports one session end when three loads answer 401 UNAUTHENTICATED, and stops", async () => {
    const { core, socket, ended } = createDeps({
      "GET /api/farms/myfarms/get?client_id=7": { status: 401, body: ENDED },
      "GET /api/mcus/by-client/7": { status: 401, body: ENDED },
      "GET /api/setting-profiles/7": { status: 401, body: ENDED },
    });
    const results = await Promise.allSettled([core.loadFarms(), core.loadMcus(), core.loadProfiles()]);

    expect(ended).toEqual([{ clientId: 7, cause: "api" }]);
    for (const r of results) expect(r.status === "rejected" && r.reason).toBeInstanceOf(SessionEndedError);
    expect(socket.closed).toBe(true);
    // A screen that loads after the end learns the same, without a second report.
    await expect(core.loadFarms()).rejects.toBeInstanceOf(SessionEndedError);
    expect(ended).toHaveLength(1);
  });

  it("takes a bare 401 (no error body, e.g. from a proxy) for an ended session", async () => {
    const { core, ended } = createDeps({ "GET /api/sensors": { status: 401 } });
    await expect(core.loadSensors()).rejects.toBeInstanceOf(SessionEndedError);
    expect(ended).toEqual([{ clientId: 7, cause: "api" }]);
  });

  it("does not take refused credentials at login for an ended session", async () => {
    const { core, ended } = createDeps({
      "POST /api/clients/login": { status: 401, body: { code: "INVALID_CREDENTIALS", message: "Wrong username or password" } },
    });
    const failure = await core.login("demo", "not-the-password").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CoreError);
    expect(failure).not.toBeInstanceOf(SessionEndedError);
    expect((failure as CoreError).code).toBe("INVALID_CREDENTIALS");
    expect(ended).toEqual([]);
  });

  it("does not report a 401 while no client is started (signed out, or asking whether one is)", async () => {
    const { core, ended } = createDeps({ "GET /api/clients/me": { status: 401, body: ENDED }, "GET /api/sensors": { status: 401, body: ENDED } });
    core.stop();
    await expect(core.me()).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    const failure = await core.loadSensors().catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "UNAUTHENTICATED" });
    expect(failure).not.toBeInstanceOf(SessionEndedError);
    expect(ended).toEqual([]);
  });

  it("does not report other failures (403, 500) as a session end", async () => {
    const { core, ended } = createDeps({
      "GET /api/farms/myfarms/get?client_id=7": { status: 403, body: { code: "FORBIDDEN", message: "Not yours" } },
      "GET /api/mcus/by-client/7": { status: 500, body: { code: "INTERNAL", message: "Something went wrong" } },
    });
    await expect(core.loadFarms()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(core.loadMcus()).rejects.toMatchObject({ code: "INTERNAL" });
    expect(ended).toEqual([]);
  });

  it("reports the socket's refusal at the handshake once, and does not retry it", () => {
    const { socket, ended, updates } = createDeps();
    socket.serve("connect_error", new Error("unauthorized"));
    socket.serve("connect_error", new Error("unauthorized"));
    expect(ended).toEqual([{ clientId: 7, cause: "socket" }]);
    expect(socket.closed).toBe(true);
    expect(updates.filter((u) => u.kind === "connection").map((u) => u.kind === "connection" && u.state)).not.toContain("unauthorized");
  });

  it("reports the server's unauthorized event (the socket belongs to another account)", () => {
    const { socket, ended } = createDeps();
    socket.serve(SOCKET_EVENTS.unauthorized, { message: "This connection belongs to another account" });
    expect(ended).toEqual([{ clientId: 7, cause: "socket" }]);
  });

  it("connects again after the server ends the socket, and lets the handshake judge the session", () => {
    const { socket, ended } = createDeps();
    socket.serve("disconnect", "io server disconnect");
    expect(socket.connects).toBe(1);
    expect(ended).toEqual([]);
    socket.serve("connect_error", new Error("unauthorized"));
    expect(ended).toEqual([{ clientId: 7, cause: "socket" }]);
  });

  it("reports a new session's end again after the next start", async () => {
    const { core, ended } = createDeps({ "GET /api/sensors": { status: 401, body: ENDED } });
    await core.loadSensors().catch(() => undefined);
    core.start(7);
    await core.loadSensors().catch(() => undefined);
    expect(ended).toEqual([
      { clientId: 7, cause: "api" },
      { clientId: 7, cause: "api" },
    ]);
  });
});

describe("marking notifications read", () => {
  it("marks the shown unread notifications read at once and on the server, by id", async () => {
    const { core, requests, updates } = createDeps({
      "GET /notifications/7": { status: 200, body: [note(3), note(2, true), note(1)] },
      "PUT /notifications/7/read": (body) => ({ status: 200, body: { updated: (body as { notification_ids: number[] }).notification_ids.length } }),
    });
    await core.loadNotifications();
    await core.markNotificationsRead([3, 2, 1]);

    expect(requests.filter((r) => r.key === "PUT /notifications/7/read").map((r) => r.body)).toEqual([{ notification_ids: [3, 1] }]);
    const last = updates.filter((u) => u.kind === "entities" && u.entities.notifications).at(-1);
    expect(last?.kind === "entities" && last.entities.notifications?.map((n) => [n.notification_id, n.read_status])).toEqual([
      [3, true],
      [2, true],
      [1, true],
    ]);
  });

  it("leaves a notification that arrived after the panel opened unread", async () => {
    const { core, socket, updates } = createDeps({
      "GET /notifications/7": { status: 200, body: [note(1)] },
      "PUT /notifications/7/read": { status: 200, body: { updated: 1 } },
    });
    await core.loadNotifications();
    socket.serve(SOCKET_EVENTS.notification, note(2));
    await core.markNotificationsRead([1]);
    const last = updates.filter((u) => u.kind === "entities" && u.entities.notifications).at(-1);
    expect(last?.kind === "entities" && last.entities.notifications?.map((n) => [n.notification_id, n.read_status])).toEqual([
      [2, false],
      [1, true],
    ]);
  });

  it("sends nothing when everything shown is read already", async () => {
    const { core, requests } = createDeps({ "GET /notifications/7": { status: 200, body: [note(1, true)] } });
    await core.loadNotifications();
    await core.markNotificationsRead([1]);
    expect(requests.some((r) => r.key.startsWith("PUT"))).toBe(false);
  });

  it("sends at most 500 ids per request", async () => {
    const many = Array.from({ length: 501 }, (_, i) => note(i + 1));
    const { core, requests } = createDeps({
      "GET /notifications/7": { status: 200, body: many },
      "PUT /notifications/7/read": (body) => ({ status: 200, body: { updated: (body as { notification_ids: number[] }).notification_ids.length } }),
    });
    await core.loadNotifications();
    await core.markNotificationsRead(many.map((n) => n.notification_id));
    expect(requests.filter((r) => r.key.startsWith("PUT")).map((r) => (r.body as { notification_ids: number[] }).notification_ids.length)).toEqual([500, 1]);
  });
});

const ACTIVE_ALARMS = "GET /api/alarms?state=active&limit=200";

/** Alarm `id` of MCU `mcuId` of `mcuRecord`'s fleet (farm 1 holds MCUs 1-100). */
const alarmOf = (id: number, mcuId: number, kind: Alarm["kind"], over: Partial<Alarm> = {}): Alarm =>
  alarmRecord(id, mcuId, { kind, mac: macOf(mcuId - 1), farm_id: Math.floor((mcuId - 1) / 100) + 1, farm_name: `Farm ${Math.floor((mcuId - 1) / 100) + 1}`, ...over });

/** The active alarms' fetch (a promise of the fake fetch) has been answered and applied. */
const alarmsSettled = () => new Promise((resolve) => setTimeout(resolve, 0));

/** What the core sent of the active alarms (they cross by record). */
const alarmUpdates = (updates: DataCoreUpdate[]) => updates.flatMap((u) => (u.kind === "records" && u.name === "alarms" ? [u] : []));

describe("active alarms", () => {
  it("fetches the active alarms when the socket authenticates, and again after each reconnect", async () => {
    const { socket, requests, updates } = createDeps({ [ACTIVE_ALARMS]: { status: 200, body: { alarms: [alarmOf(1, 3, "co2_high")], next: null } } });
    expect(requests.filter((r) => r.key === ACTIVE_ALARMS)).toHaveLength(0);
    socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    await alarmsSettled();
    socket.serve("disconnect", "transport close");
    socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    await alarmsSettled();
    expect(requests.filter((r) => r.key === ACTIVE_ALARMS)).toHaveLength(2);
    const lists = alarmUpdates(updates).flatMap((u) => (u.ids ? [u.ids] : []));
    expect(lists.at(-1)).toEqual([1]);
  });

  it("pages through the active alarms with the cursor it is given", async () => {
    const { core, socket, requests } = createDeps({
      [ACTIVE_ALARMS]: { status: 200, body: { alarms: [alarmOf(1, 3, "co2_high")], next: "abc" } },
      [`${ACTIVE_ALARMS}&cursor=abc`]: { status: 200, body: { alarms: [alarmOf(2, 4, "mcu_offline")], next: null } },
    });
    socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    await alarmsSettled();
    await core.loadAlarms();
    expect(requests.filter((r) => r.key.startsWith("GET /api/alarms")).map((r) => r.key)).toEqual([ACTIVE_ALARMS, `${ACTIVE_ALARMS}&cursor=abc`, ACTIVE_ALARMS, `${ACTIVE_ALARMS}&cursor=abc`]);
  });

  it("ignores an alarm event that does not hold an alarm", async () => {
    const { socket, updates } = createDeps({ [ACTIVE_ALARMS]: { status: 200, body: { alarms: [], next: null } } });
    socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    await alarmsSettled();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    socket.serve(ALARM_EVENT, { alarm_id: "1", state: "open" });
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(alarmUpdates(updates).filter((u) => u.changed.length > 0)).toEqual([]);
  });

  it("keeps an acknowledgement's answer at once, and sends the comment only when there is one", async () => {
    const acknowledged = alarmOf(1, 3, "co2_high", { state: "acknowledged", acknowledged_at: "2026-11-23T10:05:00.000Z", acknowledged_by: "demo", ack_comment: "Door shut" });
    const { core, socket, requests, updates } = createDeps({
      [ACTIVE_ALARMS]: { status: 200, body: { alarms: [alarmOf(1, 3, "co2_high")], next: null } },
      "POST /api/alarms/1/acknowledge": { status: 200, body: acknowledged },
    });
    socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    await alarmsSettled();
    expect(await core.acknowledgeAlarm(1, "Door shut")).toEqual(acknowledged);
    await core.acknowledgeAlarm(1, "");
    expect(requests.filter((r) => r.key.startsWith("POST")).map((r) => r.body)).toEqual([{ comment: "Door shut" }, {}]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const changed = alarmUpdates(updates).flatMap((u) => u.changed);
    expect(changed).toEqual([alarmOf(1, 3, "co2_high"), acknowledged]);
  });

  it("forgets the alarms at sign-out", async () => {
    const { core, socket, updates } = createDeps({ [ACTIVE_ALARMS]: { status: 200, body: { alarms: [alarmOf(1, 3, "co2_high")], next: null } } });
    socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    await alarmsSettled();
    core.stop();
    expect(alarmUpdates(updates).at(-1)).toEqual({ kind: "records", name: "alarms", key: "alarm_id", ids: [], changed: [], load: { state: "idle" } });
  });
});

describe("live data for the MCUs on screen, fleet results for all", () => {
  /**
   * 2000 MCUs in 20 farms: the first 1500 report (MCU 6 on a low battery, with its alarm open),
   * the last 500 (farms 16-20) never do; three MCUs are on screen.
   */
  async function fleetOf2000() {
    const scheduler = new VirtualTimeScheduler(VirtualAction, Infinity);
    const mcus = Array.from({ length: 2000 }, (_, i) => mcuRecord(i));
    const h = createDeps(
      {
        "GET /api/mcus/by-client/7": { status: 200, body: mcus },
        "GET /api/farms/myfarms/get?client_id=7": { status: 200, body: Array.from({ length: 20 }, (_, f) => farmRecord(f)) },
        [ACTIVE_ALARMS]: { status: 200, body: { alarms: [alarmOf(1, 6, "battery_low")], next: null } },
      },
      { scheduler, now: () => scheduler.now() },
    );
    const batches = () => h.updates.flatMap((u) => (u.kind === "live" ? [u.batch] : []));
    // The main thread: applies and acknowledges each batch at once.
    h.core.subscribe((u) => {
      h.updates.push(u);
      if (u.kind === "live") h.core.ack(u.batch.seq);
    });
    await Promise.all([h.core.loadMcus(), h.core.loadFarms()]);
    const onScreen = [macOf(0), macOf(5), macOf(1999)];
    h.core.setInterest(onScreen);
    h.socket.serve(SOCKET_EVENTS.authenticated, { devices: mcus.map((m) => ({ deviceId: m.mac, mcu_id: m.mcu_id, status: "offline", readings: null, lastSeen: null })) });
    h.socket.serve(SOCKET_EVENTS.realtimeBatch, {
      status: [],
      data: Array.from({ length: 1500 }, (_, i) => ({ deviceId: macOf(i), payload: { DHT: { temperature: 18, humidity: 88, count: 1 }, batteryLevel: i === 5 ? 12 : 80 } })),
    });
    await alarmsSettled();
    const run = (until: number) => {
      scheduler.maxFrames = until;
      scheduler.flush();
    };
    run(100);
    return { ...h, scheduler, batches, onScreen, run };
  }

  it("counts the whole fleet in the core and sends snapshots of the MCUs on screen only", async () => {
    const { batches, onScreen } = await fleetOf2000();
    const sent = new Set(batches().flatMap((b) => b.upserts.map((u) => u.mac)));
    expect([...sent].sort()).toEqual([...onScreen].sort());
    const fleet = Object.assign({}, ...batches().map((b) => b.fleet ?? {})) as FleetResults;
    expect(fleet.summary).toEqual({ totalFarms: 20, activeMcus: 1500, warnings: 1, offlineMcus: 500 });
    expect(fleet.mcuStats).toEqual({ total: 2000, online: 1500, offline: 500, lowBattery: 1 });
    expect(fleet.farmStatuses![1]).toBe("warning");
    expect(fleet.farmStatuses![2]).toBe("active");
    expect(fleet.farmStatuses![20]).toBe("offline");
  });

  it("sends the fleet results again only when they change, and an MCU's snapshot once it comes on screen", async () => {
    const { socket, core, batches, run, onScreen } = await fleetOf2000();
    const before = batches().length;
    // A reading of an MCU off screen that changes no count: nothing crosses.
    socket.serve(SOCKET_EVENTS.realtimeData, { deviceId: macOf(700), payload: { DHT: { temperature: 19, humidity: 86, count: 1 }, batteryLevel: 79 } });
    run(200);
    expect(batches().length).toBe(before);
    // Its battery runs low: the counts change, still no snapshot crosses.
    socket.serve(SOCKET_EVENTS.realtimeData, { deviceId: macOf(700), payload: { DHT: { temperature: 19, humidity: 86, count: 1 }, batteryLevel: 10 } });
    run(300);
    const low: SnapshotBatch = batches().at(-1)!;
    expect(low.upserts).toEqual([]);
    expect(low.fleet?.mcuStats?.lowBattery).toBe(2);
    expect(low.fleet?.summary).toBeUndefined();
    // Its alarm opens: its farm (8) is a warning.
    socket.serve(ALARM_EVENT, alarmOf(2, 701, "battery_low"));
    run(350);
    expect(batches().at(-1)!.fleet?.summary?.warnings).toBe(2);
    expect(batches().at(-1)!.fleet?.farmStatuses?.[8]).toBe("warning");
    // Its card mounts: its latest snapshot comes in the next batch.
    core.setInterest([...onScreen, macOf(700)]);
    run(400);
    expect(batches().at(-1)!.upserts.map((u) => [u.mac, u.readings?.batteryLevel])).toEqual([[macOf(700), 10]]);
  });

  it("compares a reloaded MCU list in the core and sends only the records that changed", async () => {
    const mcus = [mcuRecord(0), mcuRecord(1), mcuRecord(2)];
    const { core, updates } = createDeps({ "GET /api/mcus/by-client/7": { status: 200, body: mcus } });
    updates.length = 0; // the start's empty list
    await core.loadMcus();
    mcus[1] = { ...mcus[1]!, name: "Renamed" };
    mcus.pop();
    await core.loadMcus();
    const sent = updates.flatMap((u) => (u.kind === "records" && u.name === "mcus" && u.ids ? [{ ids: u.ids, changed: u.changed.map((m) => m.name) }] : []));
    expect(sent).toEqual([
      { ids: [1, 2, 3], changed: ["Room 1", "Room 2", "Room 3"] },
      { ids: [1, 2], changed: ["Renamed"] },
    ]);
  });

  it("sends a long list's first screen first, then the whole list in parts of its own, never all at once", async () => {
    const mcus = Array.from({ length: 500 }, (_, i) => mcuRecord(i));
    const { core, updates, requests } = createDeps({ "GET /api/mcus/by-client/7": { status: 200, body: mcus } });
    await core.loadMcus();
    await new Promise((r) => setTimeout(r, 50)); // the later parts go one task after another
    const parts = updates.flatMap((u) => (u.kind === "records" && u.name === "mcus" && u.ids ? [{ ...u, ids: u.ids }] : [])).filter((u) => u.ids.length > 0);
    expect(requests.map((r) => r.key).filter((k) => k.startsWith("GET /api/mcus"))).toEqual(["GET /api/mcus/by-client/7?limit=48", "GET /api/mcus/by-client/7"]);
    // The head: 48 records, flagged as not the whole list.
    expect(parts[0]).toMatchObject({ more: true });
    expect(parts[0]!.ids).toHaveLength(48);
    expect(parts[0]!.changed.map((m) => m.mcu_id)).toEqual(parts[0]!.ids);
    // Then the whole list: every id each time, the records not sent yet in parts of at most 200.
    const rest = parts.slice(1);
    for (const p of rest) expect(p.ids).toHaveLength(500);
    expect(rest.map((p) => p.changed.length)).toEqual([48, 200, 200, 4]);
    expect(rest.slice(0, -1).every((p) => p.more === true)).toBe(true);
    expect(rest.at(-1)!.more).toBeUndefined();
    expect(new Set(rest.flatMap((p) => p.changed.map((m) => m.mcu_id))).size).toBe(452);
  });

  it("sends the card views of the mounted cards only, joined and judged here, and again only when one changes", async () => {
    const { socket, core, batches, run } = await fleetOf2000();
    const cardsSent = () => batches().flatMap((b) => b.cards ?? []);
    expect(cardsSent()).toEqual([]);
    // Cards of MCU 6 (reports, low battery) and MCU 2000 (never reported) mount.
    core.setCardInterest([6, 2000]);
    run(200);
    const first = cardsSent();
    expect(first.map((v) => v.mcuId).sort((a, b) => a - b)).toEqual([6, 2000]);
    const six = first.find((v) => v.mcuId === 6)!;
    expect(six).toMatchObject({ mac: macOf(5), name: "Room 6", farmName: "Farm 1", profileName: null, online: true, breaches: [] });
    expect(six.readings?.batteryLevel).toBe(12);
    expect(six.sensorTotals).toEqual({ CO2: 0, Humidity: 0, Soil_temp: 0, Moisture: 0 });
    expect(first.find((v) => v.mcuId === 2000)).toMatchObject({ online: false, readings: null });
    // A reading of an MCU without a card: no card view crosses.
    const before = cardsSent().length;
    socket.serve(SOCKET_EVENTS.realtimeData, { deviceId: macOf(700), payload: { DHT: { temperature: 19, humidity: 86, count: 1 }, batteryLevel: 79 } });
    run(300);
    expect(cardsSent().length).toBe(before);
    // A reading of MCU 6: its view, and only its, comes again.
    socket.serve(SOCKET_EVENTS.realtimeData, { deviceId: macOf(5), payload: { DHT: { temperature: 21, humidity: 90, count: 1 }, batteryLevel: 11 } });
    run(400);
    expect(cardsSent().slice(before).map((v) => [v.mcuId, v.readings?.batteryLevel])).toEqual([[6, 11]]);
    // Its card unmounts and mounts again: its view is sent again (the main thread may hold an old one).
    core.setCardInterest([2000]);
    run(500);
    const again = cardsSent().length;
    core.setCardInterest([2000, 6]);
    run(600);
    expect(cardsSent().slice(again).map((v) => v.mcuId)).toEqual([6]);
  });

  it("answers the MCU Manager's watched queries over the whole fleet, again only when a result changes", async () => {
    const { socket, core, batches, run } = await fleetOf2000();
    const offlineInFarm16 = mcuQueryKey({ search: "", status: "offline", farmId: "16" });
    const byMac = mcuQueryKey({ search: macOf(1234).toLowerCase().replace(/:/g, "-"), status: "", farmId: "" });
    core.setQueries([offlineInFarm16, byMac]);
    run(200);
    const answer = batches().at(-1)!.fleet!.queries!;
    expect(answer[offlineInFarm16]).toEqual(Array.from({ length: 100 }, (_, k) => 1501 + k));
    expect(answer[byMac]).toEqual([1235]);
    const before = batches().length;
    socket.serve(SOCKET_EVENTS.realtimeData, { deviceId: macOf(1234), payload: { DHT: { temperature: 19, humidity: 86, count: 1 }, batteryLevel: 80 } });
    run(300);
    expect(batches().length).toBe(before);
    // MCU 1501 (farm 16) reports: it leaves the offline query.
    socket.serve(SOCKET_EVENTS.realtimeData, { deviceId: macOf(1500), payload: { DHT: { temperature: 19, humidity: 86, count: 1 }, batteryLevel: 80 } });
    run(700); // readings alone recompute the fleet results at most every 250 ms
    expect(batches().at(-1)!.fleet!.queries).toEqual({ [offlineInFarm16]: Array.from({ length: 99 }, (_, k) => 1502 + k) });
  });
});
