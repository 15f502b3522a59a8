import { describe, expect, it } from "vitest";
import type { Entities, EntityName } from "../contract/live.ts";
import { batchRecord } from "../test-support/batches.ts";
import { farmRecord, mcuRecord } from "../test-support/records.ts";
import { createCollections } from "./collections.ts";
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
  const collections = createCollections({ rest: () => rest, clientId: () => 7, changed: (name) => changes.push(name) });
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
