import type { LiveReading, ProfileConfig } from "../../src/contract/entities.ts";
import type { TelemetryMessage } from "../../src/contract/mqtt.ts";
import type { CommandTarget } from "../../src/contract/realtime.ts";
import { automationSwitch, type SwitchValues, type SwitchWhy } from "../../src/contract/switch-reasons.ts";

/** Sensors of each kind on a simulated MCU; a kind with none is not reported. */
export interface SensorCounts {
  DHT: number;
  SOIL_TEMP: number;
  CO2: number;
  MOISTURE: number;
}

export interface Actuator {
  status: boolean;
  auto: boolean;
}

/** One grow room as its MCU sees it. */
export interface RoomState {
  temperature: number;
  humidity: number;
  soilTemperature: number;
  co2: number;
  soilMoisture: number;
  battery: number;
  actuators: Record<CommandTarget, Actuator>;
  /** Irrigation: liters delivered in the running session, and simulated seconds since the last one began. */
  irrigationLiters: number;
  sinceIrrigation: number;
  /**
   * How fast the room trades air with outside, as a multiple of a closed room's leak (1). The
   * demo's incidents open a room's door for a while (DOOR_OPEN_LEAK): dry, warm air floods in
   * faster than the humidifier and the AC can make up for.
   */
  airLeak: number;
  /**
   * The rule each controller's automation last switched it by, until a reading reports it (the
   * reading's `why`, then cleared): a switch is explained once, with the reading that shows it.
   */
  switched: Partial<Record<CommandTarget, SwitchWhy>>;
}

const AUTOMATION_ORDER = ["Humidifier", "Ventilation", "AC", "Irrigation"] as const satisfies readonly CommandTarget[];

/** A door left open: the room trades air with outside this many times faster than when closed. */
export const DOOR_OPEN_LEAK = 12;

/** What a device runs with until a profile is linked. */
export const DEFAULT_CONFIG: ProfileConfig = {
  irrigation: { on_cycle_hours: 6, off_cycle_liters: 15, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 1000 },
  ac: { based_on: "room_temp", target_temp: 20 },
  humidifier: { humidity_on_below: 82, humidity_off_above: 92 },
};

const IRRIGATION_LITERS_PER_SECOND = 0.05;

/**
 * A battery that runs down to this is swapped for a charged one. Batteries drain a point and a
 * half an hour, and a restart goes on from the level reached: without the swap, every demo room
 * would be flat after a couple of days of running. Its low-battery alarm (below 30 %) has been open
 * for half a day by then, and resolves with the swap.
 */
export const BATTERY_SWAPPED_AT = 10;

/** A small deterministic generator, so a seeded room behaves the same in every run. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export function initialRoom(random: () => number, battery = 40 + random() * 60): RoomState {
  const actuator = (): Actuator => ({ status: false, auto: true });
  return {
    temperature: 19 + random() * 4,
    humidity: 78 + random() * 12,
    soilTemperature: 18 + random() * 3,
    co2: 700 + random() * 500,
    soilMoisture: 45 + random() * 20,
    battery,
    actuators: { Irrigation: actuator(), AC: actuator(), Ventilation: actuator(), Humidifier: actuator() },
    irrigationLiters: 0,
    sinceIrrigation: random() * 3600,
    airLeak: 1,
    switched: {},
  };
}

/**
 * The room an MCU's latest reading shows, to go on from after a restart: its values (a sensor's
 * noise is a few tenths, as small as a few seconds of the room's drift) and its controllers'
 * states, Automation included. What a reading does not carry (a value with no sensor, the running
 * irrigation's liters, an open door) comes from `rest`.
 */
