import type { LiveReading, SensorType } from "../../../contract/entities.ts";
import { numberFormat } from "../../i18n/format.ts";
import { i18n } from "../../i18n/i18n.ts";

const COUNT: Intl.NumberFormatOptions = { maximumFractionDigits: 0, useGrouping: false };

/** A count in the person's digits, ungrouped as the dashboard has always shown counts ("1988"). */
export const formatCount = (n: number): string => numberFormat(COUNT).format(n);

/**
 * SPEC §2's "reporting / total sensors" label of one reading. A device can count sensors the MCU
 * has not registered (wired, never scanned in): the total is then never below the reporting
 * count ("1/0" would say fewer sensors exist than report). Which of them are not registered is
 * said once for the card (`unregisteredSensors`), not under each value: temperature and humidity
 * come from the same sensors, and a note under each would count them twice.
 */
export function sensorCountLabel(reporting: number, registered: number): string {
  const total = Math.max(reporting, registered);
  return i18n.t("dashboard:sensors", { count: total, reporting: formatCount(reporting), total: formatCount(total) });
}

/** The sensor type each group of a reading comes from (DHT readings come from Humidity sensors). */
const SENSOR_GROUPS: readonly [group: "DHT" | "SOIL_TEMP" | "CO2" | "MOISTURE", type: SensorType][] = [
  ["DHT", "Humidity"],
  ["SOIL_TEMP", "Soil_temp"],
  ["CO2", "CO2"],
  ["MOISTURE", "Moisture"],
];

/** How many of the sensors a reading counts are more than the MCU has registered, each sensor once. */
export function unregisteredSensors(readings: LiveReading, registered: Readonly<Record<SensorType, number>>): number {
  let unregistered = 0;
  for (const [group, type] of SENSOR_GROUPS) unregistered += Math.max(0, (readings[group]?.count ?? 0) - registered[type]);
  return unregistered;
}
