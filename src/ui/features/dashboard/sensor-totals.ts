import type { Mcu, SensorType } from "../../../contract/entities.ts";

/** How many sensors of each type an MCU has: the "total" of each reading's reporting/total label. */
export function sensorTotals(sensors: Mcu["sensors"]): Record<SensorType, number> {
  const totals: Record<SensorType, number> = { CO2: 0, Humidity: 0, Soil_temp: 0, Moisture: 0 };
  for (const s of sensors) totals[s.type]++;
  return totals;
}
