import type { Mcu, SensorType } from "../../../contract/entities.ts";

/** How many sensors of each type an MCU has: the "total" of each reading's reporting/total label. */
export function sensorTotals(sensors: Mcu["sensors"]): Record<SensorType, number> {
  const totals: Record<SensorType, number> = { CO2: 0, Humidity: 0, Soil_temp: 0, Moisture: 0 };
  for (const s of sensors) totals[s.type]++;
  return totals;
}

/**
 * SPEC §2's "reporting / total sensors" label of one reading. A device can count sensors the MCU
 * has not registered (wired, never scanned in): the total is then never below the reporting
 * count ("1/0" would say fewer sensors exist than report), and the unregistered ones are named so
 * the farmer knows to register them.
 */
export function sensorCountLabel(reporting: number, registered: number): { text: string; unregistered: number } {
  const total = Math.max(reporting, registered);
  return { text: `${reporting}/${total} sensors`, unregistered: Math.max(0, reporting - registered) };
}
