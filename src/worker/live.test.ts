import { VirtualAction, VirtualTimeScheduler } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import type { Mcu, ProfileConfig } from "../contract/entities.ts";
import type { ConnectionState, SnapshotBatch, WallPage, WallRequest } from "../contract/live.ts";
import { SOCKET_EVENTS } from "../contract/realtime.ts";
import { farmRecord, macOf, mcuRecord } from "../test-support/records.ts";
import { connectingTo, fakeSocket } from "../test-support/fake-socket.ts";
import { createLive } from "./live.ts";

const PROFILE: ProfileConfig = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 800 },
  ac: { based_on: "room_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 93 },
};

/** 2 farms of 100 MCUs (the fixture's), all linked to the profile; the test plays the server's socket. */
function createDeps(clock?: () => number) {
  const scheduler = new VirtualTimeScheduler(VirtualAction, Infinity);
  const mcus: Mcu[] = Array.from({ length: 200 }, (_, i) => ({
    ...mcuRecord(i),
    profile_links: [{ id: i + 1, mcu_id: i + 1, profile_id: 1, profile: { profile_id: 1, name: "Oyster fruiting", config: PROFILE } }] as Mcu["profile_links"],
  }));
  const socket = fakeSocket({ connected: true });
  const batches: SnapshotBatch[] = [];
  const connections: { state: ConnectionState; heardAt: number | null | undefined }[] = [];
  const collectionEvents: { event: string; payload: unknown }[] = [];
  const live = createLive({
    scheduler,
    now: clock ?? (() => scheduler.now()),
    connect: connectingTo(socket),
    entities: { farms: [farmRecord(0), farmRecord(1)], mcus, batches: [] },
    deliver(batch) {
      batches.push(batch);
      queueMicrotask(() => live.ack());
      return true;
    },
    collectionEvent: (event, payload) => collectionEvents.push({ event, payload }),
    connection: (state, _message, heardAt) => connections.push({ state, heardAt }),
  });
  live.open("", 7);
  const run = async (until: number) => {
    scheduler.maxFrames = until;
    scheduler.flush();
    await Promise.resolve(); // the acks
  };
  const reading = (i: number, humidity: number) => socket.serve(SOCKET_EVENTS.realtimeData, { deviceId: macOf(i), payload: { DHT: { temperature: 18, humidity, count: 1 }, batteryLevel: 80 } });
  const walls = () => batches.flatMap((b): WallPage[] => (b.wall ? [b.wall] : []));
  return { live, socket, scheduler, run, reading, walls, batches, connections, collectionEvents };
}

/** A 1000 × 1000 px screen with room for 3 rows of 4 tiles under one heading. */
const screen = (page: number): WallRequest => ({ width: 1000, height: 1000, tileWidth: 250, tileHeight: 300, gap: 0, headingHeight: 100, sectionGap: 0, page });

describe("the wall's page, computed in the core", () => {
  it("sends only the page asked for, its farm's tiles trouble first, and again only when it changes", async () => {
    const { live, socket, run, reading, walls } = createDeps();
    socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    for (let i = 0; i < 200; i++) reading(i, 88);
    live.setWall(screen(0));
    await run(100);
    const first = walls().at(-1)!;
    expect(first).toMatchObject({ page: 0, pages: 17, scale: 1, columns: 4, counts: { mcus: 200, outOfProfile: 0, offline: 0, lowBattery: 0 } });
    expect(first.sections.map((s) => [s.name, s.from, s.mcuIds])).toEqual([["Farm 1", 0, Array.from({ length: 12 }, (_, k) => k + 1)]]);

    // A reading that changes no state: no page crosses.
    const sent = walls().length;
    reading(150, 87);
    await run(600);
    expect(walls().length).toBe(sent);

    // MCU 51 (farm 1) goes out of profile: it leads its farm's first page, with the farm's counts
    // (the order moves at most every 2 s).
    reading(50, 70);
    await run(1200);
    expect(walls().length).toBe(sent);
    await run(2200);
    const trouble = walls().at(-1)!;
    expect(trouble.sections[0]!.mcuIds.slice(0, 3)).toEqual([51, 1, 2]);
    expect(trouble.sections[0]!.counts).toEqual({ mcus: 100, outOfProfile: 1, offline: 0, lowBattery: 0 });

    // The next page of farm 2 is asked for: its tiles and no others cross.
    live.setWall(screen(10));
    await run(2300);
    // (Page 8 ends farm 1 with a row and starts farm 2 with another: farm 2 is larger than a page.)
    expect(walls().at(-1)!.sections.map((s) => [s.name, s.from, s.mcuIds.length])).toEqual([["Farm 2", 16, 12]]);
  });

  it("sends the page again when it is asked for again (a wall that mounts anew), and none once no wall is on screen", async () => {
    const { live, socket, run, reading, walls } = createDeps();
    socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    reading(0, 88);
    live.setWall(screen(0));
    await run(100);
    const sent = walls().length;
    live.setWall(screen(0));
    await run(200);
    expect(walls().length).toBe(sent + 1);
    live.setWall(null);
    reading(3, 60);
    await run(800);
    expect(walls().length).toBe(sent + 1);
  });
});

