import type { AlertType, LiveReading, ProfileConfig } from "./entities.ts";

/**
 * The conditions that make an MCU need attention, judged the same way by the server's alerts and
 * by the app's cards and farm badges: a reading outside the linked profile, a low battery.
 */

/**
 * A profile's limits are also where its automation switches (the humidifier starts below
 * humidity_on_below, ventilation above co2_threshold), so a value just past a limit while the
 * actuator corrects it is normal operation, not a problem. A value counts as out of profile only
 * beyond these bands.
 */
/** How far from the AC target a temperature may drift before it counts as off target (°C). */
export const TEMPERATURE_TOLERANCE = 2;
/** Humidity and soil moisture: percentage points below the on-limit. */
export const HUMIDITY_BAND = 2;
export const SOIL_MOISTURE_BAND = 3;
/** CO2: this share of the threshold above it. */
export const CO2_BAND = 0.1;
/** SPEC §9: low battery is below 30. */
export const LOW_BATTERY_BELOW = 30;
/** A low battery alert re-arms only once the battery is back above this (hysteresis). */
export const BATTERY_REARM_ABOVE = 35;

export type BreachType = Exclude<AlertType, "mcu_offline" | "mcu_online" | "battery_low" | "sensor_missing" | "sensor_stuck">;

/** The live values a profile judges, named as the dashboard card shows them. */
export type ProfileMetric = "temperature" | "humidity" | "soilTemperature" | "co2" | "soilMoisture";

export interface Breach {
  type: BreachType;
  /** The card value this breach is about. */
  metric: ProfileMetric;
  /** Short text for the card: "above 1200 ppm", "below 85 %", "target 18 °C". */
  limit: string;
  /** The profile's value in that limit (1200, 85, 18), for a screen that words the limit in its reader's language. */
  threshold: number;
  title: string;
  body: string;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The readings outside the linked profile's limits right now; nothing without a profile. */
export function thresholdBreaches(name: string, reading: LiveReading, config: ProfileConfig | null | undefined): Breach[] {
  if (!config) return [];
  const breaches: Breach[] = [];
  const humidity = reading.DHT?.humidity;
  if (humidity !== undefined && humidity < config.humidifier.humidity_on_below - HUMIDITY_BAND) {
    breaches.push({
      type: "humidity_low",
      metric: "humidity",
      limit: `below ${config.humidifier.humidity_on_below} %`,
      threshold: config.humidifier.humidity_on_below,
      title: `${name}: humidity low`,
      body: `Humidity is ${round(humidity)}%, below ${config.humidifier.humidity_on_below}%.`,
    });
  }
  const co2 = reading.CO2?.co2;
  if (co2 !== undefined && co2 > config.ventilation.co2_threshold * (1 + CO2_BAND)) {
    breaches.push({
      type: "co2_high",
      metric: "co2",
      limit: `above ${config.ventilation.co2_threshold} ppm`,
      threshold: config.ventilation.co2_threshold,
      title: `${name}: CO2 high`,
      body: `CO2 is ${Math.round(co2)} ppm, above ${config.ventilation.co2_threshold} ppm.`,
    });
  }
  const moisture = reading.MOISTURE?.soil_moisture;
  if (moisture !== undefined && moisture < config.irrigation.soil_moisture_on - SOIL_MOISTURE_BAND) {
    breaches.push({
      type: "soil_moisture_low",
      metric: "soilMoisture",
      limit: `below ${config.irrigation.soil_moisture_on} %`,
      threshold: config.irrigation.soil_moisture_on,
      title: `${name}: soil moisture low`,
      body: `Soil moisture is ${round(moisture)}%, below ${config.irrigation.soil_moisture_on}%.`,
    });
  }
  const room = config.ac.based_on === "room_temp";
  const basis = room ? reading.DHT?.temperature : reading.SOIL_TEMP?.soil_temperature;
  if (basis !== undefined && Math.abs(basis - config.ac.target_temp) > TEMPERATURE_TOLERANCE) {
    breaches.push({
      type: "temperature_off_target",
      metric: room ? "temperature" : "soilTemperature",
      limit: `target ${config.ac.target_temp} °C`,
      threshold: config.ac.target_temp,
      title: `${name}: temperature off target`,
      body: `${room ? "Room" : "Soil"} temperature is ${round(basis)} °C, target ${config.ac.target_temp} °C.`,
    });
  }
  return breaches;
}

/** SPEC §9: a battery below 30 % is low. */
export const isLowBattery = (reading: LiveReading | null | undefined): boolean =>
  reading?.batteryLevel !== undefined && reading.batteryLevel < LOW_BATTERY_BELOW;

/** An MCU needs attention while a reading is outside its profile or its battery is low. */
export const needsAttention = (reading: LiveReading | null | undefined, config: ProfileConfig | null | undefined): boolean =>
  !!reading && (isLowBattery(reading) || thresholdBreaches("", reading, config).length > 0);

/**
 * SPEC §3 farm status, derived from its MCUs: offline when every MCU is offline, warning while
 * an online MCU needs attention, otherwise active. A farm without MCUs is active.
 */
export function farmStatusOf(mcus: readonly { online: boolean; attention: boolean }[]): "active" | "warning" | "offline" {
  if (mcus.length > 0 && mcus.every((m) => !m.online)) return "offline";
  return mcus.some((m) => m.online && m.attention) ? "warning" : "active";
}
