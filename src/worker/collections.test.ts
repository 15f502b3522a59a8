import { describe, expect, it } from "vitest";
import type { Alarm } from "../contract/alarms-values.ts";
import type { Entities, EntityName } from "../contract/live.ts";
import { acknowledgedAlarm, alarmRecord, resolvedAlarm } from "../test-support/alarms.ts";
import { batchRecord } from "../test-support/batches.ts";
import { farmRecord, mcuRecord } from "../test-support/records.ts";
import { createCollections, type CollectionChange } from "./collections.ts";
import { createRestClient } from "./rest-client.ts";

type Answer = { status: number; body?: unknown };

const at = "2026-11-23T10:00:00.000Z";
const controllerRecord = (unitId: number, name = `Unit ${unitId}`) => ({ unit_id: unitId, name, mac: `AA:00:00:00:00:0${unitId}`, type: "Ac", mcu_id: 1, mcu_name: "Room 1", createdAt: at, updatedAt: at });
const profileRecord = (profileId: number) => ({
  profile_id: profileId,
  name: `Profile ${profileId}`,
  client_id: 7,
  config: {
    irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
    ventilation: { co2_threshold: 350 },
    ac: { based_on: "room_temp", target_temp: 18 },
    humidifier: { humidity_on_below: 80, humidity_off_above: 93 },
  },
  mcu_links: [],
  createdAt: at,
  updatedAt: at,
});

