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

/** A level as a battery bar shows it: clamped to 0-100, in whole percent, and its colour. */
export function shownBattery(level: number): { clamped: number; shown: string; color: BatteryColor } {
  const clamped = Math.min(100, Math.max(0, level));
  return { clamped, shown: `${Math.round(clamped)}%`, color: batteryColor(clamped) };
}

/** Whether two levels look the same in a battery bar (same whole percent, same colour). */
export function sameShownBattery(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  const x = shownBattery(a);
  const y = shownBattery(b);
  return x.shown === y.shown && x.color === y.color;
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
