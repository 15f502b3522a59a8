import type { ProfileConfig } from "./entities.ts";
import type { StateTarget } from "./history-values.ts";

/**
 * Why a controller switched: the rules a device's automation switches by (SPEC's profile config),
 * declared once for the simulated device (which switches by them and reports the rule that fired),
 * the server (which works out the rule of a change a device did not explain) and the app (which
 * says it in words, and says why an idle controller stays idle).
 *
 * Without the schema library: the app's page imports this file (switch-reasons.ts adds the
 * schemas of a device's and the command log's reason, for the worker and the server).
 */

/** What a rule reads: a reading's value, or the device's own count (hours since its last watering, liters of the running session). */
export type SwitchMetric = "humidity" | "co2" | "temperature" | "soil_temperature" | "soil_moisture" | "hours_since_irrigation" | "irrigation_liters";

/** The values a rule may read; a rule whose value is missing does not fire. */
export type SwitchValues = Partial<Record<SwitchMetric, number>>;

export interface SwitchRule {
  id: string;
  target: StateTarget;
  /** The status the rule switches its controller to. */
  on: boolean;
  metric: SwitchMetric;
  /** The limit the config sets for it, or null when the rule does not apply to this config (the AC's other basis). */
  limit: (config: ProfileConfig) => number | null;
  fires: (value: number, limit: number) => boolean;
}

const below = (v: number, limit: number) => v < limit;
const above = (v: number, limit: number) => v > limit;
const atLeast = (v: number, limit: number) => v >= limit;
const onBasis = (basis: ProfileConfig["ac"]["based_on"], offset: number) => (c: ProfileConfig) => (c.ac.based_on === basis ? c.ac.target_temp + offset : null);

/** Below this share of the CO2 threshold the fans stop. */
export const VENTILATION_OFF_SHARE = 0.8;
/** The AC keeps its target within this many degrees either side. */
export const AC_BAND = 0.5;

/**
 * Every rule, each controller's in the order its automation checks them: the first that fires
 * decides (for irrigation, the first that would change its state: see `automationSwitch`).
 */
export const SWITCH_RULES = [
  { id: "humidity_below_on", target: "Humidifier", on: true, metric: "humidity", limit: (c) => c.humidifier.humidity_on_below, fires: below },
  { id: "humidity_above_off", target: "Humidifier", on: false, metric: "humidity", limit: (c) => c.humidifier.humidity_off_above, fires: above },
  { id: "co2_above_threshold", target: "Ventilation", on: true, metric: "co2", limit: (c) => c.ventilation.co2_threshold, fires: above },
  { id: "co2_below_off", target: "Ventilation", on: false, metric: "co2", limit: (c) => c.ventilation.co2_threshold * VENTILATION_OFF_SHARE, fires: below },
  { id: "room_temperature_above", target: "AC", on: true, metric: "temperature", limit: onBasis("room_temp", AC_BAND), fires: above },
  { id: "room_temperature_below", target: "AC", on: false, metric: "temperature", limit: onBasis("room_temp", -AC_BAND), fires: below },
  { id: "soil_temperature_above", target: "AC", on: true, metric: "soil_temperature", limit: onBasis("soil_temp", AC_BAND), fires: above },
  { id: "soil_temperature_below", target: "AC", on: false, metric: "soil_temperature", limit: onBasis("soil_temp", -AC_BAND), fires: below },
  { id: "irrigation_cycle_due", target: "Irrigation", on: true, metric: "hours_since_irrigation", limit: (c) => c.irrigation.on_cycle_hours, fires: atLeast },
  { id: "soil_moisture_below_on", target: "Irrigation", on: true, metric: "soil_moisture", limit: (c) => c.irrigation.soil_moisture_on, fires: below },
  { id: "irrigation_liters_reached", target: "Irrigation", on: false, metric: "irrigation_liters", limit: (c) => c.irrigation.off_cycle_liters, fires: atLeast },
  { id: "soil_moisture_above_off", target: "Irrigation", on: false, metric: "soil_moisture", limit: (c) => c.irrigation.soil_moisture_off, fires: atLeast },
] as const satisfies readonly SwitchRule[];

export type SwitchRuleId = (typeof SWITCH_RULES)[number]["id"];
const RULES: ReadonlyMap<string, SwitchRule> = new Map(SWITCH_RULES.map((r) => [r.id, r]));
export const switchRule = (id: string): SwitchRule | undefined => RULES.get(id);

