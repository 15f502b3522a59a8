import { describe, expect, it, vi } from "vitest";
import type { McuLive } from "../../streams/device-snapshots.ts";
import { createAppStore, keys } from "./store.ts";

const snap = (mac: string, humidity: number): McuLive => ({
  mac,
  mcuId: Number(mac.slice(1)),
  readings: { DHT: { temperature: 20, humidity, count: 1 } },
  status: "online",
  lastReadingAt: 1,
  online: true,
  pending: null,
});

describe("main-thread store", () => {
  it("re-notifies only the subscribers of the MCU a batch changes", () => {
    const store = createAppStore();
    store.apply({ kind: "live", batch: { seq: 1, upserts: Array.from({ length: 10 }, (_, i) => snap(`M${i}`, 80)), removed: [], clock: 0 } });
    const calls = Array.from({ length: 10 }, () => vi.fn());
    calls.forEach((fn, i) => store.subscribe(keys.live(`M${i}`), fn));
    const before = store.getLive("M3");

    expect(store.apply({ kind: "live", batch: { seq: 2, upserts: [snap("M7", 60)], removed: [], clock: 0 } })).toBe(2);
    calls.forEach((fn, i) => expect(fn, `M${i}`).toHaveBeenCalledTimes(i === 7 ? 1 : 0));
    expect(store.getLive("M7")!.readings!.DHT!.humidity).toBe(60);
    expect(store.getLive("M3")).toBe(before);
  });

  it("leaves no listener behind after unsubscribing", () => {
    const store = createAppStore();
    const offs = [store.subscribe(keys.live("A"), () => {}), store.subscribe(keys.live("A"), () => {}), store.subscribeMany([keys.anyLive, keys.entities("farms")], () => {})];
    expect(store.listenerCount()).toBe(4);
    offs.forEach((off) => off());
    expect(store.listenerCount()).toBe(0);
  });

  it("keeps an unchanged MCU entity's object across a reload and notifies only changed ones", () => {
    const store = createAppStore();
    const mcu = (id: number, name: string) => ({
      mcu_id: id,
      name,
      mac: `02:00:00:00:00:0${id}`,
      farm_id: 1,
      farm: { name: "F" },
      client_id: 1,
      status: "active" as const,
      readings: null,
      lastSeen: null,
      controllers: [],
      sensors: [],
      profile_links: [],
      createdAt: "",
      updatedAt: "",
    });
    store.apply({ kind: "entities", entities: { mcus: [mcu(1, "A"), mcu(2, "B")] } });
    const first = store.getMcu(1);
    const one = vi.fn();
    const two = vi.fn();
    const list = vi.fn();
    store.subscribe(keys.mcu(1), one);
    store.subscribe(keys.mcu(2), two);
    store.subscribe(keys.entities("mcus"), list);
    store.apply({ kind: "entities", entities: { mcus: [mcu(1, "A"), mcu(2, "B2")] } });
    expect(store.getMcu(1)).toBe(first);
    expect(one).not.toHaveBeenCalled();
    expect(two).toHaveBeenCalledTimes(1);
    expect(list).toHaveBeenCalledTimes(1);
  });

  it("derives farm statuses live from the MCUs, once per change, keeping the map until an input changes", () => {
    const store = createAppStore();
    const at = "2026-01-01T00:00:00.000Z";
    const mcu = { mcu_id: 1, name: "Room", mac: "M1", farm_id: 7, farm: { name: "F" }, client_id: 1, status: "active" as const, readings: null, lastSeen: null, controllers: [], sensors: [], profile_links: [], createdAt: at, updatedAt: at };
    const farm = { farm_id: 7, name: "F", location: "L", status: "active" as const, mcuCount: 1, client_id: 1, mcus: [{ id: 1, mcu_id: 1, name: "Room" }], createdAt: at, updatedAt: at };
    store.apply({ kind: "entities", entities: { farms: [farm], mcus: [mcu] } });
    // Not reported yet: every MCU of the farm is offline.
    expect(store.farmStatuses().get(7)).toBe("offline");
    store.apply({ kind: "live", batch: { seq: 1, upserts: [{ ...snap("M1", 80), mcuId: 1 }], removed: [], clock: 0 } });
    const calm = store.farmStatuses();
    expect(calm.get(7)).toBe("active");
    store.apply({ kind: "connection", state: "connected" });
    expect(store.farmStatuses()).toBe(calm);
    store.apply({ kind: "live", batch: { seq: 2, upserts: [{ ...snap("M1", 80), mcuId: 1, readings: { batteryLevel: 12 } }], removed: [], clock: 0 } });
    expect(store.farmStatuses().get(7)).toBe("warning");
  });
});
