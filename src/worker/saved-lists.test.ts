import { VirtualAction, VirtualTimeScheduler } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import type { Mcu } from "../contract/entities.ts";
import { SOCKET_EVENTS } from "../contract/realtime.ts";
import { farmRecord, macOf, mcuRecord } from "../test-support/records.ts";
import { connectingTo, fakeSocket } from "../test-support/fake-socket.ts";
import { createDataCore, type DataCoreUpdate } from "./core.ts";
import { createMemorySavedLists } from "./saved-lists.ts";

const SAVED_AT = Date.parse("2026-11-23T10:00:00.000Z");
const LATER = SAVED_AT + 12 * 60_000;
const reading = { DHT: { temperature: 18, humidity: 88, count: 1 }, batteryLevel: 64, lastUpdated: "2026-11-23T09:59:30.000Z" };
const MCUS: Mcu[] = [mcuRecord(0, { readings: reading, lastSeen: reading.lastUpdated }), mcuRecord(1)];
const FARMS = [farmRecord(0)];

/**
 * A core for client `clientId` whose server answers the MCU and farm lists while `server.up`, and
 * cannot be reached otherwise (fetch rejects, as a browser's does); lists are saved in `saved`.
 */
function coreWith(
  saved = createMemorySavedLists(),
  { clientId = 7, up = true, failing = false, now = SAVED_AT, scheduler }: { clientId?: number; up?: boolean; failing?: boolean; now?: number; scheduler?: VirtualTimeScheduler } = {},
) {
  const server = { up, failing, mcus: MCUS, farms: FARMS, gets: [] as string[] };
  const fetch = (async (input: RequestInfo | URL) => {
    const url = String(input);
    if (!server.up) throw new TypeError("Failed to fetch");
    server.gets.push(url.split("?")[0]!);
    if (server.failing) return new Response(JSON.stringify({ code: "INTERNAL", message: "The lists are resting" }), { status: 503 });
    const body = url.startsWith(`/api/mcus/by-client/${clientId}`) ? server.mcus : url.startsWith("/api/farms/myfarms/get") ? server.farms : url.startsWith("/api/setting-profiles/") ? [] : null;
    if (body === null) return new Response(JSON.stringify({ code: "NOT_FOUND", message: "No route" }), { status: 404 });
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json", "x-total-count": String(body.length) } });
  }) as typeof globalThis.fetch;
  const socket = fakeSocket();
  const clock = { now };
  const core = createDataCore({ fetch, connect: connectingTo(socket), savedLists: saved, saveDelayMs: 0, now: () => clock.now, ...(scheduler ? { scheduler } : {}) });
  const updates: DataCoreUpdate[] = [];
  core.subscribe((u) => {
    updates.push(u);
    if (u.kind === "live") core.ack(u.batch.seq);
  });
  core.start(clientId);
  const ages = () => updates.flatMap((u) => (u.kind === "saved-ages" ? [u.ages] : [])).at(-1) ?? {};
  const mcuIds = () => updates.flatMap((u) => (u.kind === "records" && u.name === "mcus" && !u.more && u.ids ? [u.ids] : [])).at(-1);
  const farmIds = () => updates.flatMap((u) => (u.kind === "entities" && u.entities.farms ? [u.entities.farms.map((f) => f.farm_id)] : [])).at(-1);
  return { core, socket, saved, server, clock, updates, ages, mcuIds, farmIds };
}

/** A core that loaded the lists from the server once (at SAVED_AT) and saved them on the device. */
async function savedOnce() {
  const first = coreWith();
  await Promise.all([first.core.loadMcus(), first.core.loadFarms()]);
  await vi.waitFor(() => expect([...first.saved.rows.keys()].sort()).toEqual(["7/farms", "7/mcus"]));
  return first.saved;
}

