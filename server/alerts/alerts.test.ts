import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Notification } from "../../src/contract/entities.ts";
import type { McuEntry } from "../devices/mcu-directory.ts";
import { createTestServer, sampleConfig, type TestClient, type TestServer } from "../test-support.ts";
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
  let client: TestClient;
  let farmId: number;
  beforeAll(async () => {
    server = await createTestServer();
    client = await server.signUp();
    farmId = (await client.post("/api/farms", { name: "Farm", location: "Byblos", client_id: client.clientId })).json().farm_id;
  });
  afterAll(() => server.close());

  /** A registered MCU of the client. */
  async function mcu(name = "Room A"): Promise<McuEntry> {
    const device = await client.mcuDevice();
    const mac = device.mac;
    const res = await client.post("/api/mcus", { name, ...device, farm_id: farmId, status: "active" });
    if (res.statusCode !== 201) throw new Error(res.body);
    return { mcuId: res.json().mcu_id, clientId: client.clientId, mac, name, farmName: "Farm", status: "online", config };
  }

  /** The alert engine as a server (re)start creates it, on the same database and clock. */
  function engine(clock: { now: number }, sent: Notification[]) {
    return createAlerts({ db: server.db, now: () => new Date(clock.now), notify: (_c, n) => sent.push(n), graceMs: 60_000, repeatMs: 3600_000 });
  }

  async function setup(name = "Room A") {
    const clock = { now: Date.parse("2026-06-01T08:00:00Z") };
    const sent: Notification[] = [];
    const alerts = engine(clock, sent);
    return { alerts, entry: await mcu(name), sent, clock, restart: () => engine(clock, sent), advance: (ms: number) => (clock.now += ms) };
  }

  it("raises a breach only after it lasted the grace period, once while it lasts", async () => {
    const { alerts, entry, sent, advance } = await setup();
    const low = { DHT: { temperature: 18, humidity: 60, count: 1 } };
    alerts.onReading(entry, low);
    advance(59_000);
    alerts.onReading(entry, low);
    await alerts.idle();
    expect(sent).toEqual([]);
    advance(1000);
    alerts.onReading(entry, low);
    advance(10_000);
    alerts.onReading(entry, low);
    await alerts.idle();
    expect(sent.map((n) => n.type)).toEqual(["humidity_low"]);
    expect(sent[0]).toMatchObject({ title: "Room A: humidity low", body: "Humidity is 60%, below 80%.", read_status: false });
  });

  it("does not repeat a flapping breach within the repeat window", async () => {
    const { alerts, entry, sent, advance } = await setup();
    const low = { CO2: { co2: 5000, count: 1 } };
    const ok = { CO2: { co2: 500, count: 1 } };
    for (let i = 0; i < 5; i++) {
      alerts.onReading(entry, low);
      advance(61_000);
      alerts.onReading(entry, low);
      alerts.onReading(entry, ok);
      advance(60_000);
    }
    await alerts.idle();
    expect(sent.map((n) => n.type)).toEqual(["co2_high"]);
    advance(3600_000);
    alerts.onReading(entry, low);
    advance(61_000);
    alerts.onReading(entry, low);
    await alerts.idle();
    expect(sent.map((n) => n.type)).toEqual(["co2_high", "co2_high"]);
  });

  it("announces offline, then back online once, and suppresses a flapping connection", async () => {
    const { alerts, entry, sent, advance } = await setup();
    alerts.onStatus(entry, "online");
    alerts.onStatus(entry, "offline");
    advance(1000);
    alerts.onStatus(entry, "online");
    for (let i = 0; i < 5; i++) {
      advance(1000);
      alerts.onStatus(entry, "offline");
      alerts.onStatus(entry, "online");
    }
    await alerts.idle();
    expect(sent.map((n) => n.type)).toEqual(["mcu_offline", "mcu_online"]);
    expect(sent.map((n) => n.title)).toEqual(["Room A went offline", "Room A is back online"]);
  });

  it("raises low battery below 30 and again only after it recovered above 35", async () => {
    const { alerts, entry, sent, advance } = await setup();
    for (const level of [31, 29, 25, 33, 29]) alerts.onReading(entry, { batteryLevel: level });
    await alerts.idle();
    expect(sent.map((n) => n.body)).toEqual(["Battery at 29%. Replace or charge it soon."]);
    advance(3600_000);
    for (const level of [90, 20]) alerts.onReading(entry, { batteryLevel: level });
    await alerts.idle();
    expect(sent).toHaveLength(2);
  });

  it("does not raise a low battery again after a restart while the battery stays low, and re-arms once it recovered", async () => {
    const { alerts, entry, sent, advance, restart } = await setup();
    alerts.onReading(entry, { batteryLevel: 24 });
    await alerts.idle();
    expect(sent.map((n) => n.title)).toEqual(["Room A: battery low"]);

    // Restarts, even hours later (past the repeat window): the condition still holds, so no new alert.
    for (let i = 0; i < 3; i++) {
      advance(2 * 3600_000);
      const again = restart();
      again.onReading(entry, { batteryLevel: 23 });
      await again.idle();
    }
    expect(sent).toHaveLength(1);

    // Charged, then low again: that is a new alert, after a restart as well.
    let after = restart();
    after.onReading(entry, { batteryLevel: 80 });
    await after.idle();
    after = restart();
    after.onReading(entry, { batteryLevel: 22 });
    await after.idle();
    expect(sent.map((n) => n.body)).toEqual(["Battery at 24%. Replace or charge it soon.", "Battery at 22%. Replace or charge it soon."]);
  });

  it("keeps a breach's alert open across a restart until the reading is back within the profile", async () => {
    const { alerts, entry, sent, advance, restart } = await setup();
    const high = { CO2: { co2: 5000, count: 1 } };
    alerts.onReading(entry, high);
    advance(61_000);
    alerts.onReading(entry, high);
    await alerts.idle();
    expect(sent.map((n) => n.type)).toEqual(["co2_high"]);

    advance(2 * 3600_000);
    let next = restart();
    next.onReading(entry, high);
    advance(61_000);
    next.onReading(entry, high);
    await next.idle();
    expect(sent).toHaveLength(1);

    // Back within the limits (seen after another restart): re-armed, so the next breach is announced.
    next = restart();
    next.onReading(entry, { CO2: { co2: 500, count: 1 } });
    advance(2 * 3600_000);
    next.onReading(entry, high);
    advance(61_000);
    next.onReading(entry, high);
    await next.idle();
    expect(sent.map((n) => n.type)).toEqual(["co2_high", "co2_high"]);
  });

  it("announces an MCU back online after a restart when its going offline was announced before it", async () => {
    const { alerts, entry, sent, advance, restart } = await setup();
    alerts.onStatus(entry, "offline");
    await alerts.idle();
    advance(2 * 3600_000);
    let next = restart();
    next.onStatus(entry, "offline");
    await next.idle();
    expect(sent.map((n) => n.type)).toEqual(["mcu_offline"]);
    next = restart();
    next.onStatus(entry, "online");
    next.onStatus(entry, "online");
    await next.idle();
    expect(sent.map((n) => n.title)).toEqual(["Room A went offline", "Room A is back online"]);
    // Not again after yet another restart: that alert is resolved.
    next = restart();
    next.onStatus(entry, "online");
    await next.idle();
    expect(sent).toHaveLength(2);
  });

  it("announces a condition once when two server nodes see it together", async () => {
    const { alerts, entry, sent, restart } = await setup("Room Twice");
    const other = restart();
    alerts.onReading(entry, { batteryLevel: 10 });
    other.onReading(entry, { batteryLevel: 10 });
    await Promise.all([alerts.idle(), other.idle()]);
    expect(sent.map((n) => n.type)).toEqual(["battery_low"]);
    const stored = (await client.get(`/notifications/${client.clientId}`)).json() as Notification[];
    expect(stored.filter((n) => n.title === "Room Twice: battery low")).toHaveLength(1);
  });
});
