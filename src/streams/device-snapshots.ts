import type { LiveReading } from "../contract/entities.ts";
import type { DeviceSnapshot, RealtimeBatchPayload } from "../contract/realtime.ts";

export type { McuLive } from "../contract/live.ts";

/** What the data core folds, in the order it happened. */
export type CoreEvent =
  | { kind: "snapshot"; devices: DeviceSnapshot[] }
  | { kind: "reading"; mac: string; payload: LiveReading; at: number }
  | { kind: "status"; mac: string; status: string }
  /** The server's realtimeBatch as it came (MACs not yet normalised), folded in one go, `at` its arrival. */
  | { kind: "batch"; batch: RealtimeBatchPayload; at: number }
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
