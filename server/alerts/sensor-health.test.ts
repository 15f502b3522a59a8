import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALARM_PATHS, type Alarm } from "../../src/contract/alarms-values.ts";
import type { LiveReading, Notification } from "../../src/contract/entities.ts";
import { preferencesRepo } from "../db/preferences-repo.ts";
import type { McuEntry } from "../devices/mcu-directory.ts";
import { createTestServer, uniqueMac, type TestClient, type TestServer } from "../test-support/test-server.ts";
import { createAlerts } from "./alerts.ts";
import { ENGLISH, writeBoth } from "../texts.ts";
import { missingWords, SENSOR_MISSING_AFTER_MS, SENSOR_STUCK_AFTER_MS, stuckWords } from "./sensor-health.ts";

const missingText = (...a: Parameters<typeof missingWords>) => writeBoth(missingWords(...a), ENGLISH);
const stuckText = (...a: Parameters<typeof stuckWords>) => writeBoth(stuckWords(...a), ENGLISH);

const HOLD = 120_000;
const MISSING = SENSOR_MISSING_AFTER_MS;
const STUCK = SENSOR_STUCK_AFTER_MS;
/** How often the MCUs of these tests report: well within the app's 120 s freshness window. */
const EVERY = 30_000;

describe("sensor health texts", () => {
  it("names the sensor type and how many of them stopped reporting", () => {
    expect(missingText("Room A", "DHT", 1, 2)).toEqual({ title: "Room A: humidity sensor missing", body: "1 of 2 humidity sensors stopped reporting on Room A." });
    expect(missingText("Room A", "CO2", 0, 1)).toEqual({ title: "Room A: CO2 sensor missing", body: "The CO2 sensor stopped reporting on Room A." });
    expect(missingText("Room A", "SOIL_TEMP", 0, 3)).toEqual({ title: "Room A: 3 soil temperature sensors missing", body: "3 of 3 soil temperature sensors stopped reporting on Room A." });
  });

  it("names the metric, the value it is stuck on and for how long", () => {
    expect(stuckText("Room A", "humidity", 85.2, STUCK)).toEqual({ title: "Room A: humidity sensor stuck", body: "Humidity has read exactly 85.2% for 60 minutes: the sensor may have frozen." });
    expect(stuckText("Room A", "temperature", 21.3, STUCK).body).toBe("Room temperature has read exactly 21.3 °C for 60 minutes: the sensor may have frozen.");
    expect(stuckText("Room A", "co2", 1450, 90 * 60_000)).toEqual({ title: "Room A: CO2 sensor stuck", body: "CO2 has read exactly 1450 ppm for 90 minutes: the sensor may have frozen." });
  });
});

