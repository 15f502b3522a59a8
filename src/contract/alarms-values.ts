import type { AlertType } from "./enums.ts";

/**
 * Alarms (issue 15): the values, types and paths of the alarm and notification-preference
 * contract, apart from its request schemas (alarms.ts): the data core and the screens use them
 * without building a schema (as history-values.ts is to history.ts).
 *
 * An alarm is one occurrence of an alert condition on one MCU: a reading outside the linked
 * profile for longer than the grace period, the MCU offline, its battery below 30 %. It opens once
 * (never a second one of the same kind for the same MCU while one is unresolved, across server
 * nodes and restarts), can be acknowledged by the client (who, when, an optional comment), which
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
};

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

/**
 * Notification preferences (issue 15), stored on the server per client. What the server can
 * deliver is a choice: in-app notifications (the bell) and push (when push is configured on the
 * server). Email is not delivered yet: its switches stay display-only.
 */
export interface NotificationPreferences {
  in_app: {
    /** MCUs going offline and back online. */
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
  acknowledge: (alarmId: number) => `/api/alarms/${alarmId}/acknowledge`,
  /** `GET` → NotificationPreferences; `PUT` a whole NotificationPreferences → the stored one. */
  preferences: "/api/notification-preferences",
} as const;

/** server → client socket event: an alarm opened, was acknowledged or resolved (its new state, whole). */
export const ALARM_EVENT = "alarm";
