import type { LiveReading } from "../contract/entities.ts";
import type { DeviceSnapshot } from "../contract/realtime.ts";

/**
 * The live state of one MCU as the dashboard shows it. Snapshots are immutable: a change makes a
 * new object, an unchanged MCU keeps its object (so React can compare by identity).
 */
export interface McuLive {
  /** The MCU's MAC, the socket's deviceId. */
  mac: string;
  mcuId: number | null;
  /** The latest reading; each realtimeData replaces it whole (SPEC §4). */
  readings: LiveReading | null;
  /** The status the device or server reported: online, offline, active, maintenance. */
  status: string;
  /** When the latest reading arrived (epoch ms), or null if none has. */
  lastReadingAt: number | null;
  /** Online iff a reading arrived within the freshness window, judged at the last clock tick. */
  online: boolean;
  /** Toggles sent and not yet acknowledged: `${target}:${type}` → the requested value. */
  pending: Readonly<Record<string, boolean>> | null;
}

/** What the data core folds, in the order it happened. */
export type CoreEvent =
  | { kind: "snapshot"; devices: DeviceSnapshot[] }
  | { kind: "reading"; mac: string; payload: LiveReading; at: number }
  | { kind: "status"; mac: string; status: string }
  | { kind: "tick"; now: number }
  | { kind: "pending"; mac: string; key: string; value: boolean | null }
  /** A device acknowledged a toggle: show its new state until its next reading says otherwise. */
  | { kind: "confirmed"; mac: string; target: "Irrigation" | "AC" | "Ventilation" | "Humidifier"; field: "auto" | "status"; value: boolean }
  | { kind: "reset" };

/** SPEC §4 and §9: online iff a reading arrived within the last 120 000 ms. */
export const FRESHNESS_MS = 120_000;

export function isFresh(lastReadingAt: number | null, clock: number, windowMs = FRESHNESS_MS): boolean {
  return lastReadingAt !== null && clock - lastReadingAt < windowMs;
}

/** `pending` key of a toggle. */
export const pendingKey = (target: string, type: "auto" | "status") => `${target}:${type}`;

/** MCU readings arrive as an object or as text holding JSON (SPEC §3): accept both. */
export function parseReadings(readings: unknown): LiveReading | null {
  if (readings === null || readings === undefined || readings === "") return null;
  if (typeof readings === "string") {
    try {
      const parsed: unknown = JSON.parse(readings);
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as LiveReading) : null;
    } catch {
      return null;
    }
  }
  return typeof readings === "object" && !Array.isArray(readings) ? (readings as LiveReading) : null;
}
