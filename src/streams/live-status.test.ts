import { describe, expect, it } from "vitest";
import type { Farm, LiveReading, Mcu, ProfileConfig } from "../contract/entities.ts";
import type { McuLive } from "./device-snapshots.ts";
import { deriveFarmStatuses, mcuLiveStatus } from "./live-status.ts";

const at = "2026-01-01T00:00:00.000Z";

const CONFIG: ProfileConfig = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 800 },
  ac: { based_on: "room_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 93 },
};

/** Inside CONFIG's limits, battery fine. */
const CALM: LiveReading = { DHT: { temperature: 18.5, humidity: 88, count: 1 }, CO2: { co2: 700, count: 1 }, batteryLevel: 80 };

const live = (over: Partial<McuLive> = {}): McuLive => ({
  mac: "AA:00:00:00:00:01",
  mcuId: 1,
  readings: CALM,
  status: "online",
  lastReadingAt: 1,
  online: true,
  pending: null,
  ...over,
});

function mcu(mcu_id: number, farm_id: number, config: ProfileConfig | null = CONFIG): Mcu {
  return {
    mcu_id,
    name: `Room ${mcu_id}`,
    mac: `AA:00:00:00:00:0${mcu_id}`,
    farm_id,
    farm: { name: `Farm ${farm_id}` },
    client_id: 1,
    status: "active",
    readings: null,
    lastSeen: null,
    controllers: [],
    sensors: [],
    profile_links: config ? [{ id: mcu_id, mcu_id, profile_id: 1, profile: { profile_id: 1, name: "Oyster fruiting", config } }] : [],
    createdAt: at,
    updatedAt: at,
  };
}

const farm = (farm_id: number, mcuIds: number[], status: Farm["status"] = "active"): Farm => ({
  farm_id,
  name: `Farm ${farm_id}`,
  location: "Byblos",
  status,
  mcuCount: mcuIds.length,
  client_id: 1,
  mcus: mcuIds.map((id) => ({ id, mcu_id: id, name: `Room ${id}` })),
  createdAt: at,
  updatedAt: at,
});

describe("mcuLiveStatus", () => {
  it("is online while a reading arrived within 120 s, whatever the record or an older status says", () => {
    expect(mcuLiveStatus("active", live())).toBe("online");
    expect(mcuLiveStatus("offline", live({ status: "offline" }))).toBe("online");
  });

  it("is offline once a device that reported has been silent for 120 s, even if it last said online", () => {
    expect(mcuLiveStatus("online", live({ online: false }))).toBe("offline");
    expect(mcuLiveStatus("online", live({ online: false, status: "online" }))).toBe("offline");
  });

  it("keeps a new MCU that never reported Active, unless it said it is offline", () => {
    expect(mcuLiveStatus("active", live({ readings: null, lastReadingAt: null, online: false, status: "active" }))).toBe("active");
    expect(mcuLiveStatus("active", live({ readings: null, lastReadingAt: null, online: false, status: "online" }))).toBe("active");
    expect(mcuLiveStatus("active", live({ readings: null, lastReadingAt: null, online: false, status: "offline" }))).toBe("offline");
  });

  it("keeps Maintenance set on the MCU whatever the device does", () => {
    expect(mcuLiveStatus("maintenance", live())).toBe("maintenance");
    expect(mcuLiveStatus("online", live({ status: "maintenance", online: false }))).toBe("maintenance");
  });

  it("uses the loaded record until the live connection has told anything about the MCU", () => {
    expect(mcuLiveStatus("active", undefined)).toBe("active");
    expect(mcuLiveStatus("offline", undefined)).toBe("offline");
  });
});

describe("deriveFarmStatuses", () => {
  const statusOf = (farms: Farm[], mcus: Mcu[], lives: Record<string, McuLive>, alarmed: number[] | null = []) =>
    Object.fromEntries(deriveFarmStatuses(farms, mcus, (mac) => lives[mac], alarmed && new Set(alarmed)));
  const calm = { "AA:00:00:00:00:01": live(), "AA:00:00:00:00:02": live(), "AA:00:00:00:00:03": live() };

  it("turns a farm Warning while one of its MCUs has an active alarm, and not for a reading alone", () => {
    const farms = [farm(1, [1, 2]), farm(2, [3])];
    const mcus = [mcu(1, 1), mcu(2, 1), mcu(3, 2)];
    expect(statusOf(farms, mcus, calm)).toEqual({ 1: "active", 2: "active" });
    expect(statusOf(farms, mcus, calm, [2])).toEqual({ 1: "warning", 2: "active" });
    expect(statusOf(farms, mcus, calm, [3, 1])).toEqual({ 1: "warning", 2: "warning" });
    // Out of profile within the grace period, or a low battery not yet alarmed: the alarm decides.
    const breaching = { ...calm, "AA:00:00:00:00:02": live({ readings: { ...CALM, DHT: { temperature: 18, humidity: 70, count: 1 } } }), "AA:00:00:00:00:03": live({ readings: { ...CALM, batteryLevel: 12 } }) };
    expect(statusOf(farms, mcus, breaching)).toEqual({ 1: "active", 2: "active" });
  });

  it("warns about an MCU with an alarm while it is offline, and calls a farm offline when all its MCUs are", () => {
    const farms = [farm(1, [1, 2])];
    const mcus = [mcu(1, 1), mcu(2, 1)];
    const offline = live({ online: false });
    expect(statusOf(farms, mcus, { "AA:00:00:00:00:01": offline, "AA:00:00:00:00:02": live() }, [1])).toEqual({ 1: "warning" });
    expect(statusOf(farms, mcus, { "AA:00:00:00:00:01": offline, "AA:00:00:00:00:02": live() }, [])).toEqual({ 1: "active" });
    // Every MCU silent (never reported counts as silent): offline, whatever alarms they have.
    expect(statusOf(farms, mcus, { "AA:00:00:00:00:01": offline }, [1, 2])).toEqual({ 1: "offline" });
  });

  it("groups MCUs by their own farm_id, and calls a farm without MCUs active", () => {
    // MCU 2 moved to farm 2 after the farms were loaded: its alarm counts for farm 2.
    const farms = [farm(1, [1, 2]), farm(2, []), farm(3, [])];
    const mcus = [mcu(1, 1), mcu(2, 2)];
    expect(statusOf(farms, mcus, calm, [2])).toEqual({ 1: "active", 2: "warning", 3: "active" });
  });

  it("keeps the server's status for a farm whose MCUs are not loaded", () => {
    expect(statusOf([farm(1, [1], "warning"), farm(2, [], "offline")], [], {})).toEqual({ 1: "warning", 2: "active" });
  });

  it("keeps the server's warning until the alarms are known, and judges offline live meanwhile", () => {
    const farms = [farm(1, [1], "warning"), farm(2, [2], "active"), farm(3, [3], "warning"), farm(4, [], "offline")];
    const mcus = [mcu(1, 1), mcu(2, 2), mcu(3, 3)];
    const lives = { ...calm, "AA:00:00:00:00:03": live({ online: false }) };
    expect(statusOf(farms, mcus, lives, null)).toEqual({ 1: "warning", 2: "active", 3: "offline", 4: "active" });
    expect(statusOf(farms, mcus, lives, [])).toEqual({ 1: "active", 2: "active", 3: "offline", 4: "active" });
  });
});