describe("a wall tile's card view", () => {
  it("brings new values at most once a second, and a change of state at once", async () => {
    const { live, socket, run, reading, walls, batches } = createDeps();
    socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    for (let i = 0; i < 200; i++) reading(i, 88);
    live.setWall(screen(0));
    await run(100);
    expect(walls().at(-1)!.sections[0]!.mcuIds).toContain(2);
    live.setCardInterest([2]);
    await run(200);
    const views = () => batches.flatMap((b) => (b.cards ?? []).map((v) => v.readings?.DHT?.humidity));
    expect(views()).toEqual([88]);
    // New values within the second: they wait for its end, then the latest comes.
    reading(1, 88.5);
    await run(400);
    reading(1, 88.7);
    await run(700);
    expect(views()).toEqual([88]);
    await run(1300);
    expect(views()).toEqual([88, 88.7]);
    // Out of profile: at once, whatever the second.
    reading(1, 70);
    await run(1350);
    expect(views()).toEqual([88, 88.7, 70]);
    // Off the wall (a dashboard card), every change comes in the next frame.
    live.setWall(null);
    reading(1, 71);
    await run(1400);
    expect(views()).toEqual([88, 88.7, 70, 71]);
  });
});

describe("when the server was last heard from", () => {
  it("tells it with the connection state, so a screen can say how old its data is while the link is down", async () => {
    let now = 1_000;
    const { socket, reading, connections } = createDeps(() => now);
    expect(connections).toEqual([{ state: "connecting", heardAt: null }]);
    socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    now = 5_000;
    reading(1, 88);
    now = 30_000;
    // Only the keep-alive ping since: the link was up until then.
    socket.serve("io:ping");
    now = 80_000;
    socket.serve("disconnect", "transport close");
    expect(connections.at(-1)).toEqual({ state: "reconnecting", heardAt: 30_000 });
    // Each attempt that fails says the same.
    now = 90_000;
    socket.serve("connect_error", new Error("websocket error"));
    expect(connections.at(-1)).toEqual({ state: "reconnecting", heardAt: 30_000 });
  });
});

