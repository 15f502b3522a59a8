import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Notification } from "../../src/contract/entities.ts";
import type { McuEntry } from "../devices/mcu-directory.ts";
import { createTestServer, sampleConfig, type TestServer } from "../test-support.ts";
import { createAlerts } from "./alerts.ts";
import { thresholdBreaches } from "../../src/contract/conditions.ts";

const config = { ...sampleConfig, ac: { based_on: "soil_temp" as const, target_temp: 18 } };

describe("threshold rules", () => {
  it("finds each breach of the linked profile and nothing without a profile", () => {
    const reading = { DHT: { temperature: 30, humidity: 70, count: 1 }, CO2: { co2: 1500, count: 1 }, MOISTURE: { soil_moisture: 20, count: 1 }, SOIL_TEMP: { soil_temperature: 21, count: 1 } };
    expect(thresholdBreaches("Room A", reading, config).map((b) => b.type)).toEqual(["humidity_low", "co2_high", "soil_moisture_low", "temperature_off_target"]);
    expect(thresholdBreaches("Room A", reading, null)).toEqual([]);
  });

  it("judges temperature on the basis the AC profile names, within 2 °C of target", () => {
    const reading = { DHT: { temperature: 25, humidity: 90, count: 1 }, SOIL_TEMP: { soil_temperature: 19.9, count: 1 } };
    expect(thresholdBreaches("R", reading, config)).toEqual([]);
    const room = { ...config, ac: { based_on: "room_temp" as const, target_temp: 18 } };
    expect(thresholdBreaches("R", reading, room)).toEqual([
      { type: "temperature_off_target", title: "R: temperature off target", body: "Room temperature is 25 °C, target 18 °C.", metric: "temperature", limit: "target 18 °C" },
    ]);
  });
});

describe("alerts", () => {
  let server: TestServer;
  let clientId: number;
  beforeAll(async () => {
    server = await createTestServer();
    clientId = (await server.signUp()).clientId;
  });
  afterAll(() => server.close());

  function setup() {
    let now = Date.parse("2026-06-01T08:00:00Z");
    const sent: Notification[] = [];
    const alerts = createAlerts({ db: server.db, now: () => new Date(now), notify: (_c, n) => sent.push(n), graceMs: 60_000, repeatMs: 3600_000 });
    const entry: McuEntry = { mcuId: Math.floor(Math.random() * 1e9), clientId, mac: "02:00:00:00:00:01", name: "Room A", farmName: "Farm", status: "online", config };
    const settle = () => new Promise((r) => setTimeout(r, 50));
    return { alerts, entry, sent, settle, advance: (ms: number) => (now += ms) };
  }

  it("raises a breach only after it lasted the grace period, once while it lasts", async () => {
    const { alerts, entry, sent, settle, advance } = setup();
    const low = { DHT: { temperature: 18, humidity: 60, count: 1 } };
    alerts.onReading(entry, low);
    advance(59_000);
    alerts.onReading(entry, low);
    await settle();
    expect(sent).toEqual([]);
    advance(1000);
    alerts.onReading(entry, low);
    advance(10_000);
    alerts.onReading(entry, low);
    await settle();
    expect(sent.map((n) => n.type)).toEqual(["humidity_low"]);
    expect(sent[0]).toMatchObject({ title: "Room A: humidity low", body: "Humidity is 60%, below 80%.", read_status: false });
  });

  it("does not repeat a flapping breach within the repeat window", async () => {
    const { alerts, entry, sent, settle, advance } = setup();
    const low = { CO2: { co2: 5000, count: 1 } };
    const ok = { CO2: { co2: 500, count: 1 } };
    for (let i = 0; i < 5; i++) {
      alerts.onReading(entry, low);
      advance(61_000);
      alerts.onReading(entry, low);
      alerts.onReading(entry, ok);
      advance(60_000);
    }
    await settle();
    expect(sent.map((n) => n.type)).toEqual(["co2_high"]);
    advance(3600_000);
    alerts.onReading(entry, low);
    advance(61_000);
    alerts.onReading(entry, low);
    await settle();
    expect(sent.map((n) => n.type)).toEqual(["co2_high", "co2_high"]);
  });

  it("announces offline, then back online once, and suppresses a flapping connection", async () => {
    const { alerts, entry, sent, settle, advance } = setup();
    alerts.onStatus(entry, "online");
    alerts.onStatus(entry, "offline");
    advance(1000);
    alerts.onStatus(entry, "online");
    for (let i = 0; i < 5; i++) {
      advance(1000);
      alerts.onStatus(entry, "offline");
      alerts.onStatus(entry, "online");
    }
    await settle();
    expect(sent.map((n) => n.type)).toEqual(["mcu_offline", "mcu_online"]);
    expect(sent.map((n) => n.title)).toEqual(["Room A went offline", "Room A is back online"]);
  });

  it("raises low battery below 30 and again only after it recovered above 35", async () => {
    const { alerts, entry, sent, settle, advance } = setup();
    for (const level of [31, 29, 25, 33, 29]) alerts.onReading(entry, { batteryLevel: level });
    await settle();
    expect(sent.map((n) => n.body)).toEqual(["Battery at 29%. Replace or charge it soon."]);
    advance(3600_000);
    for (const level of [90, 20]) alerts.onReading(entry, { batteryLevel: level });
    await settle();
    expect(sent).toHaveLength(2);
  });
});
