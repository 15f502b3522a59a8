import { type } from "arktype";
import { COMMAND_OUTCOMES, COMMAND_SOURCES, HISTORY_METRICS, STATE_TARGETS, type HistoryMetric } from "./history-values.ts";
import { switchReason } from "./switch-reasons.ts";

/**
 * Reading history: what the server keeps of readings over time, and the API that
 * answers it. The server folds the live stream into one-minute rollups per MCU (min, avg, max and
 * sample count of each metric), written once a minute, and hourly rollups built from them; device
 * states (each controller's status/auto, irrigation session) are kept as change events; every
 * command and every change made by a device's own automation goes to the command log.
 */

export {
  COMMAND_OUTCOMES,
  COMMAND_SOURCES,
  HISTORY_METRICS,
  HISTORY_PATHS,
  HOURLY_ENOUGH_POINTS,
  MAX_POINTS,
  MAX_POINTS_GIVEN,
  MAX_SPAN_MS,
  METRIC_INFO,
  RESOLUTIONS,
  resolutionFor,
  STATE_TARGETS,
  type CommandOutcome,
  type HistoryMetric,
  type Resolution,
  type StateTarget,
} from "./history-values.ts";

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
  /** `count`: the samples in each bucket (0 where none), so that a client can fold live readings into the last one. */
  mcus: type({ mcu_id: "number.integer", name: "string", mac: "string", avg: "(number | null)[]", count: "number.integer[]" }).array(),
});
export type FarmHistory = typeof farmHistory.infer;

/** One change of a controller's state, as the device reported it. */
export const stateEvent = type({
  at: "string",
  target: type.enumerated(...STATE_TARGETS),
  status: "boolean",
  auto: "boolean",
  /** Irrigation only: a watering session is running. */
  "session?": "boolean | null",
  /**
   * Who made the change and why, from the command log (the timeline's changes in the range; not
   * the states at `from`): the automation with its reason (null when none is known), or a person.
   * Absent when the log has no row for it (a first state heard, a change by hand on the device).
   */
  "cause?": { source: type.enumerated(...COMMAND_SOURCES), actor: "string | null", why: switchReason.or("null") },
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
  /**
   * Why the automation switched: the rule, the value it read and the limit, whether the server
   * inferred it, and the running batch's phase (`reasonText` says it in words). Null for a
   * person's command and for a switch no rule explains.
   */
  why: switchReason.or("null"),
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

