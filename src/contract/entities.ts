import { type } from "arktype";

/**
 * Entities of SPEC §3 as the API answers them. The worker validates answers against these;
 * the server builds its answers with these types.
 */

import { AC_BASES, CONTROLLER_TYPES, FARM_STATUSES, MCU_STATUSES, SENSOR_TYPES } from "./enums.ts";
import { readingGroups } from "./reading-groups.ts";
import { DIGITS, LANGUAGES } from "./language-values.ts";
import { words } from "./words.ts";

export {
  AC_BASES,
  ALERT_TYPES,
  CONTROLLER_TYPES,
  FARM_STATUSES,
  MCU_STATUSES,
  NOTIFICATION_TYPES,
  SENSOR_TYPES,
  type AlertType,
  type ControllerType,
  type FarmStatus,
  type McuStatus,
  type SensorType,
} from "./enums.ts";

const isoDate = type("string");

export const client = type({
  client_id: "number.integer",
  username: "string",
  email: "string",
  mobile: "string",
  country: "string",
  address: "string",
  fcm_token: "string | null",
  /** The language and digits the person reads the app in, and the server writes their notifications and pushes in. */
  language: type.enumerated(...LANGUAGES),
  digits: type.enumerated(...DIGITS),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Client = typeof client.infer;

export const notification = type({
  notification_id: "number.integer",
  type: "string",
  title: "string",
  body: "string",
  /**
   * What `title` and `body` say, as words (`AlarmWords` in alarms-values.ts: keys of the server's
   * texts with their values), for the app to say in its reader's language and digits now; the
   * texts are as written for the reader when it was made. Absent on a notification stored before
   * notifications kept them.
   */
  "words?": words.alarmWords,
  read_status: "boolean",
  createdAt: isoDate,
});
export type Notification = typeof notification.infer;

/** Environmental and device readings of one MCU (SPEC §3 "Live reading per device"). */
export const liveReading = type({
  ...readingGroups({
    temperature: "number",
    humidity: "number",
    soil_temperature: "number",
    co2: "number",
    soil_moisture: "number",
    count: "number.integer >= 0",
  }),
  /** ISO time stamped by the server when the reading arrived. */
  "lastUpdated?": "string",
});
export type LiveReading = typeof liveReading.infer;

export const profileConfig = type({
  irrigation: {
    on_cycle_hours: "number",
    off_cycle_liters: "number",
    soil_moisture_on: "number",
    soil_moisture_off: "number",
  },
  ventilation: { co2_threshold: "number" },
  ac: { based_on: type.enumerated(...AC_BASES), target_temp: "number" },
  humidifier: { humidity_on_below: "number", humidity_off_above: "number" },
});
export type ProfileConfig = typeof profileConfig.infer;

export const settingProfile = type({
  profile_id: "number.integer",
  name: "string",
  client_id: "number.integer",
  config: profileConfig,
  mcu_links: type({ id: "number.integer", mcu_id: "number.integer" }).array(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type SettingProfile = typeof settingProfile.infer;

export const controller = type({
  unit_id: "number.integer",
  name: "string",
  mac: "string",
  type: type.enumerated(...CONTROLLER_TYPES),
  mcu_id: "number.integer | null",
  mcu_name: "string | null",
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Controller = typeof controller.infer;

export const sensor = type({
  sensor_id: "number.integer",
  name: "string",
  mac: "string",
  type: type.enumerated(...SENSOR_TYPES),
  mcu_id: "number.integer | null",
  mcu_name: "string | null",
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Sensor = typeof sensor.infer;

export const profileLink = type({
  id: "number.integer",
  mcu_id: "number.integer",
  profile_id: "number.integer",
  profile: { profile_id: "number.integer", name: "string", config: profileConfig },
});
export type ProfileLink = typeof profileLink.infer;

export const mcu = type({
  mcu_id: "number.integer",
  name: "string",
  mac: "string",
  farm_id: "number.integer",
  farm: { name: "string" },
  client_id: "number.integer",
  status: type.enumerated(...MCU_STATUSES),
  /** SPEC §3: text holding JSON in some answers, an object in others; the worker accepts both. */
  readings: type(liveReading, "|", "string | null"),
  /** ISO time of the last message from the device, or null if it never reported. */
  lastSeen: "string | null",
  controllers: controller.array(),
  sensors: sensor.array(),
  profile_links: profileLink.array(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Mcu = typeof mcu.infer;

/**
 * A list of MCUs as the API answers it, where one bad record does not fail the others: an MCU
 * whose stored readings do not hold (a device once sent what a reading cannot be) is kept without
 * them, so it still shows; a record that fails otherwise is left out.
 */
export const mcuList = type("unknown[]").pipe((items): Mcu[] =>
  items.flatMap((item) => {
    const whole = mcu(item);
    if (!(whole instanceof type.errors)) return [whole];
    if (typeof item !== "object" || item === null) return [];
    const withoutReadings = mcu({ ...item, readings: null });
    return withoutReadings instanceof type.errors ? [] : [withoutReadings];
  }),
);

export const farmMcu = type({ id: "number.integer", mcu_id: "number.integer", name: "string" });

export const farm = type({
  farm_id: "number.integer",
  name: "string",
  location: "string",
  status: type.enumerated(...FARM_STATUSES),
  mcuCount: "number.integer >= 0",
  client_id: "number.integer",
  mcus: farmMcu.array(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Farm = typeof farm.infer;

/** An inventory device found by a scan that nobody has claimed yet: only what the label tells. */
export const unclaimedDevice = type({ mac: "string", type: "string", name: "string", mcu_id: "null" });