/** The collections of client 7 over a fetch that answers by "METHOD path" from `routes`; every change is recorded. */
function createDeps(routes: Record<string, Answer>) {
  const requests: { key: string; body: unknown }[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? "GET"} ${String(input)}`;
    requests.push({ key, body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined });
    const route = routes[key] ?? { status: 404, body: { code: "NOT_FOUND", message: `No route ${key}` } };
    return new Response(route.body === undefined ? null : JSON.stringify(route.body), { status: route.status, headers: { "content-type": "application/json" } });
  }) as typeof globalThis.fetch;
  const rest = createRestClient({ apiBase: "", fetch });
  const changes: EntityName[] = [];
  const collections = createCollections({ rest: () => rest, clientId: () => 7, changed: (name, change) => void (change.list && changes.push(name)) });
  return { collections, requests, changes, routes, entities: collections.entities as Entities };
}

describe("the collections declared in the contract, run by one cache", () => {
  it("adds a created item with the client's id, and replaces an updated one in place", async () => {
    const { collections, requests, entities } = createDeps({
      "GET /api/farms/myfarms/get?client_id=7": { status: 200, body: [farmRecord(0), farmRecord(1)] },
      "POST /api/farms": { status: 201, body: farmRecord(2) },
      "PUT /api/farms/2": { status: 200, body: { ...farmRecord(1), name: "North" } },
    });
    await collections.loaders.loadFarms();
    expect(await collections.mutations.createFarm({ name: "Farm 3", location: "Hill" })).toEqual(farmRecord(2));
    expect(requests.at(-1)).toEqual({ key: "POST /api/farms", body: { name: "Farm 3", location: "Hill", client_id: 7 } });
    await collections.mutations.updateFarm(2, { name: "North", location: "Byblos" });
    expect(entities.farms.map((f) => [f.farm_id, f.name])).toEqual([
      [1, "Farm 1"],
      [2, "North"],
      [3, "Farm 3"],
    ]);
  });

  it("reloads what a mutation invalidates, and a failed reload does not fail the mutation", async () => {
    const { collections, requests, entities, routes } = createDeps({
      "GET /api/controllers": { status: 200, body: [controllerRecord(1), controllerRecord(2)] },
      "DELETE /api/controllers/1": { status: 200, body: { message: "Controller deleted" } },
      "PUT /api/controllers/2": { status: 200, body: controllerRecord(2, "Cooler") },
      "GET /api/mcus/by-client/7": { status: 200, body: [mcuRecord(0)] },
      "GET /api/batches": { status: 200, body: [] },
    });
    await collections.loaders.loadControllers();
    await expect(collections.mutations.deleteController(1)).resolves.toBeUndefined();
    expect(entities.controllers.map((c) => c.unit_id)).toEqual([2]);
    // An MCU record lists its devices: the MCU list is reloaded.
    expect(requests.map((r) => r.key)).toContain("GET /api/mcus/by-client/7");
    expect(entities.mcus.map((m) => m.mcu_id)).toEqual([1]);

    routes["GET /api/mcus/by-client/7"] = { status: 500, body: { code: "INTERNAL", message: "Resting" } };
    await expect(collections.mutations.saveController(2, { name: "Cooler", mac: "AA:00:00:00:00:02", type: "Ac", mcu_id: 1 })).resolves.toMatchObject({ name: "Cooler" });
    expect(requests.at(-2)!.key).toBe("PUT /api/controllers/2");
    expect(entities.controllers.map((c) => c.name)).toEqual(["Cooler"]);
  });

  it("answers a deletion's message, and a link's reloads fail the link", async () => {
    const { collections, entities, routes } = createDeps({
      "GET /api/setting-profiles/7": { status: 200, body: [profileRecord(1), profileRecord(2)] },
      "DELETE /api/setting-profiles/2": { status: 200, body: { message: "Profile deleted" } },
      "GET /api/mcus/by-client/7": { status: 200, body: [mcuRecord(0)] },
      "POST /api/setting-profiles/link": { status: 201, body: { id: 5, mcu_id: 1, profile_id: 1, profile: { profile_id: 1, name: "Profile 1", config: profileRecord(1).config } } },
    });
    await collections.loaders.loadProfiles();
    expect(await collections.mutations.deleteProfile(2)).toBe("Profile deleted");
    expect(entities.profiles.map((p) => p.profile_id)).toEqual([1]);

    await expect(collections.mutations.link(1, 1)).resolves.toBeUndefined();
    routes["GET /api/setting-profiles/7"] = { status: 500, body: { code: "INTERNAL", message: "Resting" } };
    await expect(collections.mutations.link(1, 1)).rejects.toMatchObject({ code: "INTERNAL" });
  });

  it("patches the collections that declare a live event", () => {
    const { collections, entities, changes } = createDeps({});
    const note = (id: number) => ({ notification_id: id, type: "wash", title: `Note ${id}`, body: "", read_status: false, createdAt: at });
    collections.patch("notification", note(1));
    collections.patch("notification", note(2));
    expect(entities.notifications.map((n) => n.notification_id)).toEqual([2, 1]);
    expect(changes).toEqual(["notifications", "notifications"]);
  });

  it("keeps one copy of a created item whose live event came before the answer", async () => {
    const started = batchRecord({ batch_id: 5 });
    const { collections, entities } = createDeps({ "POST /api/batches": { status: 201, body: started } });
    collections.patch("batch", started);
    await collections.mutations.startBatch({ name: started.name, recipe_id: 1, mcu_ids: [1], time_zone: "UTC" });
    expect(entities.batches.map((b) => b.batch_id)).toEqual([5]);
  });
});

/** Alarm `id` of MCU `id * 10`. */
const alarm = (id: number, over: Partial<Alarm> = {}) => alarmRecord(id, id * 10, over);
const acked = acknowledgedAlarm;
const resolved = resolvedAlarm;
const ACTIVE = "GET /api/alarms?state=active&limit=200";

/** A deferred answer, so a test decides when the server answers. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

/**
 * The collections of client 7 over a fetch that answers by "METHOD path": from `routes`, or from
 * the next of `later` for that key (a test's hand). What they report is recorded, as the main
 * thread would get it; IndexedDB stands in by a map.
 */
function createAlarmDeps(routes: Record<string, Answer> = {}, later: Record<string, Promise<Answer>[]> = {}) {
  const requests: string[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? "GET"} ${String(input)}`;
    requests.push(key);
    const route = (await later[key]?.shift()) ?? routes[key] ?? { status: 404, body: { code: "NOT_FOUND", message: "No such page" } };
    return new Response(route.body === undefined ? null : JSON.stringify(route.body), { status: route.status, headers: { "content-type": "application/json" } });
  }) as typeof globalThis.fetch;
  const rest = createRestClient({ apiBase: "", fetch });
  const reported: CollectionChange<"alarms">[] = [];
  const saved = new Map<string, unknown>();
  const collections = createCollections({
    rest: () => rest,
    clientId: () => 7,
    changed: (name, change) => {
      if (name === "alarms") reported.push(change as CollectionChange<"alarms">);
    },
    saved: {
      read: async () => null,
      write: async (_c, name, list) => void saved.set(name, list),
      clear: async () => saved.clear(),
    },
    saveDelayMs: 0,
  });
  const entities = collections.entities as Entities;
  const ids = () => entities.alarms.map((a) => a.alarm_id).sort((a, b) => a - b);
  const left = () => reported.flatMap((c) => c.left ?? []);
  const loads = () => reported.flatMap((c) => (c.load ? [c.load.state] : []));
  return { collections, entities, requests, reported, ids, left, loads, saved };
}
const page = (alarms: Alarm[], next: string | null = null): Answer => ({ status: 200, body: { alarms, next } });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("a list declared paged, merged item by item and loaded at each connection (the active alarms)", () => {
  it("loads every page, following each page's cursor, and is loading until its first answer", async () => {
    const { collections, requests, ids, loads, reported } = createAlarmDeps({ [ACTIVE]: page([alarm(1), alarm(2)], "p2"), [`${ACTIVE}&cursor=p2`]: page([alarm(3)]) });
    expect(collections.loaded("alarms")).toBe(false);
    await collections.loaders.loadAlarms();
    expect(requests).toEqual([ACTIVE, `${ACTIVE}&cursor=p2`]);
    expect(ids()).toEqual([1, 2, 3]);
    expect(loads()).toEqual(["loading", "ready"]);
    // The list and its state cross together, at once.
    expect(reported.at(-1)).toMatchObject({ load: { state: "ready" }, atOnce: true });
    expect(collections.loaded("alarms")).toBe(true);
  });

  it("stops paging at a cursor it was given before", async () => {
    const { collections, requests, ids } = createAlarmDeps({ [ACTIVE]: page([alarm(1)], "p2"), [`${ACTIVE}&cursor=p2`]: page([alarm(2)], "p2") });
    await collections.loaders.loadAlarms();
    expect(requests).toEqual([ACTIVE, `${ACTIVE}&cursor=p2`]);
    expect(ids()).toEqual([1, 2]);
  });

  it("replaces an item by its new version, and one that leaves goes as it left", async () => {
    const { collections, entities, ids, left, reported } = createAlarmDeps({ [ACTIVE]: page([alarm(1)]) });
    await collections.loaders.loadAlarms();
    collections.patch("alarm", alarm(2));
    collections.patch("alarm", acked(alarm(1)));
    expect(entities.alarms).toEqual([acked(alarm(1)), alarm(2)]);
    // Events wait for the burst to cross; loads do not.
    expect(reported.at(-1)!.atOnce).toBeUndefined();
    collections.patch("alarm", resolved(acked(alarm(1))));
    expect(ids()).toEqual([2]);
    expect(left()).toEqual([resolved(acked(alarm(1)))]);
  });

  it("passes on an item's worse value, and nothing for the same version again", async () => {
    const { collections, entities, reported } = createAlarmDeps({ [ACTIVE]: page([alarm(1)]) });
    await collections.loaders.loadAlarms();
    const before = reported.length;
    collections.patch("alarm", alarm(1));
    expect(reported).toHaveLength(before);
    collections.patch("alarm", alarm(1, { worst_value: 1650 }));
    expect(entities.alarms[0]!.worst_value).toBe(1650);
  });

  it("never goes back to an earlier version, nor brings back one that left (an event late behind an answer)", async () => {
    const { collections, entities, ids } = createAlarmDeps({ [ACTIVE]: page([]) });
    await collections.loaders.loadAlarms();
    collections.patch("alarm", acked(alarm(1)));
    collections.patch("alarm", alarm(1));
    expect(entities.alarms).toEqual([acked(alarm(1))]);
    collections.patch("alarm", resolved(alarm(1)));
    collections.patch("alarm", acked(alarm(1)));
    collections.patch("alarm", alarm(1));
    expect(ids()).toEqual([]);
  });

  it("lays the versions heard during a load over its answer, which may predate them", async () => {
    const answer = deferred<Answer>();
    const { collections, entities, ids, left } = createAlarmDeps({}, { [ACTIVE]: [answer.promise] });
    const loading = collections.loaders.loadAlarms();
    // While the server pages: alarm 1 is resolved, alarm 2 acknowledged, alarm 4 opens.
    collections.patch("alarm", resolved(alarm(1)));
    collections.patch("alarm", acked(alarm(2)));
    collections.patch("alarm", alarm(4));
    // The answer was taken before all of it: it still has 1 open and 2 open, not 4; 3 it knows.
    answer.resolve(page([alarm(1), alarm(2), alarm(3)]));
    await loading;
    expect(ids()).toEqual([2, 3, 4]);
    expect(entities.alarms.find((a) => a.alarm_id === 2)!.state).toBe("acknowledged");
    expect(left().map((a) => a.alarm_id)).toEqual([1]);
  });

  it("takes an answer's later version over an older one heard during the load", async () => {
    const answer = deferred<Answer>();
    const { collections, entities } = createAlarmDeps({}, { [ACTIVE]: [answer.promise] });
    const loading = collections.loaders.loadAlarms();
    collections.patch("alarm", alarm(1));
    answer.resolve(page([acked(alarm(1))]));
    await loading;
    expect(entities.alarms).toEqual([acked(alarm(1))]);
  });

  it("loads afresh at each connection: what left while the socket was down is gone, and the list shown meanwhile stays ready", async () => {
    const routes = { [ACTIVE]: page([alarm(1), alarm(2)]), "GET /api/batches": { status: 200, body: [] } };
    const { collections, requests, ids, loads } = createAlarmDeps(routes);
    collections.connected();
    await settle();
    routes[ACTIVE] = page([alarm(2), alarm(5)]);
    collections.connected();
    await settle();
    expect(requests.filter((r) => r === ACTIVE)).toHaveLength(2);
    // The batches are loaded at each connection too (the cards' phases); lists not declared so wait for a screen.
    expect(requests.filter((r) => r === "GET /api/batches")).toHaveLength(2);
    expect(requests.filter((r) => /^GET \/(api\/)?(farms|mcus|setting-profiles|notifications|controllers|sensors|recipes)\b/.test(r))).toEqual([]);
    expect(ids()).toEqual([2, 5]);
    expect(loads()).toEqual(["loading", "ready"]);
  });

  it("takes only the latest answer when loads overlap", async () => {
    const first = deferred<Answer>();
    const second = deferred<Answer>();
    const { collections, ids } = createAlarmDeps({}, { [ACTIVE]: [first.promise, second.promise] });
    collections.connected();
    collections.connected();
    await settle();
    second.resolve(page([alarm(2)]));
    await settle();
    first.resolve(page([alarm(1)]));
    await settle();
    expect(ids()).toEqual([2]);
  });

  it("reports a failed load with its reason and keeps what it had, the list being the server's all the same", async () => {
    const routes: Record<string, Answer> = { [ACTIVE]: page([alarm(1)]) };
    const { collections, ids, reported } = createAlarmDeps(routes);
    await collections.loaders.loadAlarms();
    delete routes[ACTIVE];
    await expect(collections.loaders.loadAlarms()).rejects.toThrow("No such page");
    expect(reported.at(-1)).toEqual({ load: { state: "error", message: "No such page" }, atOnce: true });
    expect(ids()).toEqual([1]);
    expect(collections.loaded("alarms")).toBe(true);
  });

  it("is not loaded before its first answer, even after a failed load", async () => {
    const { collections, loads } = createAlarmDeps();
    await collections.loaders.loadAlarms().catch(() => undefined);
    expect(collections.loaded("alarms")).toBe(false);
    expect(loads()).toEqual(["loading", "error"]);
  });

  it("is neither saved on the device nor shown from an earlier answer when the server cannot be reached", async () => {
    const { collections, saved, ids, loads } = createAlarmDeps({ [ACTIVE]: page([alarm(1)]) });
    await collections.loaders.loadAlarms();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(saved.has("alarms")).toBe(false);
    expect(ids()).toEqual([1]);
    expect(collections.waiting).toBe(false);
    expect(loads()).toEqual(["loading", "ready"]);
  });

  it("keeps an acknowledgement's answer at once, and each alarm a farm's acknowledgement answers", async () => {
    const { collections, entities, requests } = createAlarmDeps({
      [ACTIVE]: page([alarm(1), alarm(2), alarm(3)]),
      "POST /api/alarms/1/acknowledge": { status: 200, body: acked(alarm(1)) },
      "POST /api/alarms/acknowledge": { status: 200, body: { acknowledged: [acked(alarm(2)), acked(alarm(3))] } },
    });
    await collections.loaders.loadAlarms();
    expect(await collections.mutations.acknowledgeAlarm(1, "")).toEqual(acked(alarm(1)));
    expect(await collections.mutations.acknowledgeFarmAlarms(1, "Door shut")).toEqual([acked(alarm(2)), acked(alarm(3))]);
    expect(entities.alarms.map((a) => a.state)).toEqual(["acknowledged", "acknowledged", "acknowledged"]);
    expect(requests.filter((r) => r.startsWith("POST"))).toEqual(["POST /api/alarms/1/acknowledge", "POST /api/alarms/acknowledge"]);
  });

  it("forgets everything at sign-out, what left included; a load still under way is dropped", async () => {
    const answer = deferred<Answer>();
    const { collections, entities } = createAlarmDeps({}, { [ACTIVE]: [answer.promise] });
    const loading = collections.loaders.loadAlarms();
    collections.patch("alarm", resolved(alarm(1)));
    collections.clear();
    answer.resolve(page([alarm(2)]));
    await loading;
    expect(entities.alarms).toEqual([]);
    expect(collections.loaded("alarms")).toBe(false);
    // The next session may see alarm 1 again.
    collections.patch("alarm", alarm(1));
    expect(entities.alarms).toEqual([alarm(1)]);
  });
});