export function roomFromReading(reading: LiveReading, rest: RoomState): RoomState {
  const actuator = (reported: { status: boolean; auto: boolean } | undefined, fallback: Actuator): Actuator =>
    reported ? { status: reported.status, auto: reported.auto } : { ...fallback };
  const a = rest.actuators;
  return {
    ...rest,
    temperature: reading.DHT?.temperature ?? rest.temperature,
    humidity: reading.DHT?.humidity ?? rest.humidity,
    soilTemperature: reading.SOIL_TEMP?.soil_temperature ?? rest.soilTemperature,
    co2: reading.CO2?.co2 ?? rest.co2,
    soilMoisture: reading.MOISTURE?.soil_moisture ?? rest.soilMoisture,
    battery: reading.batteryLevel ?? rest.battery,
    actuators: {
      Irrigation: actuator(reading.Irrigation, a.Irrigation),
      AC: actuator(reading.AC, a.AC),
      Ventilation: actuator(reading.Ventilation, a.Ventilation),
      Humidifier: actuator(reading.Humidifier, a.Humidifier),
    },
    irrigationLiters: 0,
    airLeak: 1,
    switched: {},
  };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The temperature outside a room at a time (epoch ms): 24 °C ± 3 over the day, warmest at 13:00
 * UTC (mid-afternoon in Lebanon, where the demo farms are), coolest at night. It is what heat
 * leaks in from (stepRoom's `ambient`), which gives the rooms their day and night.
 */
export function ambientAt(ms: number): number {
  const hour = (ms % 86_400_000) / 3_600_000;
  return 24 + 3 * Math.cos((2 * Math.PI * (hour - 13)) / 24);
}

/**
 * Advances a room by `dt` simulated seconds: the automation of the linked profile decides what
 * runs (for actuators whose Automation is on), then the room responds to what runs.
 */
export function stepRoom(room: RoomState, config: ProfileConfig, dt: number, random: () => number, ambient = 24): void {
  const a = room.actuators;
  const values: SwitchValues = {
    humidity: room.humidity,
    co2: room.co2,
    temperature: room.temperature,
    soil_temperature: room.soilTemperature,
    soil_moisture: room.soilMoisture,
  };
  room.sinceIrrigation += dt;
  values.hours_since_irrigation = room.sinceIrrigation / 3600;
  values.irrigation_liters = room.irrigationLiters;
  for (const target of AUTOMATION_ORDER) {
    const actuator = a[target];
    if (!actuator.auto) continue;
    const why = automationSwitch(target, actuator.status, config, values);
    if (!why) continue;
    actuator.status = !actuator.status;
    room.switched[target] = why;
    if (target === "Irrigation" && actuator.status) {
      room.irrigationLiters = 0;
      room.sinceIrrigation = 0;
    }
  }

  // The rates are a real room's (per second): a closed room's air drifts to the outside's over
  // about an hour and a half, a mister lifts humidity about a point a minute, an exhaust fan
  // clears a room's excess CO2 in several minutes. So each controller cycles every 15 to 40
  // minutes, as in a farm, and a day of history reads as curves rather than a blur.
  const noise = () => (random() - 0.5) * 0.02 * dt;
  const leak = 0.0002 * room.airLeak;
  // Heat leaks in from outside; the AC pulls it down.
  room.temperature += (ambient - room.temperature) * leak * dt + (a.AC.status ? -0.003 * dt : 0) + noise();
  room.soilTemperature += (room.temperature - room.soilTemperature) * 0.0003 * dt + noise() * 0.3;
  // Fruiting bodies breathe; fresh air flushes CO2 and some moisture out.
  room.co2 += 0.2 * dt - (a.Ventilation.status ? (room.co2 - 420) * 0.0015 * dt : 0) + noise() * 20;
  room.humidity += (60 - room.humidity) * leak * 1.5 * dt + (a.Humidifier.status ? 0.02 * dt : 0) - (a.Ventilation.status ? 0.005 * dt : 0) + noise() * 2;
  room.soilMoisture += -0.003 * dt + (a.Irrigation.status ? 0.08 * dt : 0) + noise();
  if (a.Irrigation.status) room.irrigationLiters += IRRIGATION_LITERS_PER_SECOND * dt;
  room.battery -= 0.0004 * dt;
  if (room.battery <= BATTERY_SWAPPED_AT) room.battery = 100;

  room.temperature = clamp(room.temperature, -10, 50);
  room.soilTemperature = clamp(room.soilTemperature, -10, 50);
  room.co2 = clamp(room.co2, 400, 10_000);
  room.humidity = clamp(room.humidity, 5, 100);
  room.soilMoisture = clamp(room.soilMoisture, 0, 100);
  room.battery = clamp(room.battery, 0, 100);
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/**
 * The telemetry message (ARCHITECTURE.md device contract) a room's MCU publishes. With `random`,
 * each value carries a sensor's own noise (a DHT22's few tenths, an NDIR CO2 sensor's few ppm)
 * on top of the room's state, as real readings do. A controller the automation switched since the
 * last report carries the rule it switched by (`why`), which the room then forgets.
 */
export function telemetryOf(room: RoomState, counts: SensorCounts, random?: () => number): TelemetryMessage {
  const jitter = (size: number) => (random ? (random() - 0.5) * 2 * size : 0);
  const a = room.actuators;
  const t: TelemetryMessage = {
    Irrigation: { status: a.Irrigation.status, auto: a.Irrigation.auto, session: a.Irrigation.status },
    AC: { ...a.AC },
    Ventilation: { ...a.Ventilation },
    Humidifier: { ...a.Humidifier },
    batteryLevel: Math.round(room.battery),
  };
  // Each switch of the automation is explained once, in the reading that shows it.
  for (const target of AUTOMATION_ORDER) {
    const why = room.switched[target];
    if (why === undefined) continue;
    t[target]!.why = why;
    delete room.switched[target];
  }
  if (counts.DHT > 0) t.DHT = { temperature: r1(room.temperature + jitter(0.1)), humidity: r1(clamp(room.humidity + jitter(0.3), 0, 100)), count: counts.DHT };
  if (counts.SOIL_TEMP > 0) t.SOIL_TEMP = { soil_temperature: r1(room.soilTemperature + jitter(0.1)), count: counts.SOIL_TEMP };
  if (counts.CO2 > 0) t.CO2 = { co2: Math.round(Math.max(400, room.co2 + jitter(6))), count: counts.CO2 };
  if (counts.MOISTURE > 0) t.MOISTURE = { soil_moisture: r1(clamp(room.soilMoisture + jitter(0.3), 0, 100)), count: counts.MOISTURE };
  return t;
}
