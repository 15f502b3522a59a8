import { describe, expect, it } from "vitest";
import type { Mcu, ProfileConfig } from "../contract/entities.ts";
import type { McuLive } from "../contract/live.ts";
import { mcuRecord } from "../test-support/records.ts";
import { cardView, createCardViews } from "./card-view.ts";

const PROFILE: ProfileConfig = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 800 },
  ac: { based_on: "room_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 93 },
};
const linked = (mcu: Mcu): Mcu => ({
  ...mcu,
  sensors: [
    { sensor_id: 1, mac: "AA:00:00:00:01:01", name: "H1", type: "Humidity", mcu_id: mcu.mcu_id, createdAt: mcu.createdAt, updatedAt: mcu.updatedAt },
    { sensor_id: 2, mac: "AA:00:00:00:01:02", name: "H2", type: "Humidity", mcu_id: mcu.mcu_id, createdAt: mcu.createdAt, updatedAt: mcu.updatedAt },
  ] as Mcu["sensors"],
  profile_links: [{ id: 1, mcu_id: mcu.mcu_id, profile_id: 1, profile: { profile_id: 1, name: "Oyster fruiting", config: PROFILE } }] as Mcu["profile_links"],
});
const snapshot = (mac: string, over: Partial<McuLive>): McuLive => ({ mac, mcuId: 1, readings: null, status: "online", lastReadingAt: 1, online: true, pending: null, ...over });

describe("an MCU's card view", () => {
  it("joins the record with the snapshot and judges the readings against the linked profile", () => {
    const mcu = linked(mcuRecord(0));
    const view = cardView(mcu, snapshot(mcu.mac, { readings: { DHT: { temperature: 18, humidity: 70, count: 2 }, batteryLevel: 80 } }));
    expect(view).toMatchObject({ mcuId: 1, mac: mcu.mac, name: "Room 1", farmName: "Farm 1", profileName: "Oyster fruiting", online: true });
    expect(view.sensorTotals).toEqual({ CO2: 0, Humidity: 2, Soil_temp: 0, Moisture: 0 });
    expect(view.breaches.map((b) => b.metric)).toEqual(["humidity"]);
  });

  it("judges nothing while offline or before a reading, and names no profile when none is linked", () => {
    const mcu = linked(mcuRecord(0));
    expect(cardView(mcu, snapshot(mcu.mac, { online: false, readings: { DHT: { temperature: 18, humidity: 70, count: 2 } } })).breaches).toEqual([]);
    expect(cardView(mcu, undefined)).toMatchObject({ online: false, readings: null, pending: null, breaches: [] });
    expect(cardView(mcuRecord(1), undefined).profileName).toBeNull();
  });

  it("keeps its object while the record and the snapshot keep theirs", () => {
    const views = createCardViews();
    const mcu = mcuRecord(0);
    const snap = snapshot(mcu.mac, {});
    const view = views(mcu, snap);
    expect(views(mcu, snap)).toBe(view);
    expect(views(mcu, { ...snap })).not.toBe(view);
    expect(views({ ...mcu, name: "Renamed" }, snap).name).toBe("Renamed");
  });
});