/** The rule that fired, as a device reports it with the state change (checked by `switchWhy`, switch-reasons.ts). */
export interface SwitchWhy {
  rule: string;
  value: number;
  limit: number;
}

/** A reason as the command log keeps it (checked by `switchReason`, switch-reasons.ts). */
export interface SwitchReason extends SwitchWhy {
  /** The server worked it out from the config and the reading; the device did not say. */
  inferred?: boolean;
  /** "Fruiting, day 3" when the MCU was in a running batch. */
  phase?: string | null;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function fired(rule: SwitchRule, config: ProfileConfig, values: SwitchValues): SwitchWhy | null {
  const value = values[rule.metric];
  const limit = rule.limit(config);
  if (value === undefined || limit === null || !rule.fires(value, limit)) return null;
  return { rule: rule.id, value, limit };
}

/**
 * What a controller's automation does now: the rule that switches it from `status`, or null
 * (it stays). The first rule that fires decides, as an if / else-if would; irrigation's rules only
 * count from the other state (a due cycle does not restart a running session, an off-rule does
 * not stop one that is not running).
 */
export function automationSwitch(target: StateTarget, status: boolean, config: ProfileConfig, values: SwitchValues): SwitchWhy | null {
  for (const rule of SWITCH_RULES) {
    if (rule.target !== target) continue;
    if (target === "Irrigation" && rule.on === status) continue;
    const why = fired(rule, config, values);
    if (why) return rule.on === status ? null : why;
  }
  return null;
}

/** Which rule explains `target` switching to `on`, given the config and the reading's values; null when none does. */
export function inferWhy(target: StateTarget, on: boolean, config: ProfileConfig, values: SwitchValues): SwitchWhy | null {
  for (const rule of SWITCH_RULES) {
    if (rule.target !== target || rule.on !== on) continue;
    const why = fired(rule, config, values);
    if (why) return why;
  }
  return null;
}

// ---- In words ------------------------------------------------------------------------------------

const UNITS: Record<SwitchMetric, string> = {
  humidity: " %",
  co2: " ppm",
  temperature: " °C",
  soil_temperature: " °C",
  soil_moisture: " %",
  hours_since_irrigation: " h",
  irrigation_liters: " L",
};
const NAMES: Record<SwitchMetric, string> = {
  humidity: "humidity",
  co2: "CO2",
  temperature: "room temperature",
  soil_temperature: "soil temperature",
  soil_moisture: "soil moisture",
  hours_since_irrigation: "hours since the last watering",
  irrigation_liters: "liters this session",
};

/** A limit as set: whole numbers bare, else up to two decimals. */
const limitText = (n: number) => String(round2(n));

/**
 * A value with a reading's precision (a tenth; CO2 in whole ppm), or with the few more digits it
 * takes to keep it on its side of the limit: "84.96 % below 85 %", never "85.0 % below 85 %".
 */
function valueText(rule: SwitchRule, value: number, limit: number): string {
  const digits = rule.metric === "co2" ? 0 : 1;
  for (let d = digits; d < digits + 3; d++) {
    const text = value.toFixed(d);
    if (!rule.fires(value, limit) || rule.fires(Number(text), limit)) return text;
  }
  return value.toFixed(digits + 3);
}

function factOf(rule: SwitchRule, value: number, limit: number): string {
  const v = valueText(rule, value, limit) + UNITS[rule.metric];
  const l = limitText(limit) + UNITS[rule.metric];
  switch (rule.metric) {
    case "hours_since_irrigation":
      return `${v} since the last watering (cycle ${l})`;
    case "irrigation_liters":
      return `${v} delivered (session ${l})`;
  }
  const relation = rule.fires === below ? "below" : rule.fires === above ? "above" : "at or above";
  return `${NAMES[rule.metric]} ${v} ${relation} ${l}`;
}

/** A switch as the command log holds it: the controller, the status it went to, who switched it and the reason kept. */
export interface SwitchRecord {
  target: StateTarget;
  on: boolean;
  source: "user" | "automation";
  actor: string | null;
  why: SwitchReason | null;
}

/**
 * The reason of a switch in one sentence: "Humidifier on: humidity 84.1 % below 85 % — Fruiting,
 * day 3" (the phase only when a batch ran; "(inferred)" when the server worked it out); a person's
 * switch: "Humidifier on: switched by sam". Null for an automation switch with no reason known.
 */
export function reasonText(s: SwitchRecord): string | null {
  const head = `${s.target} ${s.on ? "on" : "off"}`;
  if (s.source === "user") return `${head}: switched by ${s.actor ?? "a user"}`;
  if (!s.why) return null;
  const rule = switchRule(s.why.rule);
  const fact = rule ? factOf(rule, s.why.value, s.why.limit) : `rule ${s.why.rule} (${s.why.value}, limit ${s.why.limit})`;
  const inferred = s.why.inferred ? " (inferred)" : "";
  const phase = s.why.phase ? ` — ${s.why.phase}` : "";
  return `${head}: ${fact}${inferred}${phase}`;
}

// ---- Why not -------------------------------------------------------------------------------------

/** A controller's state against the band its automation keeps: why it is (not) running now. */
export interface WhyNotFact {
  target: StateTarget;
  status: boolean;
  metric: SwitchMetric;
  /** The reading now, or null when the MCU reports none of it. */
  value: number | null;
  /** The band: below `low` the controller's on-rule (or off-rule) fires, above `high` the other. */
  low: number;
  high: number;
  where: "below" | "within" | "above" | "unknown";
}

/**
 * Where the reading stands against the band of `target`'s automation: humidity against on-below
 * and off-above, CO2 against 80 % of the threshold and the threshold, the AC's basis against
 * target ± 0.5, soil moisture against irrigation's on and off.
 */
export function whyNot(target: StateTarget, status: boolean, config: ProfileConfig, values: SwitchValues): WhyNotFact {
  const band = ((): { metric: SwitchMetric; low: number; high: number } => {
    switch (target) {
      case "Humidifier":
        return { metric: "humidity", low: config.humidifier.humidity_on_below, high: config.humidifier.humidity_off_above };
      case "Ventilation":
        return { metric: "co2", low: config.ventilation.co2_threshold * VENTILATION_OFF_SHARE, high: config.ventilation.co2_threshold };
      case "AC":
        return {
          metric: config.ac.based_on === "soil_temp" ? "soil_temperature" : "temperature",
          low: config.ac.target_temp - AC_BAND,
          high: config.ac.target_temp + AC_BAND,
        };
      case "Irrigation":
        return { metric: "soil_moisture", low: config.irrigation.soil_moisture_on, high: config.irrigation.soil_moisture_off };
    }
  })();
  const value = values[band.metric] ?? null;
  const where = value === null ? "unknown" : value < band.low ? "below" : value > band.high ? "above" : "within";
  return { target, status, ...band, value, where };
}

/** "Humidifier off: humidity 88.2 % is within 85–92 %"; with the controller's automation off, "(automation off)" after its state. */
export function whyNotText(f: WhyNotFact, auto = true): string {
  const head = `${f.target} ${f.status ? "on" : "off"}${auto ? "" : " (automation off)"}`;
  const unit = UNITS[f.metric];
  const name = NAMES[f.metric];
  if (f.value === null) return `${head}: no ${name} reading`;
  const v = `${f.metric === "co2" ? f.value.toFixed(0) : f.value.toFixed(1)}${unit}`;
  const fact =
    f.where === "below"
      ? `is below ${limitText(f.low)}${unit}`
      : f.where === "above"
        ? `is above ${limitText(f.high)}${unit}`
        : `is within ${limitText(f.low)}–${limitText(f.high)}${unit}`;
  return `${head}: ${name} ${v} ${fact}`;
}

/** The values a reading gives the rules (those the server and the app know; the irrigation counts are the device's). */
export function readingValues(r: {
  DHT?: { temperature: number; humidity: number };
  SOIL_TEMP?: { soil_temperature: number };
  CO2?: { co2: number };
  MOISTURE?: { soil_moisture: number };
}): SwitchValues {
  const v: SwitchValues = {};
  if (r.DHT) {
    v.temperature = r.DHT.temperature;
    v.humidity = r.DHT.humidity;
  }
  if (r.SOIL_TEMP) v.soil_temperature = r.SOIL_TEMP.soil_temperature;
  if (r.CO2) v.co2 = r.CO2.co2;
  if (r.MOISTURE) v.soil_moisture = r.MOISTURE.soil_moisture;
  return v;
}
