import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALARM_PATHS, DEFAULT_NOTIFICATION_PREFERENCES, notificationPath, notificationSubject, type Alarm, type NotificationPreferences } from "../../src/contract/alarms-values.ts";
import { thresholdBreaches } from "../../src/contract/conditions.ts";
import type { Notification } from "../../src/contract/entities.ts";
import { preferencesRepo } from "../db/preferences-repo.ts";
import type { McuEntry } from "../devices/mcu-directory.ts";
import { createTestServer, sampleConfig, type TestClient, type TestServer } from "../test-support/test-server.ts";
import { createAlerts } from "./alerts.ts";

const config = { ...sampleConfig, ac: { based_on: "soil_temp" as const, target_temp: 18 } };

const GRACE = 60_000;
const HOLD = 120_000;
const REPEAT = 3600_000;

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
      { type: "temperature_off_target", title: "R: temperature off target", body: "Room temperature is 25 °C, target 18 °C.", metric: "temperature", limit: "target 18 °C", threshold: 18 },
    ]);
  });
});

describe("alarms", () => {
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
    return { mcuId: res.json().mcu_id, clientId: client.clientId, farmId, mac, name, farmName: "Farm", status: "online", config };
  }

  interface Heard {
    notes: Notification[];
    alarms: Alarm[];
    pushes: { clientId: number; title: string; body: string; link?: string }[];
  }

  /** The alarm engine as a server (re)start creates it, on the same database and clock. */
  function engine(clock: { now: number }, heard: Heard) {
    return createAlerts({
      db: server.db,
      now: () => new Date(clock.now),
      notify: (_c, n) => heard.notes.push(n),
      alarmChanged: (_c, a) => heard.alarms.push(a),
      push: async (clientId, m) => void heard.pushes.push({ clientId, ...m }),
      preferences: (clientId) => preferencesRepo(server.db).get(clientId),
      graceMs: GRACE,
      holdMs: HOLD,
      repeatMs: REPEAT,
    });
  }

  async function setup(name = "Room A") {
    const clock = { now: Date.parse("2026-06-01T08:00:00Z") };
    const heard: Heard = { notes: [], alarms: [], pushes: [] };
    const alerts = engine(clock, heard);
    const entry = await mcu(name);
    return {
      alerts,
      entry,
      heard,
      sent: heard.notes,
      clock,
      restart: () => engine(clock, heard),
      advance: (ms: number) => (clock.now += ms),
      /** The MCU's alarms as the API lists them (every state), newest first. */
      listed: async () => ((await client.get(`${ALARM_PATHS.alarms}?state=all&mcu_id=${entry.mcuId}`)).json() as { alarms: Alarm[] }).alarms,
    };
  }

  /** `reading` on every step of `ms`, `times` times (a device reporting). */
  function report(alerts: ReturnType<typeof engine>, entry: McuEntry, advance: (ms: number) => void, reading: object, times: number, ms: number) {
    for (let i = 0; i < times; i++) {
      alerts.onReading(entry, reading);
      advance(ms);
    }
  }

  const lowHumidity = { DHT: { temperature: 18, humidity: 60, count: 1 } };
  const goodHumidity = { DHT: { temperature: 18, humidity: 88, count: 1 } };

  it("opens an alarm once a breach lasted the grace period, once while it lasts, and tells the sockets the whole alarm", async () => {
    const { alerts, entry, sent, heard, advance, listed } = await setup();
    alerts.onReading(entry, lowHumidity);
    advance(59_000);
    alerts.onReading(entry, lowHumidity);
    await alerts.idle();
    expect(sent).toEqual([]);
    expect(await listed()).toEqual([]);
    advance(1000);
    alerts.onReading(entry, lowHumidity);
    advance(10_000);
    alerts.onReading(entry, lowHumidity);
    await alerts.idle();
    expect(sent.map((n) => n.type)).toEqual(["humidity_low"]);
    expect(sent[0]).toMatchObject({ title: "Room A: humidity low", body: "Humidity is 60%, below 80%.", read_status: false });
    expect(heard.alarms).toEqual([
      {
        alarm_id: expect.any(Number),
        kind: "humidity_low",
        state: "open",
        mcu_id: entry.mcuId,
        mac: entry.mac,
        mcu_name: "Room A",
        farm_id: farmId,
        farm_name: "Farm",
        title: "Room A: humidity low",
        body: "Humidity is 60%, below 80%.",
        // What both say, for the app to say in each reader's language.
        words: {
          title: { key: "alarms.humidityLow.title", values: { name: "Room A" } },
          body: { key: "alarms.humidityLow.body", values: { value: { num: 60, decimals: 1 }, limit: 80 } },
        },
        metric: "humidity",
        opened_value: 60,
        worst_value: 60,
        opened_at: "2026-06-01T08:01:00.000Z",
        acknowledged_at: null,
        acknowledged_by: null,
        ack_comment: null,
        resolved_at: null,
      },
    ]);
    expect(await listed()).toEqual(heard.alarms);
  });

  it("resolves an alarm once its condition stayed clear for the hold time, keeps it with its duration, and opens a new one when it returns", async () => {
    const { alerts, entry, sent, heard, advance, listed } = await setup();
    report(alerts, entry, advance, lowHumidity, 3, 30_000); // opened at 08:01:00
    report(alerts, entry, advance, goodHumidity, 5, 30_000); // clear from 08:01:30, held at 08:03:30
    await alerts.idle();
    expect(heard.alarms.map((a) => a.state)).toEqual(["open", "resolved"]);
    const [first] = await listed();
    expect(first).toMatchObject({ state: "resolved", opened_at: "2026-06-01T08:01:00.000Z", resolved_at: "2026-06-01T08:03:30.000Z" });

    // Back out of range past the grace period: a new alarm (the bell keeps quiet within the repeat window).
    report(alerts, entry, advance, lowHumidity, 4, 30_000);
    await alerts.idle();
    const [second, again] = await listed();
    expect(again).toEqual(first);
    expect(second).toMatchObject({ kind: "humidity_low", state: "open" });
    expect(second!.alarm_id).not.toBe(first!.alarm_id);
    expect(heard.alarms.map((a) => `${a.alarm_id} ${a.state}`)).toEqual([`${first!.alarm_id} open`, `${first!.alarm_id} resolved`, `${second!.alarm_id} open`]);
    expect(sent).toHaveLength(1);
  });

  it("holds an alarm open while its condition flaps within the hold time: no resolution, no second alarm", async () => {
    const { alerts, entry, sent, heard, advance, listed } = await setup();
    report(alerts, entry, advance, lowHumidity, 3, 30_000);
    for (let i = 0; i < 10; i++) {
      // Clear for 100 s (under the 120 s hold), then out of range again.
      report(alerts, entry, advance, goodHumidity, 5, 20_000);
      report(alerts, entry, advance, lowHumidity, 1, 20_000);
    }
    await alerts.idle();
    expect(heard.alarms.map((a) => a.state)).toEqual(["open"]);
    expect((await listed()).map((a) => a.state)).toEqual(["open"]);
    expect(sent).toHaveLength(1);
  });

  it("announces an alarm that opens again only outside the repeat window of the last announcement", async () => {
    const { alerts, entry, sent, heard, advance, listed } = await setup();
    const high = { CO2: { co2: 5000, count: 1 } };
    const ok = { CO2: { co2: 500, count: 1 } };
    // Each cycle: out of range past the grace, then clear past the hold: an alarm opens and resolves.
    for (let i = 0; i < 3; i++) {
      report(alerts, entry, advance, high, 3, 40_000);
      report(alerts, entry, advance, ok, 4, 50_000);
    }
    await alerts.idle();
    expect((await listed()).map((a) => a.state)).toEqual(["resolved", "resolved", "resolved"]);
    expect(sent.map((n) => n.type)).toEqual(["co2_high"]);
    expect(heard.pushes).toHaveLength(1);
    advance(REPEAT);
    report(alerts, entry, advance, high, 3, 40_000);
    await alerts.idle();
    expect(sent.map((n) => n.type)).toEqual(["co2_high", "co2_high"]);
    expect(heard.pushes).toHaveLength(2);
  });

  it("opens an offline alarm, resolves it when the MCU is back, announces that once, and keeps a flapping connection quiet", async () => {
    const { alerts, entry, sent, heard, advance, listed } = await setup();
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
    expect(heard.pushes.map((p) => p.title)).toEqual(["Room A went offline", "Room A is back online"]);
    // Every time it was gone is on the record, each resolved.
    const alarms = await listed();
    expect(alarms).toHaveLength(6);
    expect(alarms.every((a) => a.kind === "mcu_offline" && a.state === "resolved")).toBe(true);
    expect(heard.alarms.filter((a) => a.state === "resolved")).toHaveLength(6);
  });

  it("opens low battery below 30 and resolves it only once above 35 for the hold time", async () => {
    const { alerts, entry, sent, heard, advance, listed } = await setup();
    for (const level of [31, 29, 25, 33, 29]) alerts.onReading(entry, { batteryLevel: level });
    await alerts.idle();
    expect(sent.map((n) => n.body)).toEqual(["Battery at 29%. Replace or charge it soon."]);
    // Above 35, then between the limits: the clearing starts over.
    alerts.onReading(entry, { batteryLevel: 40 });
    advance(HOLD - 1000);
    alerts.onReading(entry, { batteryLevel: 33 });
    advance(2000);
    alerts.onReading(entry, { batteryLevel: 40 });
    await alerts.idle();
    expect((await listed()).map((a) => a.state)).toEqual(["open"]);
    advance(HOLD);
    alerts.onReading(entry, { batteryLevel: 90 });
    await alerts.idle();
    expect((await listed()).map((a) => a.state)).toEqual(["resolved"]);
    advance(REPEAT);
    alerts.onReading(entry, { batteryLevel: 20 });
    await alerts.idle();
    expect(sent).toHaveLength(2);
    // 25 % was lower than the 29 % it opened at: the alarm's worst value changed.
    expect(heard.alarms.map((a) => `${a.state} ${a.worst_value}`)).toEqual(["open 29", "open 25", "resolved 25", "open 20"]);
  });

  it("keeps the worst value an alarm reached while unresolved, tells the sockets when it worsens, and keeps it after a restart and once resolved", async () => {
    const { alerts, entry, heard, advance, listed, restart } = await setup();
    const humidity = (h: number) => ({ DHT: { temperature: 18, humidity: h, count: 1 } });
    report(alerts, entry, advance, lowHumidity, 3, 30_000);
    for (const h of [58, 55.04, 57, 55]) report(alerts, entry, advance, humidity(h), 1, 10_000);
    await alerts.idle();
    expect(heard.alarms.map((a) => `${a.state} ${a.opened_value} ${a.worst_value}`)).toEqual(["open 60 60", "open 60 58", "open 60 55"]);
    expect(await listed()).toMatchObject([{ state: "open", metric: "humidity", opened_value: 60, worst_value: 55 }]);

    // A restarted server does not know the worst value: the database keeps the one reached before.
    const again = restart();
    heard.alarms.length = 0;
    report(again, entry, advance, humidity(57), 2, 10_000);
    await again.idle();
    expect(heard.alarms).toEqual([]);
    report(again, entry, advance, humidity(51.26), 1, 10_000);
    report(again, entry, advance, goodHumidity, 6, 30_000);
    await again.idle();
    expect(heard.alarms.map((a) => `${a.state} ${a.worst_value}`)).toEqual(["open 51.3", "resolved 51.3"]);
    expect(await listed()).toMatchObject([{ state: "resolved", opened_value: 60, worst_value: 51.3 }]);
  });

  it("takes the temperature farthest from its target as the worst, either side, and the lowest battery", async () => {
    const { alerts, entry, heard, advance, listed } = await setup();
    const soil = (t: number) => ({ SOIL_TEMP: { soil_temperature: t, count: 1 } });
    report(alerts, entry, advance, soil(25), 3, 30_000); // 7 °C above the 18 °C target
    for (const t of [12, 26, 21]) report(alerts, entry, advance, soil(t), 1, 10_000);
    for (const level of [20, 12, 15]) report(alerts, entry, advance, { batteryLevel: level }, 1, 10_000);
    await alerts.idle();
    expect(heard.alarms.map((a) => `${a.kind} ${a.worst_value}`)).toEqual(["temperature_off_target 25", "temperature_off_target 26", "battery_low 20", "battery_low 12"]);
    const byKind = Object.fromEntries((await listed()).map((a) => [a.kind, a]));
    expect(byKind.temperature_off_target).toMatchObject({ metric: "soilTemperature", opened_value: 25, worst_value: 26 });
    expect(byKind.battery_low).toMatchObject({ metric: "batteryLevel", opened_value: 20, worst_value: 12 });
  });

  it("leads its notification and push to the alarm, and an MCU back online to the MCU's history", async () => {
    const { alerts, entry, sent, heard, advance } = await setup();
    report(alerts, entry, advance, lowHumidity, 3, 30_000);
    alerts.onStatus(entry, "offline");
    advance(1000);
    alerts.onStatus(entry, "online");
    await alerts.idle();
    const [humidityAlarm, offline] = heard.alarms;
    expect(sent.map((n) => ({ type: n.type, ...notificationSubject(n), path: notificationPath(n) }))).toEqual([
      { type: "humidity_low", alarmId: humidityAlarm!.alarm_id, mcuId: entry.mcuId, mcuName: "Room A", path: `/alarms?mcu=${entry.mcuId}&alarm=${humidityAlarm!.alarm_id}` },
      { type: "mcu_offline", alarmId: offline!.alarm_id, mcuId: entry.mcuId, mcuName: "Room A", path: `/alarms?mcu=${entry.mcuId}&alarm=${offline!.alarm_id}` },
      { type: "mcu_online", alarmId: null, mcuId: entry.mcuId, mcuName: "Room A", path: `/mcu/${entry.mcuId}` },
    ]);
    expect(heard.pushes.map((p) => p.link)).toEqual(sent.map((n) => notificationPath(n)));
    // The bell's list says the same.
    const stored = (await client.get(`/notifications/${client.clientId}`)).json() as Notification[];
    expect(stored.filter((n) => notificationSubject(n).mcuId === entry.mcuId).map((n) => notificationPath(n))).toEqual(sent.map((n) => notificationPath(n)).reverse());
  });

  it("leads an MCU's 'sends too much' notification and push to the MCU's history", async () => {
    const { alerts, entry, sent, heard } = await setup("Chatty Room");
    alerts.sendsTooMuch(entry, { mac: entry.mac, messages: 5000, seconds: 10, perSecond: 50, cooldownMs: 60_000, again: false }, true);
    await alerts.idle();
    expect(sent.map((n) => [n.title, notificationPath(n)])).toEqual([['MCU "Chatty Room" sends too much', `/mcu/${entry.mcuId}`]]);
    expect(heard.pushes.map((p) => p.link)).toEqual([`/mcu/${entry.mcuId}`]);
  });

  it("does not open low battery again after a restart while the battery stays low, and opens a new one once it recovered", async () => {
    const { alerts, entry, sent, advance, restart, listed } = await setup();
    alerts.onReading(entry, { batteryLevel: 24 });
    await alerts.idle();
    expect(sent.map((n) => n.title)).toEqual(["Room A: battery low"]);

    // Restarts, even hours later (past the repeat window): the condition still holds, so no new alarm.
    for (let i = 0; i < 3; i++) {
      advance(2 * 3600_000);
      const again = restart();
      again.onReading(entry, { batteryLevel: 23 });
      await again.idle();
    }
    expect(sent).toHaveLength(1);
    expect(await listed()).toHaveLength(1);

    // Charged (for the hold time), then low again: that is a new alarm, after a restart as well.
    let after = restart();
    after.onReading(entry, { batteryLevel: 80 });
    advance(HOLD);
    after.onReading(entry, { batteryLevel: 80 });
    await after.idle();
    after = restart();
    after.onReading(entry, { batteryLevel: 22 });
    await after.idle();
    expect(sent.map((n) => n.body)).toEqual(["Battery at 24%. Replace or charge it soon.", "Battery at 22%. Replace or charge it soon."]);
    expect((await listed()).map((a) => a.state)).toEqual(["open", "resolved"]);
  });

  it("reads the alarm state of MCUs falling due together in one query, each MCU its own", async () => {
    const { alerts, entry: second, sent, clock, advance, heard } = await setup("Room B");
    const first = await mcu("Room A");
    const third = await mcu("Room C");
    alerts.onReading(second, { batteryLevel: 20 });
    await alerts.idle();
    expect(sent.map((n) => n.title)).toEqual(["Room B: battery low"]);

    // A restarted engine hears all three in one turn: one read of their state, and Room B's open alarm is known.
    advance(10_000);
    const reads: unknown[][] = [];
    const counting = { ...server.db, query: (text: string, params?: unknown[]) => (text.includes("bool_or") && reads.push(params ?? []), server.db.query(text, params)) } as typeof server.db;
    const restarted = createAlerts({ db: counting, now: () => new Date(clock.now), notify: (_c, n) => heard.notes.push(n), graceMs: GRACE, holdMs: HOLD, repeatMs: REPEAT });
    for (const entry of [first, second, third]) restarted.onReading(entry, { batteryLevel: 21 });
    await restarted.idle();
    expect(reads).toHaveLength(1);
    expect(reads[0]![1]).toEqual([first.mcuId, second.mcuId, third.mcuId]);
    // Room A's and Room C's alarms open side by side (on PostgreSQL, on two connections): either may be told first.
    expect(sent[0]!.title).toBe("Room B: battery low");
    expect(sent.slice(1).map((n) => n.title).sort()).toEqual(["Room A: battery low", "Room C: battery low"]);
  });

  it("keeps a breach's alarm open across a restart until the reading stayed within the profile for the hold time", async () => {
    const { alerts, entry, sent, advance, restart, listed } = await setup();
    const high = { CO2: { co2: 5000, count: 1 } };
    const ok = { CO2: { co2: 500, count: 1 } };
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
    expect(await listed()).toHaveLength(1);

    // Within the limits, but a restart comes before the hold time is over: the clearing starts over.
    next = restart();
    next.onReading(entry, ok);
    advance(HOLD / 2);
    next = restart();
    next.onReading(entry, ok);
    advance(HOLD / 2);
    next.onReading(entry, ok);
    await next.idle();
    expect((await listed()).map((a) => a.state)).toEqual(["open"]);
    advance(HOLD / 2);
    next.onReading(entry, ok);
    await next.idle();
    expect((await listed()).map((a) => a.state)).toEqual(["resolved"]);

    next = restart();
    next.onReading(entry, high);
    advance(61_000);
    next.onReading(entry, high);
    await next.idle();
    expect(sent.map((n) => n.type)).toEqual(["co2_high", "co2_high"]);
    expect((await listed()).map((a) => a.state)).toEqual(["open", "resolved"]);
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
    // Not again after yet another restart: that alarm is resolved.
    next = restart();
    next.onStatus(entry, "online");
    await next.idle();
    expect(sent).toHaveLength(2);
  });

  it("opens a condition once when two server nodes see it together", async () => {
    const { alerts, entry, sent, heard, restart, listed } = await setup("Room Twice");
    const other = restart();
    alerts.onReading(entry, { batteryLevel: 10 });
    other.onReading(entry, { batteryLevel: 10 });
    await Promise.all([alerts.idle(), other.idle()]);
    expect(sent.map((n) => n.type)).toEqual(["battery_low"]);
    expect(heard.alarms.map((a) => a.state)).toEqual(["open"]);
    expect(await listed()).toHaveLength(1);
    const stored = (await client.get(`/notifications/${client.clientId}`)).json() as Notification[];
    expect(stored.filter((n) => n.title === "Room Twice: battery low")).toHaveLength(1);
  });

  it("resolves an acknowledged alarm when its condition clears, keeping who acknowledged it", async () => {
    const { alerts, entry, heard, advance, listed } = await setup();
    alerts.onReading(entry, { batteryLevel: 12 });
    await alerts.idle();
    const [opened] = await listed();
    const ack = await client.post(ALARM_PATHS.acknowledge(opened!.alarm_id), { comment: "Charging it" });
    expect(ack.statusCode, ack.body).toBe(200);
    alerts.onReading(entry, { batteryLevel: 80 });
    advance(HOLD);
    alerts.onReading(entry, { batteryLevel: 80 });
    await alerts.idle();
    const [resolved] = await listed();
    expect(resolved).toMatchObject({ state: "resolved", ack_comment: "Charging it", acknowledged_by: client.registration.username, resolved_at: "2026-06-01T08:02:00.000Z" });
    expect(heard.alarms.at(-1)).toEqual(resolved);
  });

  describe("with the client's notification preferences", () => {
    async function prefer(p: Partial<{ [K in keyof NotificationPreferences]: Partial<NotificationPreferences[K]> }>) {
      const d = DEFAULT_NOTIFICATION_PREFERENCES;
      const whole: NotificationPreferences = {
        in_app: { ...d.in_app, ...p.in_app },
        push: { ...d.push, ...p.push },
        quiet_hours: { ...d.quiet_hours, ...p.quiet_hours },
      };
      const res = await client.put(ALARM_PATHS.preferences, whole);
      expect(res.statusCode, res.body).toBe(200);
    }
    afterAll(() => prefer({}));

    it("opens and lists the alarm but stores no bell notification for a kind turned off in-app; push still goes", async () => {
      await prefer({ in_app: { environmental: false } });
      const { alerts, entry, sent, heard, advance, listed } = await setup("Room Quiet Bell");
      report(alerts, entry, advance, lowHumidity, 3, 40_000);
      alerts.onReading(entry, { batteryLevel: 10 });
      await alerts.idle();
      expect((await listed()).map((a) => a.kind).sort()).toEqual(["battery_low", "humidity_low"]);
      expect(sent.map((n) => n.type)).toEqual(["battery_low"]);
      expect(heard.pushes.map((p) => p.title).sort()).toEqual(["Room Quiet Bell: battery low", "Room Quiet Bell: humidity low"]);
      const stored = (await client.get(`/notifications/${client.clientId}`)).json() as Notification[];
      expect(stored.filter((n) => n.title === "Room Quiet Bell: humidity low")).toEqual([]);
    });

    it("stores no offline nor back-online notification with device status off", async () => {
      await prefer({ in_app: { device_status: false } });
      const { alerts, entry, sent, heard, listed } = await setup();
      alerts.onStatus(entry, "offline");
      alerts.onStatus(entry, "online");
      await alerts.idle();
      expect(sent).toEqual([]);
      expect(heard.alarms.map((a) => a.state)).toEqual(["open", "resolved"]);
      expect((await listed()).map((a) => a.state)).toEqual(["resolved"]);
      expect(heard.pushes.map((p) => p.title)).toEqual(["Room A went offline", "Room A is back online"]);
    });

    it("pushes nothing in quiet hours (local time, across midnight) nor with push turned off, and still rings the bell", async () => {
      // 08:00 UTC is 11:00 in Beirut (UTC+3 in June): quiet from 10:30 to 12:00 there.
      await prefer({ quiet_hours: { enabled: true, start: "10:30", end: "12:00", time_zone: "Asia/Beirut" } });
      let s = await setup();
      s.alerts.onReading(s.entry, { batteryLevel: 10 });
      await s.alerts.idle();
      expect(s.sent.map((n) => n.type)).toEqual(["battery_low"]);
      expect(s.heard.pushes).toEqual([]);

      // Quiet from 22:00 to 11:30 (across midnight): still quiet at 11:00; not quiet from 11:00 to 22:00.
      await prefer({ quiet_hours: { enabled: true, start: "22:00", end: "11:30", time_zone: "Asia/Beirut" } });
      s = await setup();
      s.alerts.onStatus(s.entry, "offline");
      await s.alerts.idle();
      expect(s.heard.pushes).toEqual([]);
      await prefer({ quiet_hours: { enabled: true, start: "11:01", end: "10:59", time_zone: "Asia/Beirut" } });
      s = await setup();
      s.alerts.onStatus(s.entry, "offline");
      await s.alerts.idle();
      expect(s.heard.pushes.map((p) => p.title)).toEqual(["Room A went offline"]);

      await prefer({ push: { emergency: false } });
      s = await setup();
      s.alerts.onStatus(s.entry, "offline");
      await s.alerts.idle();
      expect(s.sent.map((n) => n.type)).toEqual(["mcu_offline"]);
      expect(s.heard.pushes).toEqual([]);
    });
  });
});