describe("sensor health alarms", () => {
  let server: TestServer;
  let client: TestClient;
  let farmId: number;
  beforeAll(async () => {
    server = await createTestServer();
    client = await server.signUp();
    farmId = (await client.post("/api/farms", { name: "Farm", location: "Byblos", client_id: client.clientId })).json().farm_id;
  });
  afterAll(() => server.close());

  /** A registered MCU of the client without a profile (no limit to leave), with these sensors in its sensors list. */
  async function mcu(name: string, sensors: ("Humidity" | "CO2" | "Soil_temp" | "Moisture")[] = []): Promise<McuEntry> {
    const device = await client.mcuDevice();
    const res = await client.post("/api/mcus", { name, ...device, farm_id: farmId, status: "active" });
    if (res.statusCode !== 201) throw new Error(res.body);
    const mcuId = res.json().mcu_id as number;
    for (const type of sensors) {
      const added = await client.post("/api/sensors", { name: `${type} ${uniqueMac()}`, mac: uniqueMac(), type, mcu_id: mcuId });
      if (added.statusCode !== 201) throw new Error(added.body);
    }
    // Not returned as a literal: the entry's fields are changing under other work, and these are the ones the engine reads.
    const entry = { mcuId, clientId: client.clientId, farmId, mac: device.mac, name, farmName: "Farm", status: "online" as const, config: null };
    return entry;
  }

  interface Heard {
    notes: Notification[];
    alarms: Alarm[];
  }

  /** The alarm engine as a server (re)start creates it, on the same database and clock, with the default sensor thresholds. */
  function engine(clock: { now: number }, heard: Heard) {
    return createAlerts({
      db: server.db,
      now: () => new Date(clock.now),
      notify: (_c, n) => heard.notes.push(n),
      alarmChanged: (_c, a) => heard.alarms.push(a),
      preferences: (clientId) => preferencesRepo(server.db).get(clientId),
      holdMs: HOLD,
    });
  }

  async function setup(name = "Room A", sensors: ("Humidity" | "CO2" | "Soil_temp" | "Moisture")[] = []) {
    const clock = { now: Date.parse("2026-06-01T08:00:00Z") };
    const heard: Heard = { notes: [], alarms: [] };
    const entry = await mcu(name, sensors);
    let alerts = engine(clock, heard);
    let tick = 0;
    const s = {
      entry,
      heard,
      get alerts() {
        return alerts;
      },
      /** A server restart: a new engine on the same database. */
      restart: () => (alerts = engine(clock, heard)),
      /** Another server node, hearing the same MCU. */
      otherNode: () => engine(clock, heard),
      advance: (ms: number) => (clock.now += ms),
      /**
       * The MCU reporting `reading(i)` every EVERY for `ms` (the first at once), where `i` counts
       * every reading of the test: values that move, unless the reading holds them.
       */
      report(ms: number, reading: (i: number) => LiveReading) {
        for (let elapsed = 0; elapsed < ms; elapsed += EVERY) {
          alerts.onReading(entry, reading(tick++));
          clock.now += EVERY;
        }
      },
      /** The MCU's alarms as the API lists them (every state), newest first. */
      listed: async () => ((await client.get(`${ALARM_PATHS.alarms}?state=all&mcu_id=${entry.mcuId}`)).json() as { alarms: Alarm[] }).alarms,
      idle: () => alerts.idle(),
    };
    return s;
  }

  /** A reading whose values jitter as real sensors' do, with these counts (0 leaves the group out). */
  function live(counts: { DHT?: number; CO2?: number; SOIL_TEMP?: number; MOISTURE?: number }, i: number): LiveReading {
    const wobble = (i % 3) / 10;
    return {
      ...(counts.DHT ? { DHT: { temperature: 18 + wobble, humidity: 88 - wobble, count: counts.DHT } } : {}),
      ...(counts.CO2 ? { CO2: { co2: 900 + (i % 5), count: counts.CO2 } } : {}),
      ...(counts.SOIL_TEMP ? { SOIL_TEMP: { soil_temperature: 17 + wobble, count: counts.SOIL_TEMP } } : {}),
      ...(counts.MOISTURE ? { MOISTURE: { soil_moisture: 50 + wobble, count: counts.MOISTURE } } : {}),
      batteryLevel: 80,
    };
  }
  const full = (i: number) => live({ DHT: 2, CO2: 1 }, i);
  const oneDhtDown = (i: number) => live({ DHT: 1, CO2: 1 }, i);

  describe("a sensor missing", () => {
    it("opens once fewer sensors of a type report than the MCU reported before, for the debounce, not before, naming the type and how many", async () => {
      const s = await setup();
      s.report(10 * 60_000, full);
      s.report(MISSING, oneDhtDown);
      await s.idle();
      expect(s.heard.alarms).toEqual([]);
      s.report(5 * 60_000, oneDhtDown);
      await s.idle();
      expect(s.heard.alarms).toEqual([
        expect.objectContaining({
          kind: "sensor_missing",
          state: "open",
          title: "Room A: humidity sensor missing",
          body: "1 of 2 humidity sensors stopped reporting on Room A.",
          metric: null,
          opened_value: null,
          opened_at: "2026-06-01T08:12:00.000Z",
        }),
      ]);
      expect(s.heard.notes.map((n) => [n.type, n.body])).toEqual([["sensor_missing", "1 of 2 humidity sensors stopped reporting on Room A."]]);
      expect(await s.listed()).toEqual(s.heard.alarms);
    });

    it("counts a type left out of the readings as all its sensors gone, against the MCU's sensors list too", async () => {
      // Two CO2 sensors in its list, none ever reported; its humidity sensor reported, then left out.
      const s = await setup("Room B", ["CO2", "CO2"]);
      s.report(5 * 60_000, (i) => live({ DHT: 1 }, i));
      s.report(5 * 60_000, (i) => live({}, i));
      await s.idle();
      expect(s.heard.alarms.map((a) => [a.title, a.body])).toEqual([
        ["Room B: 2 CO2 sensors missing", "2 of 2 CO2 sensors stopped reporting on Room B."],
        ["Room B: humidity sensor missing", "The humidity sensor stopped reporting on Room B."],
      ]);
    });

    it("resolves once the count is back for the hold time, and a count that flaps back within it neither resolves it nor opens another", async () => {
      const s = await setup();
      s.report(5 * 60_000, full);
      s.report(3 * 60_000, oneDhtDown);
      for (let i = 0; i < 5; i++) {
        s.report(HOLD - EVERY, full);
        s.report(EVERY, oneDhtDown);
      }
      await s.idle();
      expect(s.heard.alarms.map((a) => a.state)).toEqual(["open"]);
      s.report(HOLD + EVERY, full);
      await s.idle();
      expect(s.heard.alarms.map((a) => a.state)).toEqual(["open", "resolved"]);
      expect((await s.listed()).map((a) => a.state)).toEqual(["resolved"]);
    });

    it("opens nothing while the MCU is offline (its own alarm), and starts the debounce over when it is back", async () => {
      const s = await setup();
      s.report(5 * 60_000, full);
      s.report(MISSING - EVERY, oneDhtDown);
      // Back within a minute: its readings were not apart for long, but it said it was gone.
      s.alerts.onStatus(s.entry, "offline");
      s.advance(60_000);
      s.alerts.onStatus(s.entry, "online");
      s.report(MISSING - EVERY, oneDhtDown);
      await s.idle();
      expect(s.heard.alarms.map((a) => `${a.kind} ${a.state}`)).toEqual(["mcu_offline open", "mcu_offline resolved"]);
      s.report(2 * EVERY, oneDhtDown);
      await s.idle();
      expect(s.heard.alarms.map((a) => `${a.kind} ${a.state}`)).toEqual(["mcu_offline open", "mcu_offline resolved", "sensor_missing open"]);
    });

    it("starts the debounce over after the MCU went quiet longer than the freshness window, whatever its status said", async () => {
      const s = await setup();
      s.report(5 * 60_000, full);
      s.report(MISSING - EVERY, oneDhtDown);
      s.advance(10 * 60_000);
      s.report(MISSING - EVERY, oneDhtDown);
      await s.idle();
      expect(s.heard.alarms).toEqual([]);
    });

    it("misses a sensor that died while the server was restarting, and keeps its alarm open across a restart until the count is back", async () => {
      const s = await setup();
      s.report(5 * 60_000, full);
      await s.idle();
      s.advance(5 * 60_000);
      s.restart();
      s.report(MISSING + EVERY, oneDhtDown);
      await s.idle();
      expect(s.heard.alarms.map((a) => `${a.kind} ${a.state}`)).toEqual(["sensor_missing open"]);

      s.advance(10 * 60_000);
      s.restart();
      s.report(10 * 60_000, oneDhtDown);
      await s.idle();
      expect((await s.listed()).map((a) => a.state)).toEqual(["open"]);
      s.restart();
      s.report(HOLD + EVERY, full);
      await s.idle();
      expect((await s.listed()).map((a) => a.state)).toEqual(["resolved"]);
      expect(s.heard.notes).toHaveLength(1);
    });

    it("keeps one alarm per MCU and sensor type, whichever node hears it", async () => {
      const s = await setup();
      const other = s.otherNode();
      const allDown = (i: number) => live({ DHT: 1 }, i);
      s.report(5 * 60_000, full);
      await s.idle();
      for (let i = 0; i < 12; i++) {
        const reading = allDown(i);
        s.alerts.onReading(s.entry, reading);
        other.onReading(s.entry, reading);
        s.advance(EVERY);
      }
      await Promise.all([s.idle(), other.idle()]);
      const listed = await s.listed();
      expect(listed.map((a) => a.title).sort()).toEqual(["Room A: CO2 sensor missing", "Room A: humidity sensor missing"]);
      expect(s.heard.notes.map((n) => n.title).sort()).toEqual(["Room A: CO2 sensor missing", "Room A: humidity sensor missing"]);
    });
  });

  describe("a sensor stuck", () => {
    /** Humidity held at exactly 85.2 %, every other value jittering. */
    const humidityHeld = (i: number): LiveReading => ({ ...full(i), DHT: { temperature: 18 + (i % 3) / 10, humidity: 85.2, count: 2 } });

    it("opens once a metric read exactly one value for an hour, not before, only for that metric", async () => {
      const s = await setup();
      s.report(STUCK, humidityHeld);
      await s.idle();
      expect(s.heard.alarms).toEqual([]);
      s.report(20 * 60_000, humidityHeld);
      await s.idle();
      expect(s.heard.alarms).toEqual([
        expect.objectContaining({
          kind: "sensor_stuck",
          state: "open",
          title: "Room A: humidity sensor stuck",
          body: "Humidity has read exactly 85.2% for 60 minutes: the sensor may have frozen.",
          metric: "humidity",
          opened_value: 85.2,
          worst_value: 85.2,
          opened_at: "2026-06-01T09:00:00.000Z",
        }),
      ]);
      expect(s.heard.notes.map((n) => n.type)).toEqual(["sensor_stuck"]);
    });

    it("never opens for values that jitter, however little, over hours", async () => {
      const s = await setup();
      const flicker = (i: number): LiveReading => ({
        DHT: { temperature: 18 + (i % 2) / 10, humidity: i % 7 === 0 ? 85.3 : 85.2, count: 2 },
        CO2: { co2: 1000 + (i % 2), count: 1 },
        SOIL_TEMP: { soil_temperature: 17 + (i % 2) / 10, count: 1 },
        MOISTURE: { soil_moisture: i % 3 === 0 ? 50.1 : 50, count: 1 },
      });
      s.report(6 * STUCK, flicker);
      await s.idle();
      expect(s.heard.alarms).toEqual([]);
    });

    it("resolves as soon as the value moves, and not because the server restarted", async () => {
      const s = await setup();
      s.report(STUCK + EVERY, humidityHeld);
      await s.idle();
      s.restart();
      s.report(10 * 60_000, humidityHeld);
      await s.idle();
      expect(s.heard.alarms.map((a) => a.state)).toEqual(["open"]);
      s.report(EVERY, full);
      await s.idle();
      expect(s.heard.alarms.map((a) => a.state)).toEqual(["open", "resolved"]);
      expect(await s.listed()).toMatchObject([{ state: "resolved", resolved_at: "2026-06-01T09:10:30.000Z" }]);
    });

    it("does not count the time the MCU was offline or quiet", async () => {
      const s = await setup();
      s.report(40 * 60_000, humidityHeld);
      s.alerts.onStatus(s.entry, "offline");
      s.advance(60 * 60_000);
      s.alerts.onStatus(s.entry, "online");
      s.report(40 * 60_000, humidityHeld);
      s.advance(10 * 60_000);
      s.report(40 * 60_000, humidityHeld);
      await s.idle();
      expect(s.heard.alarms.map((a) => `${a.kind} ${a.state}`)).toEqual(["mcu_offline open", "mcu_offline resolved"]);
    });

    it("keeps one alarm per MCU and metric, whichever node hears it", async () => {
      const s = await setup();
      const other = s.otherNode();
      const twoHeld = (i: number): LiveReading => ({ ...humidityHeld(i), CO2: { co2: 1450, count: 1 } });
      for (let i = 0; i < 2 * (STUCK / EVERY); i++) {
        const reading = twoHeld(i);
        s.alerts.onReading(s.entry, reading);
        other.onReading(s.entry, reading);
        s.advance(EVERY);
      }
      await Promise.all([s.idle(), other.idle()]);
      expect((await s.listed()).map((a) => `${a.kind} ${a.metric} ${a.state}`).sort()).toEqual(["sensor_stuck co2 open", "sensor_stuck humidity open"]);
      expect(s.heard.notes.map((n) => n.title).sort()).toEqual(["Room A: CO2 sensor stuck", "Room A: humidity sensor stuck"]);
    });
  });
});