describe("lists saved on the device for a screen opened while the server cannot be reached", () => {
  it("saves each list the server gives, per client, with when it gave it", async () => {
    const saved = await savedOnce();
    expect(saved.rows.get("7/mcus")).toEqual({ value: MCUS, savedAt: SAVED_AT });
    expect(saved.rows.get("7/farms")).toEqual({ value: FARMS, savedAt: SAVED_AT });
  });

  it("shows the saved lists with their age when the server cannot be reached, instead of failing", async () => {
    const saved = await savedOnce();
    const h = coreWith(saved, { up: false, now: LATER });
    await expect(h.core.loadMcus()).resolves.toBeUndefined();
    await expect(h.core.loadFarms()).resolves.toBeUndefined();
    expect(h.mcuIds()).toEqual([1, 2]);
    expect(h.farmIds()).toEqual([1]);
    expect(h.ages()).toEqual({ mcus: SAVED_AT, farms: SAVED_AT });
    // Shown, not saved again as if new.
    expect(saved.rows.get("7/mcus")!.savedAt).toBe(SAVED_AT);
  });

  it("shows the saved MCUs' last readings until the socket says what they are now", async () => {
    const saved = await savedOnce();
    const scheduler = new VirtualTimeScheduler(VirtualAction, Infinity);
    const h = coreWith(saved, { up: false, now: LATER, scheduler });
    await h.core.loadMcus();
    h.core.setInterest([macOf(0)]);
    // Frames, not the freshness clock's endless ticks.
    scheduler.maxFrames = 100;
    scheduler.flush();
    const snapshot = h.updates.flatMap((u) => (u.kind === "live" ? u.batch.upserts : [])).find((s) => s.mac === macOf(0));
    expect(snapshot).toMatchObject({ mcuId: 1, readings: reading, lastReadingAt: Date.parse(reading.lastUpdated) });
  });

  it("loads the saved lists again by itself when the socket is back, and says they are current", async () => {
    const saved = await savedOnce();
    const h = coreWith(saved, { up: false, now: LATER });
    await Promise.all([h.core.loadMcus(), h.core.loadFarms()]);
    h.server.up = true;
    h.server.mcus = [...MCUS, mcuRecord(2)];
    h.socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    await vi.waitFor(() => expect(h.mcuIds()).toEqual([1, 2, 3]));
    await vi.waitFor(() => expect(h.ages()).toEqual({}));
    await vi.waitFor(() => expect(saved.rows.get("7/mcus")).toEqual({ value: h.server.mcus, savedAt: LATER }));
  });

  it("loads a list that failed with nothing saved when the server answers again, even before the socket is back", async () => {
    const h = coreWith(createMemorySavedLists(), { up: false });
    await expect(h.core.loadFarms()).rejects.toMatchObject({ code: "NETWORK" });
    expect(h.ages()).toEqual({});
    h.server.up = true;
    // Any answer of the server tells it is back, a refusal too (here the Offline notice's question).
    await expect(h.core.me()).rejects.toMatchObject({ code: "NOT_FOUND" });
    await vi.waitFor(() => expect(h.farmIds()).toEqual([1]));
    expect(h.server.gets.filter((g) => g === "/api/farms/myfarms/get")).toHaveLength(1);
  });

  it("asks once when the server is back and still refuses a list, not in a loop", async () => {
    const saved = await savedOnce();
    const h = coreWith(saved, { up: false, now: LATER });
    await h.core.loadMcus();
    h.server.up = true;
    h.server.failing = true;
    await expect(h.core.me()).rejects.toMatchObject({ code: "INTERNAL" });
    await vi.waitFor(() => expect(h.server.gets.filter((g) => g.startsWith("/api/mcus/"))).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(h.server.gets.filter((g) => g.startsWith("/api/mcus/"))).toHaveLength(1);
    // Still shown from the saved copy, with its age (the farms too: the start loaded them).
    expect(h.ages()).toEqual({ mcus: SAVED_AT, farms: SAVED_AT });
  });

  it("keeps a list the page already had when a reload cannot reach the server, with when it loaded", async () => {
    const h = coreWith(createMemorySavedLists());
    await h.core.loadFarms();
    h.server.up = false;
    h.clock.now = LATER;
    await expect(h.core.loadFarms()).resolves.toBeUndefined();
    expect(h.farmIds()).toEqual([1]);
    expect(h.ages()).toEqual({ farms: SAVED_AT });
  });

  it("does not stand in for a server that answered with an error", async () => {
    const saved = await savedOnce();
    const h = coreWith(saved, { failing: true });
    await expect(h.core.loadMcus()).rejects.toMatchObject({ code: "INTERNAL", serverMessage: "The lists are resting" });
    expect(h.ages()).toEqual({});
    expect(h.mcuIds() ?? []).toEqual([]);
  });

  it("never shows another client's saved lists", async () => {
    const saved = await savedOnce();
    const other = coreWith(saved, { clientId: 8, up: false });
    await expect(other.core.loadMcus()).rejects.toMatchObject({ code: "NETWORK" });
    expect(other.mcuIds() ?? []).toEqual([]);
  });

  it("forgets every saved list at sign-out", async () => {
    const saved = await savedOnce();
    const h = coreWith(saved);
    await h.core.logout();
    expect(saved.rows.size).toBe(0);
  });

  it("saves the MCU list with the readings that came since it loaded when the server goes away", async () => {
    const h = coreWith(createMemorySavedLists());
    await h.core.loadMcus();
    await vi.waitFor(() => expect(h.saved.rows.has("7/mcus")).toBe(true));
    const fresh = { ...reading, batteryLevel: 51, lastUpdated: "2026-11-23T10:05:00.000Z" };
    h.socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    h.clock.now = SAVED_AT + 5 * 60_000;
    h.socket.serve(SOCKET_EVENTS.realtimeData, { deviceId: macOf(1), payload: fresh });
    h.clock.now = LATER;
    h.socket.serve("disconnect", "transport close");
    await vi.waitFor(() => expect(h.saved.rows.get("7/mcus")!.savedAt).toBe(SAVED_AT + 5 * 60_000));
    const mcus = h.saved.rows.get("7/mcus")!.value as Mcu[];
    expect(mcus[1]).toMatchObject({ readings: fresh, lastSeen: new Date(SAVED_AT + 5 * 60_000).toISOString() });
    // The first MCU's record is newer than anything the socket said of it.
    expect(mcus[0]).toEqual(MCUS[0]);
  });
});
