/**
 * The closed sets of values of SPEC §3 and the realtime contract, and the text patterns of its
 * fields, apart from the schemas (entities.ts, realtime.ts, fields.ts): the app's screens and forms
 * use them without building a schema.
 */

export const FARM_STATUSES = ["active", "warning", "offline"] as const;
export const MCU_STATUSES = ["active", "online", "offline", "maintenance"] as const;
export const CONTROLLER_TYPES = ["Humidifier", "Irrigation", "Ac", "Ventilation"] as const;
export const SENSOR_TYPES = ["CO2", "Humidity", "Soil_temp", "Moisture"] as const;
export const AC_BASES = ["soil_temp", "room_temp"] as const;
/** Notification types with their own icon (SPEC §3); any other type gets the default icon. */
export const NOTIFICATION_TYPES = ["wash", "payment", "ads", "coupon", "subscribe"] as const;

/** Types of the notifications the server's alerts raise. */
export const ALERT_TYPES = [
  "mcu_offline",
  "mcu_online",
  "battery_low",
  "humidity_low",
  "co2_high",
  "soil_moisture_low",
  "temperature_off_target",
  "sensor_missing",
  "sensor_stuck",
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export type FarmStatus = (typeof FARM_STATUSES)[number];
export type McuStatus = (typeof MCU_STATUSES)[number];
export type ControllerType = (typeof CONTROLLER_TYPES)[number];
export type SensorType = (typeof SENSOR_TYPES)[number];

/** Device labels used on the dashboard tiles and in commands. */
export const COMMAND_TARGETS = ["Irrigation", "AC", "Ventilation", "Humidifier"] as const;
export type CommandTarget = (typeof COMMAND_TARGETS)[number];

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MOBILE_PATTERN = /^\+?[\d\s\-()]+$/;
