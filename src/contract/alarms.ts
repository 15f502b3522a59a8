import { type } from "arktype";
import type { RequestSchema } from "./api.ts";
import {
  ALARM_COMMENT_MAX,
  ALARM_KINDS,
  ALARM_METRICS,
  ALARM_PAGE_MAX,
  ALARM_STATE_FILTERS,
  ALARM_STATES,
  type Alarm,
  type AlarmKind,
  type AlarmWords,
  type AlarmPage,
  type AlarmStateFilter,
  type FarmAcknowledgement,
  type NotificationPreferences,
} from "./alarms-values.ts";
import { idField, optionalText } from "./fields.ts";
import { words } from "./words.ts";

/**
 * Alarms and notification preferences: the answer schemas the data core checks and the
 * request schemas the server checks. The values, types and paths are in alarms-values.ts.
 */

export * from "./alarms-values.ts";

/** One alarm as the API and the `alarm` socket event carry it (fields documented on `Alarm`). */
export const alarm = type({
  alarm_id: "number.integer",
  kind: type.enumerated(...ALARM_KINDS),
  state: type.enumerated(...ALARM_STATES),
  mcu_id: "number.integer",
  mac: "string",
  mcu_name: "string",
  farm_id: "number.integer | null",
  farm_name: "string | null",
  title: "string",
  body: "string",
  "words?": words.alarmWords,
  metric: type.enumerated(...ALARM_METRICS).or("null"),
  opened_value: "number | null",
  worst_value: "number | null",
  opened_at: "string",
  acknowledged_at: "string | null",
  acknowledged_by: "string | null",
  ack_comment: "string | null",
  resolved_at: "string | null",
});

export const alarmPage = type({ alarms: alarm.array(), next: "string | null" });

export const farmAcknowledgement = type({ acknowledged: alarm.array() });

/** A value of a closed set, with a message that lists the set (the values are typed by hand into links as often as the app sends them). */
function oneOf<const T extends string>(name: string, values: readonly T[]) {
  const list = values.length === 2 ? values.join(" or ") : `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`;
  return type("string")
    .narrow((s, ctx) => (values as readonly string[]).includes(s) || ctx.reject({ message: `${name} must be ${values.length > 3 ? "one of " : ""}${list}` }))
    .pipe((s) => s as T);
}

/** The cursor is opaque to the app: it only hands back the `next` of a previous page. */
const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * `GET /api/alarms`: the query, each parameter once, as strings (the server refuses unknown and
 * repeated parameters before this). `state` defaults to active, `limit` to 50.
 */
export const alarmListQuery = {
  schema: type({
    "state?": oneOf<AlarmStateFilter>("state", ALARM_STATE_FILTERS),
    "farm_id?": idField("farm_id"),
    "mcu_id?": idField("mcu_id"),
    "kind?": oneOf<AlarmKind>("kind", ALARM_KINDS),
    "limit?": type("string").pipe((s, ctx) => {
      const n = /^\d{1,4}$/.test(s) ? Number(s) : NaN;
      return n >= 1 && n <= ALARM_PAGE_MAX ? n : ctx.error({ message: `limit must be a whole number from 1 to ${ALARM_PAGE_MAX}` });
    }),
    "cursor?": type("string").narrow((s, ctx) => CURSOR_PATTERN.test(s) || ctx.reject({ message: "cursor must be the next of a previous page" })),
    "+": "reject",
  }),
  missing: {},
} satisfies RequestSchema;

export type AlarmListQuery = typeof alarmListQuery.schema.infer;

/** `POST /api/alarms/:id/acknowledge`: an optional comment, trimmed; an empty one is none. */
export const acknowledgeAlarmRequest = {
  schema: type({
    "comment?": type("null").or(optionalText("comment", ALARM_COMMENT_MAX)).pipe((s) => (s ? s : null)),
    "+": "reject",
  }),
  missing: {},
} satisfies RequestSchema;

/** `POST /api/alarms/acknowledge`: the farm whose open alarms are acknowledged, and an optional comment for each (as one alarm's). */
export const acknowledgeFarmAlarmsRequest = {
  schema: type({
    farm_id: idField("farm_id"),
    "comment?": type("null").or(optionalText("comment", ALARM_COMMENT_MAX)).pipe((s) => (s ? s : null)),
    "+": "reject",
  }),
  missing: { farm_id: "farm_id is required" },
} satisfies RequestSchema;

/** "HH:MM", 24 h. */
export const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

function clockTimeField(path: string) {
  return type("string").narrow((s, ctx) => CLOCK_TIME.test(s) || ctx.reject({ message: `${path} must be a time of day as HH:MM (24 h), like 22:00` }));
}

/** The IANA name of a time zone this runtime knows, in its canonical spelling ("asia/beirut" -> "Asia/Beirut"); undefined if none. */
export function canonicalTimeZone(name: string): string | undefined {
  // Offsets ("+03:00") are refused: quiet hours follow a place's clock, summer time included.
  if (name.length === 0 || name.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

const timeZoneField = type("string").pipe(
  (s, ctx) => canonicalTimeZone(s.trim()) ?? ctx.error({ message: "quiet_hours.time_zone must be an IANA time zone, like Asia/Beirut or UTC" }),
);

/**
 * Notification preferences, whole (`PUT` and its answer, `GET`): every field required, unknown
 * fields refused at every level. Fields documented on `NotificationPreferences`.
 */
export const notificationPreferences = type({
  in_app: type({ device_status: "boolean", environmental: "boolean", battery: "boolean", "+": "reject" }),
  push: type({ emergency: "boolean", "+": "reject" }),
  quiet_hours: type({
    enabled: "boolean",
    start: clockTimeField("quiet_hours.start"),
    end: clockTimeField("quiet_hours.end"),
    time_zone: timeZoneField,
    "+": "reject",
  }),
  "+": "reject",
});

const PREFERENCE_PATHS = [
  "in_app",
  "in_app.device_status",
  "in_app.environmental",
  "in_app.battery",
  "push",
  "push.emergency",
  "quiet_hours",
  "quiet_hours.enabled",
  "quiet_hours.start",
  "quiet_hours.end",
  "quiet_hours.time_zone",
] as const;

export const notificationPreferencesRequest = {
  schema: notificationPreferences,
  missing: Object.fromEntries(PREFERENCE_PATHS.map((p) => [p, `${p} is required`])),
} satisfies RequestSchema;

// The schemas and the contract's interfaces describe the same shapes.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShapes: [
  Same<AlarmListQuery, { state?: AlarmStateFilter; farm_id?: number; mcu_id?: number; kind?: AlarmKind; limit?: number; cursor?: string }>,
  Same<typeof alarm.infer, Alarm>, Same<typeof words.alarmWords.infer, AlarmWords>, Same<typeof alarmPage.infer, AlarmPage>, Same<typeof notificationPreferences.infer, NotificationPreferences>,
  Same<typeof farmAcknowledgement.infer, FarmAcknowledgement>] = [true, true, true, true, true, true];
void sameShapes;