describe("a list shown with another (the MCU cards say which batch each room follows)", () => {
  const MCUS = "GET /api/mcus/by-client/7";
  const BATCHES = "GET /api/batches";
  const answer = (status: number, body: unknown) => Promise.resolve<Answer>({ status, body });

  /** The collections of client 7 over a fetch whose answers by "METHOD path" a test holds; the lists that cross are recorded in order. */
  function createShownDeps(answers: Record<string, Promise<Answer>>) {
    const requests: string[] = [];
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const key = `${init?.method ?? "GET"} ${String(input)}`;
      requests.push(key);
      const route = (await answers[key]) ?? { status: 404, body: { code: "NOT_FOUND", message: `No route ${key}` } };
      return new Response(JSON.stringify(route.body), { status: route.status, headers: { "content-type": "application/json" } });
    }) as typeof globalThis.fetch;
    const rest = createRestClient({ apiBase: "", fetch });
    const crossed: EntityName[] = [];
    const collections = createCollections({ rest: () => rest, clientId: () => 7, changed: (name, change) => void (change.list && crossed.push(name)) });
    return { collections, requests, crossed };
  }

  it("loads the batches alongside the MCU list, whose records cross once they have answered, so the first cards paint with their batch line", async () => {
    const batches = deferred<Answer>();
    const { collections, requests, crossed } = createShownDeps({ [MCUS]: answer(200, [mcuRecord(0)]), [BATCHES]: batches.promise });
    const loading = collections.loaders.loadMcus();
    await settle();
    expect([...requests].sort()).toEqual([BATCHES, MCUS]);
    // The MCUs have answered, and wait.
    expect(crossed).toEqual([]);
    batches.resolve({ status: 200, body: [batchRecord({ batch_id: 5 })] });
    await loading;
    expect(crossed).toEqual(["batches", "mcus"]);

    // Once the batches have answered, a load of the MCUs neither asks for them again nor waits for them.
    await collections.load("mcus");
    expect(requests.filter((r) => r === BATCHES)).toHaveLength(1);
    expect(crossed).toEqual(["batches", "mcus", "mcus"]);
  });

  it("joins a load of the batches under way, and lets the MCUs cross when it fails", async () => {
    const batches = deferred<Answer>();
    const { collections, requests, crossed } = createShownDeps({ [MCUS]: answer(200, [mcuRecord(0)]), [BATCHES]: batches.promise });
    const batchesLoading = collections.loaders.loadBatches().catch(() => undefined);
    const loading = collections.loaders.loadMcus();
    await settle();
    expect(requests.filter((r) => r === BATCHES)).toHaveLength(1);
    expect(crossed).toEqual([]);
    batches.resolve({ status: 500, body: { code: "INTERNAL", message: "Resting" } });
    await Promise.all([loading, batchesLoading]);
    expect(crossed).toEqual(["mcus"]);
  });
});
