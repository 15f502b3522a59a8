import type { LiveReading } from "./entities.ts";
import type { AlertType } from "./enums.ts";
import { route } from "./route.ts";

/**
 * Alarms: the values, types and paths of the alarm and notification-preference
 * contract, apart from its request schemas (alarms.ts): the data core and the screens use them
 * without building a schema (as history-values.ts is to history.ts).
 *
 * An alarm is one occurrence of an alert condition on one MCU: a reading outside the linked
 * profile for longer than the grace period, the MCU offline, its battery below 30 %, or one of its
 * sensors failing while the MCU reports (fewer sensors of a type reporting than it has, a value
 * stuck). It opens once (never a second one of the same kind for the same MCU, and for a sensor's
 * alarm the same sensor type or metric, while one is unresolved, across server nodes and
 * restarts), can be acknowledged by the client (who, when, an optional comment), which
 * stops the nagging but keeps it listed, and is resolved when its condition clears (kept, with its
 * duration). A condition that clears and returns within the hysteresis does not open a new alarm.
 */

/** The kinds of alarm (the alert types that name a condition; `mcu_online` is only a notification). */
export const ALARM_KINDS = [
  "mcu_offline",
  "battery_low",
  "humidity_low",
  "co2_high",
  "soil_moisture_low",
  "temperature_off_target",
  /** Fewer sensors of a type report than the MCU has, while the MCU itself reports. */
  "sensor_missing",
  /** A metric has read exactly the same value for too long: real sensors jitter, a frozen one does not. */
  "sensor_stuck",
] as const satisfies readonly AlertType[];
export type AlarmKind = (typeof ALARM_KINDS)[number];

/** How each kind reads for a person (filters, lists, the wall). */
export const ALARM_KIND_LABELS: Record<AlarmKind, string> = {
  mcu_offline: "Offline",
  battery_low: "Low battery",
  humidity_low: "Humidity low",
  co2_high: "CO2 high",
  soil_moisture_low: "Soil moisture low",
  temperature_off_target: "Temperature off target",
  sensor_missing: "Sensor missing",
  sensor_stuck: "Sensor stuck",
};

/**
 * The reading an alarm is about, named as the live reading's card values are (`batteryLevel` for
 * a low battery); an MCU offline is about no reading.
 */
export const ALARM_METRICS = ["temperature", "humidity", "soilTemperature", "co2", "soilMoisture", "batteryLevel"] as const;
export type AlarmMetric = (typeof ALARM_METRICS)[number];

const METRIC_UNITS: Record<AlarmMetric, string> = { temperature: " °C", humidity: "%", soilTemperature: " °C", co2: " ppm", soilMoisture: "%", batteryLevel: "%" };

