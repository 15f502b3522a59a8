/**
 * The automation values of a setting profile (SPEC §3 config) as the farmer sees them: each one's
 * label in the profile form, its name on its own (in a server message or a rule), its unit
 * (SPEC §9) and its plausible range; then the rules between two values. The profile form (zod)
 * and the server (arktype) both build their checks from this one table, so they refuse the
 * same values.
 */
export interface ProfileSetting {
  /** The label of the form field, under its device's heading. */
  label: string;
  /** The value's name where no device heading is around it. */
  name: string;
  unit: string;
  min: number;
  max: number;
}

const setting = (label: string, name: string, unit: string, min: number, max: number): ProfileSetting => ({ label, name, unit, min, max });

export const PROFILE_SETTINGS = {
  irrigation: {
    on_cycle_hours: setting("On cycle (hours)", "Irrigation on cycle", "hours", 0, 168),
    off_cycle_liters: setting("Off cycle (liters)", "Irrigation off cycle", "liters", 0, 100_000),
    soil_moisture_on: setting("Soil moisture on (%)", "Soil moisture on", "%", 0, 100),
    soil_moisture_off: setting("Soil moisture off (%)", "Soil moisture off", "%", 0, 100),
  },
  ventilation: {
    co2_threshold: setting("CO2 threshold (ppm)", "CO2 threshold", "ppm", 0, 50_000),
  },
  ac: {
    target_temp: setting("Target temperature (°C)", "AC target temperature", "°C", -20, 60),
  },
  humidifier: {
    humidity_on_below: setting("On below (%)", "Humidifier on below", "%", 0, 100),
    humidity_off_above: setting("Off above (%)", "Humidifier off above", "%", 0, 100),
  },
} as const;

/** "Humidifier off above (%)": a value named on its own, with its unit. */
export const standaloneLabel = (s: ProfileSetting) => `${s.name} (${s.unit})`;

export const rangeMessage = (label: string, s: ProfileSetting) => `${label} must be between ${s.min} and ${s.max}`;

export const isInRange = (value: unknown, s: ProfileSetting): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= s.min && value <= s.max;

/**
 * Pairs of one device's values where `lower` must stay below `upper`: a device that switched on
 * at or above the value where it switches off would never settle. The error belongs to `lower`.
 */
export const PROFILE_ORDER_RULES = {
  irrigation: { group: "irrigation", lower: "soil_moisture_on", upper: "soil_moisture_off" },
  humidifier: { group: "humidifier", lower: "humidity_on_below", upper: "humidity_off_above" },
} as const;

export type ProfileOrderRule = (typeof PROFILE_ORDER_RULES)[keyof typeof PROFILE_ORDER_RULES];

function ruleSettings(rule: ProfileOrderRule): { lower: ProfileSetting; upper: ProfileSetting } {
  const group: Record<string, ProfileSetting> = PROFILE_SETTINGS[rule.group];
  return { lower: group[rule.lower]!, upper: group[rule.upper]! };
}

const withValue = (s: ProfileSetting, value: number) => `${s.name} (${value} ${s.unit})`;

/** Shown under the lower field of the form: "Must be below Humidifier off above (92 %)". */
export function orderFieldMessage(rule: ProfileOrderRule, upperValue: number): string {
  return `Must be below ${withValue(ruleSettings(rule).upper, upperValue)}`;
}

/** The server's message, read without the form around it: "Humidifier on below (95 %) must be below Humidifier off above (92 %)". */
export function orderMessage(rule: ProfileOrderRule, lowerValue: number, upperValue: number): string {
  const { lower, upper } = ruleSettings(rule);
  return `${withValue(lower, lowerValue)} must be below ${withValue(upper, upperValue)}`;
}

/** Whether the rule can be judged (both values are numbers in range) and is broken. */
export function breaksOrder(rule: ProfileOrderRule, group: Record<string, unknown>): boolean {
  const { lower, upper } = ruleSettings(rule);
  const lo = group[rule.lower];
  const hi = group[rule.upper];
  return isInRange(lo, lower) && isInRange(hi, upper) && lo >= hi;
}
