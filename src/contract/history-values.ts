import { COMMAND_TARGETS } from "./enums.ts";
import { route } from "./route.ts";

/**
 * The values and paths of the reading history contract (history.ts), apart from its answer
 * schemas: the app's screens use them without building a schema (as enums.ts and api-paths.ts
 * are to entities.ts). history.ts exports them too.
 */

/** The metrics kept, in the order charts and CSV columns show them. */
export const HISTORY_METRICS = ["temperature", "humidity", "soil_temperature", "co2", "soil_moisture", "battery"] as const;
export type HistoryMetric = (typeof HISTORY_METRICS)[number];

/** How each metric reads for a person: its label and unit. */
export const METRIC_INFO: Record<HistoryMetric, { label: string; unit: string }> = {
  temperature: { label: "Temperature", unit: "°C" },
  humidity: { label: "Humidity", unit: "%" },
  soil_temperature: { label: "Soil Temperature", unit: "°C" },
  co2: { label: "CO2", unit: "ppm" },
  soil_moisture: { label: "Soil Moisture", unit: "%" },
  battery: { label: "Battery", unit: "%" },
};

/**
 * The buckets a series can be read at, in seconds. Below an hour they are built from minute
 * rollups, from an hour up from hourly rollups.
 */
export const RESOLUTIONS = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** At most this many points per series when the server chooses the resolution. */
export const MAX_POINTS = 2000;
/** At most this many points per series when the request names a resolution (charts; CSV has no cap). */
export const MAX_POINTS_GIVEN = 20_000;
/** The longest range one request may ask for: a little over the default hourly retention. */
export const MAX_SPAN_MS = 800 * 86_400_000;

/**
 * A range whose hourly buckets number at least this many is read at an hour when the server
 * chooses (about 21 days and more): a chart is a thousand or two pixels wide, so finer buckets
 * show nothing more there, while reading them costs sixty times the rows (a month of one MCU:
 * 43 200 minute rows against 720 hourly ones, each keeping its min and max).
 */
export const HOURLY_ENOUGH_POINTS = 500;

/**
 * The resolution the server chooses for a range of `spanMs`: the smallest that keeps it within
 * MAX_POINTS points (the largest resolution if none), or an hour once that gives HOURLY_ENOUGH_POINTS.
 */
export function resolutionFor(spanMs: number, maxPoints = MAX_POINTS): Resolution {
  const r = RESOLUTIONS.find((r) => Math.ceil(spanMs / (r * 1000)) <= maxPoints) ?? RESOLUTIONS[RESOLUTIONS.length - 1]!;
  return r < 3600 && Math.ceil(spanMs / 3_600_000) >= HOURLY_ENOUGH_POINTS ? 3600 : r;
}

/** The device states kept as change events: each controller (by its key in a reading and a command), and the irrigation session. */
export const STATE_TARGETS = COMMAND_TARGETS;
export type StateTarget = (typeof STATE_TARGETS)[number];

export const COMMAND_OUTCOMES = ["pending", "acknowledged", "refused", "timed_out", "failed", "reported"] as const;
export type CommandOutcome = (typeof COMMAND_OUTCOMES)[number];
/** `user`: a command sent from the app; `automation`: a change the device made by its profile and reported. */
export const COMMAND_SOURCES = ["user", "automation"] as const;

/** The history endpoints (after API_PATHS); `.csv` variants stream the same data as CSV. */
export const HISTORY_PATHS = {
  mcuHistory: route("/api/mcus/:mcu_id/history"),
  mcuHistoryCsv: route("/api/mcus/:mcu_id/history.csv"),
  farmHistory: route("/api/farms/:farm_id/history"),
  farmHistoryCsv: route("/api/farms/:farm_id/history.csv"),
  timeline: route("/api/mcus/:mcu_id/timeline"),
  timelineCsv: route("/api/mcus/:mcu_id/timeline.csv"),
  commands: route("/api/mcus/:mcu_id/commands"),
  commandsCsv: route("/api/mcus/:mcu_id/commands.csv"),
} as const;
