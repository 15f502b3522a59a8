import { LOW_BATTERY_BELOW } from "../../../contract/conditions.ts";
import type { Mcu } from "../../../contract/entities.ts";
import { parseReadings, type McuLive } from "../../../streams/device-snapshots.ts";

export type BatteryColor = "green" | "yellow" | "red";

/** SPEC §4/§9 battery colour: above 50 green, above 20 yellow, otherwise red. */
export function batteryColor(level: number): BatteryColor {
  if (level > 50) return "green";
  if (level > 20) return "yellow";
  return "red";
}

/**
 * The MCU's battery level in %, or null if it never reported one. The live reading wins over
 * the MCU record because the record is only as fresh as the last page load.
 */
export function batteryLevelOf(mcu: Mcu, live: McuLive | undefined): number | null {
  const level = live?.readings?.batteryLevel ?? parseReadings(mcu.readings)?.batteryLevel;
  return typeof level === "number" && Number.isFinite(level) ? level : null;
}

export function isLowBattery(mcu: Mcu, live: McuLive | undefined): boolean {
  const level = batteryLevelOf(mcu, live);
  return level !== null && level < LOW_BATTERY_BELOW;
}
