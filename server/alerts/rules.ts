import type { AlertType, LiveReading, ProfileConfig } from "../../src/contract/entities.ts";

/** How far from the AC target a temperature may drift before it counts as off target (°C). */
export const TEMPERATURE_TOLERANCE = 2;
export const LOW_BATTERY_BELOW = 30;
/** A low battery alert re-arms only once the battery is back above this (hysteresis). */
export const BATTERY_REARM_ABOVE = 35;

export interface Breach {
  type: Exclude<AlertType, "mcu_offline" | "mcu_online" | "battery_low">;
  title: string;
  body: string;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The readings outside the linked profile's thresholds right now (issue: alerts). */
export function thresholdBreaches(name: string, reading: LiveReading, config: ProfileConfig | null): Breach[] {
  if (!config) return [];
  const breaches: Breach[] = [];
  const humidity = reading.DHT?.humidity;
  if (humidity !== undefined && humidity < config.humidifier.humidity_on_below) {
    breaches.push({
      type: "humidity_low",
      title: `${name}: humidity low`,
      body: `Humidity is ${round(humidity)}%, below ${config.humidifier.humidity_on_below}%.`,
    });
  }
  const co2 = reading.CO2?.co2;
  if (co2 !== undefined && co2 > config.ventilation.co2_threshold) {
    breaches.push({ type: "co2_high", title: `${name}: CO2 high`, body: `CO2 is ${Math.round(co2)} ppm, above ${config.ventilation.co2_threshold} ppm.` });
  }
  const moisture = reading.MOISTURE?.soil_moisture;
  if (moisture !== undefined && moisture < config.irrigation.soil_moisture_on) {
    breaches.push({
      type: "soil_moisture_low",
      title: `${name}: soil moisture low`,
      body: `Soil moisture is ${round(moisture)}%, below ${config.irrigation.soil_moisture_on}%.`,
    });
  }
  const basis = config.ac.based_on === "room_temp" ? reading.DHT?.temperature : reading.SOIL_TEMP?.soil_temperature;
  if (basis !== undefined && Math.abs(basis - config.ac.target_temp) > TEMPERATURE_TOLERANCE) {
    const what = config.ac.based_on === "room_temp" ? "Room" : "Soil";
    breaches.push({
      type: "temperature_off_target",
      title: `${name}: temperature off target`,
      body: `${what} temperature is ${round(basis)} °C, target ${config.ac.target_temp} °C.`,
    });
  }
  return breaches;
}