/** A metric's value for a person, as the alarm texts write it: "1450 ppm", "78.5%", "21.3 °C". */
export function formatMetricValue(metric: AlarmMetric, value: number): string {
  const rounded = metric === "co2" || metric === "batteryLevel" ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded}${METRIC_UNITS[metric]}`;
}

/** A metric's value in a live reading, if the reading has it. */
export function metricValue(reading: LiveReading | null | undefined, metric: AlarmMetric): number | undefined {
  if (!reading) return undefined;
  switch (metric) {
    case "temperature":
      return reading.DHT?.temperature;
    case "humidity":
      return reading.DHT?.humidity;
    case "soilTemperature":
      return reading.SOIL_TEMP?.soil_temperature;
    case "co2":
      return reading.CO2?.co2;
    case "soilMoisture":
      return reading.MOISTURE?.soil_moisture;
    case "batteryLevel":
      return reading.batteryLevel;
  }
}

/**
 * Alarms of one MCU that opened within this time of each other are one incident (an open door
 * sends temperature, humidity and CO2 out of profile together): the Alarms page and the bell show
 * them as one entry that expands, the alarms themselves staying apart.
 */
export const ALARM_GROUP_WINDOW_MS = 5 * 60_000;

/** `open`: active, not yet acknowledged; `acknowledged`: active, someone has seen it; `resolved`: its condition cleared. */
export const ALARM_STATES = ["open", "acknowledged", "resolved"] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

/** The list filter: `active` is open or acknowledged. */
export const ALARM_STATE_FILTERS = ["active", "resolved", "all"] as const;
export type AlarmStateFilter = (typeof ALARM_STATE_FILTERS)[number];

/** An acknowledgement's comment, at most this many characters. */
export const ALARM_COMMENT_MAX = 500;
/** One page of the alarm list: at most this many (default 50). */
export const ALARM_PAGE_MAX = 200;

/**
 * A text the server writes, as words each reader reads in their own language: a key of the
 * server's texts (`src/locales/<language>/server.json`), the values it names and `count`, which
 * picks a plural form. A value is a name as it is, a number (written as JavaScript writes it, in
 * the reader's digits, without grouping), a number with at most `decimals` decimals (grouped when
 * `grouped`), or words of its own (a unit, a metric's name). server/texts.ts writes them.
 */
export interface Words {
  key: string;
  values?: Record<string, string | number | WordsNumber | Words>;
  count?: number;
}

/** A number in words: at most `decimals` decimals (all it has when absent), grouped ("1,234") only when `grouped`. */
export interface WordsNumber {
  num: number;
  decimals?: number;
  grouped?: boolean;
}

/** An alarm's title and body as words. */
export interface AlarmWords {
  title: Words;
  body: Words;
}

/** One alarm as the API and the `alarm` socket event carry it. */
export interface Alarm {
  alarm_id: number;
  kind: AlarmKind;
  state: AlarmState;
  mcu_id: number;
  mac: string;
  mcu_name: string;
  farm_id: number | null;
  farm_name: string | null;
  /** What it is about, for a person: "Oyster Room A: humidity low". */
  title: string;
  /** The condition when it opened: "Humidity is 78%, below 85%." */
  body: string;
  /**
   * What `title` and `body` say, as words, for each reader to read in their own language (the
   * server stores both texts in English). Absent for an alarm stored without them (opened before
   * alarms kept them, or seeded from a notification's texts): its title and body are all there is.
   */
  words?: AlarmWords;
  /** The reading it is about; null for an MCU offline, a sensor missing, and alarms opened before alarms kept their values. */
  metric: AlarmMetric | null;
  /** The metric's value when it opened (what `body` says). */
  opened_value: number | null;
  /** The worst value reached while it was unresolved: the highest CO2, the lowest humidity, soil moisture or battery, the temperature farthest from its target; for a sensor stuck, the value it is stuck on. */
  worst_value: number | null;
  opened_at: string;
  acknowledged_at: string | null;
  /** The username of who acknowledged it, at the time. */
  acknowledged_by: string | null;
  ack_comment: string | null;
  resolved_at: string | null;
}

/** `GET /api/alarms`: newest first, with the cursor of the next page (null on the last). */
export interface AlarmPage {
  alarms: Alarm[];
  next: string | null;
}

/** The answer to acknowledging a farm's alarms: those this call acknowledged (none when none was open), newest first. */
export interface FarmAcknowledgement {
  acknowledged: Alarm[];
}

/**
 * Notification preferences, stored on the server per client. What the server can
 * deliver is a choice: in-app notifications (the bell) and push (when push is configured on the
 * server). Email is not delivered yet: its switches stay display-only.
 */
export interface NotificationPreferences {
  in_app: {
    /** MCUs going offline and back online, and their sensors missing or stuck. */
    device_status: boolean;
    /** Readings outside the linked profile. */
    environmental: boolean;
    /** Low battery. */
    battery: boolean;
  };
  push: {
    /** Every alarm as it opens. */
    emergency: boolean;
  };
  quiet_hours: {
    enabled: boolean;
    /** Local time "HH:MM" (24 h) in `time_zone`; quiet from start to end, across midnight when end <= start. */
    start: string;
    end: string;
    /** IANA time zone, e.g. "Asia/Beirut". */
    time_zone: string;
  };
}

export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  in_app: { device_status: true, environmental: true, battery: true },
  push: { emergency: true },
  quiet_hours: { enabled: false, start: "22:00", end: "06:00", time_zone: "UTC" },
};

/** The alarm and preference endpoints (after API_PATHS). */
export const ALARM_PATHS = {
  /** `GET ?state=active|resolved|all&farm_id&mcu_id&kind&limit&cursor` → AlarmPage. */
  alarms: "/api/alarms",
  /** `POST {comment?}` → Alarm. 404 for another client's; 409 `{code: "alarm_resolved"}` once resolved; acknowledging twice answers the alarm as it is. */
  acknowledge: route("/api/alarms/:alarm_id/acknowledge"),
  /**
   * `POST {farm_id, comment?}` → FarmAcknowledgement: acknowledges every open alarm of the farm at
   * once, each with the same comment. 404 for another client's farm, as for a missing one.
   */
  acknowledgeFarm: "/api/alarms/acknowledge",
  /** `GET` → NotificationPreferences; `PUT` a whole NotificationPreferences → the stored one. */
  preferences: "/api/notification-preferences",
} as const;

/** server → client socket event: an alarm opened, was acknowledged or resolved (its new state, whole). */
export const ALARM_EVENT = "alarm";

/**
 * What a bell notification is about, when it is about an MCU or one of its alarms: fields the
 * server adds to SPEC §3's notification (its list and its `notification` socket event). Absent on
 * the other notifications (an account's), and null once the MCU or alarm is deleted.
 */
export interface NotificationSubject {
  alarm_id?: number | null;
  mcu_id?: number | null;
  /** The MCU's name now. */
  mcu_name?: string | null;
}

const idOrNull = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) && v > 0 ? v : null);

/**
 * A notification's subject, read defensively: these fields are not part of the notification's
 * checked schema (any notification may be given; one without them is about nothing).
 */
export function notificationSubject(notification: object): { alarmId: number | null; mcuId: number | null; mcuName: string | null } {
  const n = notification as NotificationSubject;
  return { alarmId: idOrNull(n.alarm_id), mcuId: idOrNull(n.mcu_id), mcuName: typeof n.mcu_name === "string" ? n.mcu_name : null };
}

/**
 * Where an alarm leads in the app: the Alarms page showing that MCU's alarms with this one
 * selected (`?mcu=&alarm=`, as the Alarms page's filters read the address).
 */
export const alarmPagePath = (alarmId: number, mcuId: number) => `/alarms?mcu=${mcuId}&alarm=${alarmId}`;

/** An MCU's history page (the route of the reading history screens). */
export const mcuPagePath = (mcuId: number) => `/mcu/${mcuId}`;

/** Where a notification leads: its alarm, else its MCU's history; null when it is about neither. */
export function notificationPath(n: object): string | null {
  const { alarmId, mcuId } = notificationSubject(n);
  if (alarmId !== null && mcuId !== null) return alarmPagePath(alarmId, mcuId);
  return mcuId !== null ? mcuPagePath(mcuId) : null;
}
