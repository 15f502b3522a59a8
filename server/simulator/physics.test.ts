import { describe, expect, it } from "vitest";
import { thresholdBreaches } from "../../src/contract/conditions.ts";
import { checkTelemetry } from "../../src/contract/mqtt.ts";
import { inferWhy, switchRule } from "../../src/contract/switch-reasons.ts";
import { ambientAt, BATTERY_SWAPPED_AT, DEFAULT_CONFIG, DOOR_OPEN_LEAK, initialRoom, rng, roomFromReading, stepRoom, telemetryOf } from "./physics.ts";

const run = (room: ReturnType<typeof initialRoom>, config = DEFAULT_CONFIG, seconds = 600) => {
  const random = rng(3);
  for (let i = 0; i < seconds; i++) stepRoom(room, config, 1, random);
};

describe("simulated grow room", () => {
  it("keeps humidity between the humidifier's on-below and off-above while Automation is on", () => {
    const room = initialRoom(rng(1));
    room.humidity = 60;
    run(room, DEFAULT_CONFIG, 3600);
    expect(room.humidity).toBeGreaterThan(DEFAULT_CONFIG.humidifier.humidity_on_below - 3);
    expect(room.humidity).toBeLessThan(DEFAULT_CONFIG.humidifier.humidity_off_above + 3);
  });

  it("ventilates when CO2 is above the threshold", () => {
    const room = initialRoom(rng(2));
    room.co2 = 3000;
    stepRoom(room, DEFAULT_CONFIG, 1, rng(2));
    expect(room.actuators.Ventilation.status).toBe(true);
    run(room, DEFAULT_CONFIG, 1800);
    expect(room.co2).toBeLessThan(DEFAULT_CONFIG.ventilation.co2_threshold + 50);
  });

  it("drives the AC on the basis the profile names", () => {
    const soil = { ...DEFAULT_CONFIG, ac: { based_on: "soil_temp" as const, target_temp: 20 } };
    const room = initialRoom(rng(4));
    room.temperature = 26;
    room.soilTemperature = 19;
    stepRoom(room, soil, 1, rng(4));
    expect(room.actuators.AC.status).toBe(false); // soil is below target even though the room is warm
    const byRoom = { ...soil, ac: { based_on: "room_temp" as const, target_temp: 20 } };
    stepRoom(room, byRoom, 1, rng(4));
    expect(room.actuators.AC.status).toBe(true);
  });

  it("irrigates when soil moisture falls below the on level and stops at the off level or the liters", () => {
    const room = initialRoom(rng(5));
    room.soilMoisture = 30;
    stepRoom(room, DEFAULT_CONFIG, 1, rng(5));
    expect(room.actuators.Irrigation.status).toBe(true);
    run(room, DEFAULT_CONFIG, 1200);
    expect(room.irrigationLiters).toBeLessThanOrEqual(DEFAULT_CONFIG.irrigation.off_cycle_liters + 1);
  });

  it("leaves a device alone when Automation is off", () => {
    const room = initialRoom(rng(6));
    room.actuators.Humidifier = { status: false, auto: false };
    room.humidity = 40;
    run(room, DEFAULT_CONFIG, 60);
    expect(room.actuators.Humidifier.status).toBe(false);
  });

  it("has a day and a night outside: warmest mid-afternoon, coolest before dawn, and a room without its AC follows", () => {
    const at = (hourUtc: number) => Date.UTC(2026, 5, 1, hourUtc);
    expect(ambientAt(at(13))).toBeCloseTo(27, 5);
    expect(ambientAt(at(1))).toBeCloseTo(21, 5);
    const room = initialRoom(rng(8));
    room.actuators.AC = { status: false, auto: false };
    const temperatureAt: number[] = [];
    const random = rng(8);
    for (let s = 0; s < 86_400; s += 10) {
      stepRoom(room, DEFAULT_CONFIG, 10, random, ambientAt(at(0) + s * 1000));
      if (s % 3600 === 0) temperatureAt.push(room.temperature);
    }
    // Lagging the outside by a little: warmest in the afternoon, coolest in the early morning.
    expect(temperatureAt[15]! - temperatureAt[3]!).toBeGreaterThan(4);
  });

  it("reports the telemetry of the device contract with sensor counts", () => {
    const room = initialRoom(rng(7), 64.4);
    const t = telemetryOf(room, { DHT: 2, SOIL_TEMP: 1, CO2: 0, MOISTURE: 1 });
    expect(t.DHT?.count).toBe(2);
    expect(t.CO2).toBeUndefined();
    expect(t.batteryLevel).toBe(64);
    expect(Object.keys(t.Irrigation!)).toEqual(["status", "auto", "session"]);
  });

  it("switches its controllers at a farm's pace: each cycles every few minutes, not every few seconds", () => {
    const room = initialRoom(rng(9));
    const random = rng(9);
    const switches: Record<string, number> = {};
    const before = Object.fromEntries(Object.entries(room.actuators).map(([k, a]) => [k, a.status]));
    const start = Date.UTC(2026, 5, 1);
    for (let s = 0; s < 86_400; s++) {
      stepRoom(room, DEFAULT_CONFIG, 1, random, ambientAt(start + s * 1000));
      for (const [k, a] of Object.entries(room.actuators)) {
        if (a.status !== before[k]) switches[k] = (switches[k] ?? 0) + 1;
        before[k] = a.status;
      }
    }
    // Every controller does work over a day, and none switches more than every ~4 minutes on average.
    for (const target of ["Humidifier", "Ventilation", "AC", "Irrigation"]) {
      expect(switches[target], target).toBeGreaterThan(4);
      expect(switches[target], target).toBeLessThan(2 * 24 * 15);
    }
  });

  it("with its door left open, leaves the profile within two minutes, and comes back within half an hour once it is shut", () => {
    const room = initialRoom(rng(10));
    const random = rng(10);
    const outside = () => thresholdBreaches("Room", telemetryOf(room, { DHT: 1, SOIL_TEMP: 1, CO2: 1, MOISTURE: 1 }), DEFAULT_CONFIG).map((b) => b.type);
    for (let s = 0; s < 3600; s++) stepRoom(room, DEFAULT_CONFIG, 1, random, 24);
    expect(outside()).toEqual([]);
    room.airLeak = DOOR_OPEN_LEAK;
    for (let s = 0; s < 120; s++) stepRoom(room, DEFAULT_CONFIG, 1, random, 24);
    expect(outside()).toContain("humidity_low");
    for (let s = 0; s < 10 * 60; s++) stepRoom(room, DEFAULT_CONFIG, 1, random, 24);
    expect(outside()).toEqual(expect.arrayContaining(["humidity_low", "temperature_off_target"]));
    room.airLeak = 1;
    let back = -1;
    for (let s = 0; s < 30 * 60 && back < 0; s++) {
      stepRoom(room, DEFAULT_CONFIG, 1, random, 24);
      if (outside().length === 0) back = s;
    }
    // Not at once: the mister and the AC need a while to make up for it.
    expect(back).toBeGreaterThan(5 * 60);
  });

  it("reads like real sensors when given a random source: a little noise on the room's values", () => {
    const room = initialRoom(rng(11));
    const random = rng(11);
    const counts = { DHT: 1, SOIL_TEMP: 1, CO2: 1, MOISTURE: 1 };
    const humidities = new Set(Array.from({ length: 20 }, () => telemetryOf(room, counts, random).DHT!.humidity));
    expect(humidities.size).toBeGreaterThan(1);
    for (const h of humidities) expect(Math.abs(h - room.humidity)).toBeLessThanOrEqual(0.35);
    expect(telemetryOf(room, counts).DHT!.humidity).toBe(Math.round(room.humidity * 10) / 10);
  });
  it("drains the battery, and a battery run down to 10 % is swapped for a charged one", () => {
    const room = initialRoom(rng(12), BATTERY_SWAPPED_AT + 1);
    run(room, DEFAULT_CONFIG, 3600); // 1.44 points an hour
    expect(room.battery).toBeGreaterThan(98);
    run(room, DEFAULT_CONFIG, 3600);
    expect(room.battery).toBeLessThan(100 - 1.4);
  });

  it("takes a room from a reading: its values and its controllers, Automation included; the rest from the room given", () => {
    const rest = initialRoom(rng(13));
    rest.airLeak = DOOR_OPEN_LEAK;
    rest.irrigationLiters = 7;
    const room = roomFromReading(
      {
        DHT: { temperature: 17.4, humidity: 91.2, count: 2 },
        CO2: { co2: 812, count: 1 },
        MOISTURE: { soil_moisture: 52.3, count: 1 },
        Irrigation: { status: true, auto: true, session: true },
        AC: { status: false, auto: false },
        Ventilation: { status: true, auto: true },
        Humidifier: { status: false, auto: true },
        batteryLevel: 24,
      },
      rest,
    );
    expect(room).toMatchObject({ temperature: 17.4, humidity: 91.2, co2: 812, soilMoisture: 52.3, battery: 24, soilTemperature: rest.soilTemperature, sinceIrrigation: rest.sinceIrrigation });
    expect(room.actuators).toEqual({
      Irrigation: { status: true, auto: true },
      AC: { status: false, auto: false },
      Ventilation: { status: true, auto: true },
      Humidifier: { status: false, auto: true },
    });
    // A door left open and a session's liters are not in a reading: a restart shuts the door and counts afresh.
    expect(room).toMatchObject({ airLeak: 1, irrigationLiters: 0 });
    // Its own object: stepping it leaves the room given alone.
    room.actuators.Irrigation.auto = false;
    expect(rest.actuators.Irrigation.auto).toBe(true);
    expect(telemetryOf(room, { DHT: 2, SOIL_TEMP: 1, CO2: 1, MOISTURE: 1 }).DHT).toEqual({ temperature: 17.4, humidity: 91.2, count: 2 });
  });

  it("reports the rule each automation switch was made by, once, in the reading that shows it", () => {
    const room = initialRoom(rng(5));
    const random = rng(9);
    const counts = { DHT: 1, SOIL_TEMP: 1, CO2: 1, MOISTURE: 1 };
    let explained = 0;
    for (let i = 0; i < 3 * 3600; i += 10) {
      const before = { ...room.actuators.Humidifier };
      stepRoom(room, DEFAULT_CONFIG, 10, random);
      const t = telemetryOf(room, counts);
      expect(checkTelemetry(JSON.parse(JSON.stringify(t)))).toEqual(t);
      const why = t.Humidifier!.why;
      if (before.status === room.actuators.Humidifier.status) {
        expect(why).toBeUndefined();
        continue;
      }
      explained++;
      const rule = switchRule(why!.rule)!;
      expect(rule.on).toBe(room.actuators.Humidifier.status);
      expect(rule.fires(why!.value, why!.limit)).toBe(true);
      // The server, from the reading's values, comes to the same rule, or to none when the room moved back across the limit since.
      const inferred = inferWhy("Humidifier", room.actuators.Humidifier.status, DEFAULT_CONFIG, { humidity: t.DHT!.humidity });
      if (inferred) expect(inferred.rule).toBe(why!.rule);
      expect(telemetryOf(room, counts).Humidifier!.why).toBeUndefined();
    }
    expect(explained).toBeGreaterThan(2);
  });
});
