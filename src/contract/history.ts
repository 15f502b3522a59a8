import { type } from "arktype";
import { COMMAND_TARGETS } from "./enums.ts";

/**
 * Reading history (issue 14): what the server keeps of readings over time, and the API that
 * answers it. The server folds the live stream into one-minute rollups per MCU (min, avg, max and
 * sample count of each metric), written once a minute, and hourly rollups built from them; device
 * states (each controller's status/auto, irrigation session) are kept as change events; every
 * command and every change made by a device's own automation goes to the command log.
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

/** The smallest resolution that keeps a range of `spanMs` within MAX_POINTS points (the largest resolution if none). */
export function resolutionFor(spanMs: number, maxPoints = MAX_POINTS): Resolution {
  return RESOLUTIONS.find((r) => Math.ceil(spanMs / (r * 1000)) <= maxPoints) ?? RESOLUTIONS[RESOLUTIONS.length - 1]!;
}

/** One metric's series: values per bucket, null where the bucket holds no sample of it. */
export const metricSeries = type({
  min: "(number | null)[]",
  avg: "(number | null)[]",
  max: "(number | null)[]",
  /** Samples in each bucket (0 where none). */
  count: "number.integer[]",
});
export type MetricSeries = typeof metricSeries.infer;

/**
 * `GET /api/mcus/:mcu_id/history?from&to[&metrics=a,b][&resolution=seconds]`: columns, as charts
 * take them. `t` holds each bucket's start (epoch ms), ascending; only buckets with a sample are listed.
 */
export const mcuHistory = type({
  mcu_id: "number.integer",
  from: "string",
  to: "string",
  resolution: "number.integer",
  t: "number[]",
  series: type.Record("string", metricSeries),
});
export type McuHistory = Omit<typeof mcuHistory.infer, "series"> & { series: Partial<Record<HistoryMetric, MetricSeries>> };

/**
 * `GET /api/farms/:farm_id/history?metric&from&to[&resolution]`: every MCU of the farm on one
 * metric (averages per bucket), on one shared time axis `t`.
 */
export const farmHistory = type({
  farm_id: "number.integer",
  metric: type.enumerated(...HISTORY_METRICS),
  from: "string",
  to: "string",
  resolution: "number.integer",
  t: "number[]",
  mcus: type({ mcu_id: "number.integer", name: "string", mac: "string", avg: "(number | null)[]" }).array(),
});
export type FarmHistory = typeof farmHistory.infer;

/** The device states kept as change events: each controller (by its key in a reading and a command), and the irrigation session. */
export const STATE_TARGETS = COMMAND_TARGETS;
export type StateTarget = (typeof STATE_TARGETS)[number];

/** One change of a controller's state, as the device reported it. */
export const stateEvent = type({
  at: "string",
  target: type.enumerated(...STATE_TARGETS),
  status: "boolean",
  auto: "boolean",
  /** Irrigation only: a watering session is running. */
  "session?": "boolean | null",
});
export type StateEvent = typeof stateEvent.infer;

/**
 * `GET /api/mcus/:mcu_id/timeline?from&to`: each controller's state at `from` (its last change
 * before it, if any) and every change in the range, oldest first.
 */
export const stateTimeline = type({
  mcu_id: "number.integer",
  from: "string",
  to: "string",
  initial: stateEvent.array(),
  events: stateEvent.array(),
});
export type StateTimeline = typeof stateTimeline.infer;

export const COMMAND_OUTCOMES = ["pending", "acknowledged", "refused", "timed_out", "failed", "reported"] as const;
export type CommandOutcome = (typeof COMMAND_OUTCOMES)[number];
/** `user`: a command sent from the app; `automation`: a change the device made by its profile and reported. */
export const COMMAND_SOURCES = ["user", "automation"] as const;

export const commandLogEntry = type({
  command_id: "string",
  mcu_id: "number.integer",
  source: type.enumerated(...COMMAND_SOURCES),
  /** Who sent it (the username at the time), or null for the device's automation. */
  actor: "string | null",
  target: type.enumerated(...STATE_TARGETS),
  /** What was switched: the controller's automation (`auto`) or the controller itself (`status`). */
  type: "'auto' | 'status'",
  on_off: "boolean",
  at: "string",
  outcome: type.enumerated(...COMMAND_OUTCOMES),
  /** The device's reason for a refusal, or why no answer came. */
  reason: "string | null",
  answered_at: "string | null",
});
export type CommandLogEntry = typeof commandLogEntry.infer;

/**
 * `GET /api/mcus/:mcu_id/commands?[from][&to][&source][&outcome][&target][&limit][&before]`:
 * newest first; `next_before` pages on (pass it as `before`), null at the end.
 */
export const commandLog = type({
  mcu_id: "number.integer",
  entries: commandLogEntry.array(),
  next_before: "string | null",
});
export type CommandLog = typeof commandLog.infer;

/** The history endpoints (after API_PATHS); `.csv` variants stream the same data as CSV. */
export const HISTORY_PATHS = {
  mcuHistory: (mcuId: number) => `/api/mcus/${mcuId}/history`,
  mcuHistoryCsv: (mcuId: number) => `/api/mcus/${mcuId}/history.csv`,
  farmHistory: (farmId: number) => `/api/farms/${farmId}/history`,
  farmHistoryCsv: (farmId: number) => `/api/farms/${farmId}/history.csv`,
  timeline: (mcuId: number) => `/api/mcus/${mcuId}/timeline`,
  timelineCsv: (mcuId: number) => `/api/mcus/${mcuId}/timeline.csv`,
  commands: (mcuId: number) => `/api/mcus/${mcuId}/commands`,
  commandsCsv: (mcuId: number) => `/api/mcus/${mcuId}/commands.csv`,
} as const;