describe("the server's events, checked where they enter the core", () => {
  it("counts and drops a malformed event or batch entry, and folds the rest of the stream", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const { live, socket, run, reading, collectionEvents } = createDeps();
      socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
      live.setInterest([macOf(0), macOf(1), macOf(2)]);
      // Not a reading: a humidity as text, a battery above 100 %, no payload at all, not even an object.
      socket.serve(SOCKET_EVENTS.realtimeData, { deviceId: macOf(0), payload: { DHT: { temperature: 18, humidity: "86", count: 1 } } });
      socket.serve(SOCKET_EVENTS.realtimeData, { deviceId: macOf(0), payload: { batteryLevel: 140 } });
      socket.serve(SOCKET_EVENTS.realtimeData, { deviceId: macOf(0) });
      socket.serve(SOCKET_EVENTS.deviceStatusUpdate, "online");
      // A batch with one bad entry among good ones: only that entry is dropped.
      socket.serve(SOCKET_EVENTS.realtimeBatch, {
        data: [
          { deviceId: macOf(1), payload: { DHT: { temperature: 18, humidity: 81, count: 1 } } },
          { deviceId: macOf(2), payload: { CO2: { co2: null, count: 1 } } },
        ],
        status: [{ deviceId: macOf(2), status: "online" }],
      });
      socket.serve(SOCKET_EVENTS.realtimeBatch, { data: "lots" });
      socket.serve(SOCKET_EVENTS.notification, { notification_id: "7" });
      expect(live.stats()).toEqual({ droppedEvents: 7 });
      expect(collectionEvents).toEqual([]);
      // Warned once per kind of event, not per event.
      expect(warn).toHaveBeenCalledTimes(4);

      // The stream goes on: a good reading after them is folded.
      reading(0, 84);
      await run(100);
      expect(live.state.devices.get(macOf(0))?.readings?.DHT?.humidity).toBe(84);
      expect(live.state.devices.get(macOf(1))?.readings?.DHT?.humidity).toBe(81);
      expect(live.state.devices.get(macOf(2))?.readings ?? null).toBeNull();
      expect(live.state.devices.get(macOf(2))?.status).toBe("online");
      expect(live.stats()).toEqual({ droppedEvents: 7 });
    } finally {
      warn.mockRestore();
    }
  });

  it("keeps a device whose stored readings do not hold, without them, and passes a checked notification on", () => {
    const { live, socket, collectionEvents } = createDeps();
    socket.serve(SOCKET_EVENTS.authenticated, {
      devices: [
        { deviceId: macOf(0), mcu_id: 1, status: "online", readings: { batteryLevel: 180 }, lastSeen: null },
        { deviceId: macOf(1), mcu_id: 2, status: "online", readings: null, lastSeen: null },
        { deviceId: macOf(2), mcu_id: "3", status: "online", readings: null, lastSeen: null },
      ],
    });
    expect([...live.state.devices.keys()].sort()).toEqual([macOf(0), macOf(1)]);
    expect(live.state.devices.get(macOf(0))?.readings).toBeNull();
    expect(live.stats().droppedEvents).toBe(1);

    const note = { notification_id: 4, type: "wash", title: "Wash day", body: "", read_status: false, createdAt: "2026-11-23T10:00:00.000Z" };
    socket.serve(SOCKET_EVENTS.notification, note);
    expect(collectionEvents).toEqual([{ event: "notification", payload: note }]);
  });
});

describe("the MCU Manager's card views, made in the core", () => {
  it("sends the views of the mounted cards only, and again only when what a card shows changed", async () => {
    const { live, socket, run, batches } = createDeps();
    const views = () => batches.flatMap((b) => b.managerCards ?? []);
    const report = (i: number, batteryLevel: number) => socket.serve(SOCKET_EVENTS.realtimeData, { deviceId: macOf(i), payload: { DHT: { temperature: 18, humidity: 88, count: 1 }, batteryLevel } });
    socket.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    report(0, 80.2);
    report(5, 80);
    live.setManagerCardInterest([1, 2]);
    await run(100);
    expect(views().map((v) => [v.mcuId, v.status, v.battery, v.lastSeenText])).toEqual([
      [1, "online", 80.2, "Just now"],
      [2, "active", null, "Never"],
    ]);
    // Readings that move nothing shown (the same whole percent, still "Just now"), and one of an MCU without a card: nothing crosses.
    report(0, 80.4);
    report(5, 20);
    await run(200);
    expect(views().length).toBe(2);
    // A whole percent less: the card's view comes again.
    report(0, 79.4);
    await run(300);
    expect(views().slice(2).map((v) => [v.mcuId, v.battery])).toEqual([[1, 79.4]]);
    // Two minutes without a reading: the clock's ticks move Last Seen's words and the badge to Offline.
    for (let t = 30_100; t <= 150_100; t += 30_000) await run(t);
    await run(150_200);
    const last = views().at(-1)!;
    expect([last.mcuId, last.status, last.lastSeenText]).toEqual([1, "offline", "2m ago"]);
  });
});
