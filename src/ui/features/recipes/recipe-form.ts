import { z } from "zod";
import type { RecipePhaseRequest, RecipeRequest } from "../../../contract/api.ts";
import type { FieldError } from "../../../contract/errors.ts";
import type { ProfileConfig } from "../../../contract/entities.ts";
import { profileSettingsForm } from "../../../contract/forms.ts";
import { GROW_LIMITS, RAMPABLE_SETTING_NAMES, RAMPABLE_SETTINGS, type RampableSetting } from "../../../contract/grow-values.ts";
import type { Recipe, RecipePhase } from "../../../contract/grow.ts";
import { LIMITS } from "../../../contract/limits.ts";
import { breaksOrder, PROFILE_ORDER_RULES } from "../../../contract/profile-settings.ts";
import { numberFormat } from "../../i18n/format.ts";
import { i18n } from "../../i18n/i18n.ts";
import { num } from "./whole-number.ts";
import { settingName, settingUnit, standaloneText, type SettingPath } from "./setting-texts.ts";

/**
 * The recipe editor's values as the form holds them (text, as typed) and the checks the server
 * makes on a recipe (recipeRequest in src/contract/api.ts), with its messages, so a mistake shows
 * under its field before anything is sent. Each message is written when a value is checked, in the
 * reader's language then (English: the server's words). A phase's ramps are kept by setting, like its config:
 * `ramp.ac.target_temp` holds the toggle (`on`) and the end value (`to`).
 */

/** The name and length limits of a phase, as the server holds them. */
export const PHASE_TEXT_MAX = 60;

type Text<T> = { [K in keyof T]: T[K] extends object ? Text<T[K]> : string };
export type ConfigText = Text<ProfileConfig>;
export interface RampText {
  on?: string;
  to?: string;
}
export type RampsText = Partial<Record<string, Partial<Record<string, RampText>>>>;

export type PhaseText = {
  name: string;
  days: string;
  /** "on" when the phase waits for the grower's confirmation. */
  waits?: string;
  confirm?: string;
  config: Partial<ConfigText>;
  ramp?: RampsText;
};

export type RecipeText = {
  name: string;
  species: string;
  phases: PhaseText[];
};

const splitSetting = (setting: RampableSetting) => setting.split(".") as [keyof ProfileConfig, string];

const configText = (config: ProfileConfig): ConfigText => ({
  irrigation: {
    on_cycle_hours: String(config.irrigation.on_cycle_hours),
    off_cycle_liters: String(config.irrigation.off_cycle_liters),
    soil_moisture_on: String(config.irrigation.soil_moisture_on),
    soil_moisture_off: String(config.irrigation.soil_moisture_off),
  },
  ventilation: { co2_threshold: String(config.ventilation.co2_threshold) },
  ac: { based_on: config.ac.based_on, target_temp: String(config.ac.target_temp) },
  humidifier: { humidity_on_below: String(config.humidifier.humidity_on_below), humidity_off_above: String(config.humidifier.humidity_off_above) },
});

/** A saved phase as the editor's text. */
export function phaseText(phase: RecipePhase): PhaseText {
  const ramp: RampsText = {};
  for (const r of phase.ramps) {
    const [group, key] = splitSetting(r.setting);
    (ramp[group] ??= {})[key] = { on: "on", to: String(r.to) };
  }
  return {
    name: phase.name,
    days: String(phase.days),
    waits: phase.confirm !== null ? "on" : undefined,
    confirm: phase.confirm ?? "",
    config: configText(phase.config),
    ramp,
  };
}

/** A new phase: empty, the AC judged on the soil's temperature (SPEC §3's default). */
export const emptyPhase = (): PhaseText => ({ name: "", days: "", confirm: "", config: { ac: { based_on: "soil_temp", target_temp: "" } }, ramp: {} });

/** The editor's starting values: the saved recipe's, or one empty phase for a new one. */
export function recipeText(recipe: Recipe | undefined): RecipeText {
  if (!recipe) return { name: "", species: "", phases: [emptyPhase()] };
  return { name: recipe.name, species: recipe.species, phases: recipe.phases.map(phaseText) };
}

/**
 * The phase added after `previous`: its config where `previous` ends (its ramps' end values put
 * in), since a room goes on from where the last phase left it. Its name and days are the grower's.
 */
export function nextPhaseText(previous: PhaseText | undefined): PhaseText {
  if (!previous) return emptyPhase();
  const config = structuredClone(previous.config ?? {}) as Record<string, Record<string, string> | undefined>;
  for (const setting of RAMPABLE_SETTING_NAMES) {
    const [group, key] = splitSetting(setting);
    const r = previous.ramp?.[group]?.[key];
    if (r?.on === "on" && r.to !== undefined && r.to.trim() !== "") (config[group] ??= {})[key] = r.to;
  }
  return { name: "", days: "", confirm: "", config: config as Partial<ConfigText>, ramp: {} };
}

type Label = "name" | "phaseName" | "species" | "confirm";
const tooLong = (label: Label, max: number) => () => i18n.t("recipes:form.tooLong", { label: i18n.t(`recipes:form.labels.${label}`), max: num(max) });
/** A limit as the server writes it: no grouping ("100000"), in the person's digits. */
const limit = (n: number) => numberFormat({ useGrouping: false, maximumFractionDigits: 3 }).format(n);

const text = (message: () => string, max: number, label: Label) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: tooLong(label, max) });

const toNumber = (v: unknown) => (v === "" || v === undefined || v === null ? undefined : typeof v === "number" ? v : Number(v));

/** Whole days in 1..365: the server's checks in its order (the range first, then whole). */
const daysNumber = z.preprocess(
  toNumber,
  z
    .number({ error: (issue) => i18n.t(issue.input === undefined ? "recipes:form.daysRequired" : "recipes:form.daysNotNumber") })
    .min(1, { error: () => i18n.t("recipes:form.daysRange", { min: limit(1), max: limit(GROW_LIMITS.phaseDays) }) })
    .max(GROW_LIMITS.phaseDays, { error: () => i18n.t("recipes:form.daysRange", { min: limit(1), max: limit(GROW_LIMITS.phaseDays) }) })
    .refine(Number.isInteger, { error: () => i18n.t("recipes:form.daysWhole") }),
);

/** A ramp's end value: needed once its toggle is on, in its setting's range (the server's message). */
function rampEnd(setting: RampableSetting) {
  const s = RAMPABLE_SETTINGS[setting];
  return z
    .object({ on: z.unknown().optional(), to: z.unknown().optional() })
    .optional()
    .superRefine((r, ctx) => {
      if (!isOn(r?.on)) return;
      const to = toNumber(r?.to);
      const label = standaloneText(setting);
      if (to === undefined) ctx.addIssue({ code: "custom", path: ["to"], message: i18n.t("recipes:form.rampEndRequired", { label }) });
      else if (!Number.isFinite(to) || to < s.min || to > s.max) ctx.addIssue({ code: "custom", path: ["to"], message: i18n.t("recipes:form.rampEndRange", { label, min: limit(s.min), max: limit(s.max) }) });
    });
}

const isOn = (v: unknown) => v === "on" || v === true;

const rampShape = (() => {
  const groups: Record<string, Record<string, ReturnType<typeof rampEnd>>> = {};
  for (const setting of RAMPABLE_SETTING_NAMES) {
    const [group, key] = splitSetting(setting);
    (groups[group] ??= {})[key] = rampEnd(setting);
  }
  return z.object(Object.fromEntries(Object.entries(groups).map(([group, keys]) => [group, z.object(keys).optional()]))).optional();
})();

/** The ramps a phase's form holds, as the request sends them; an unfinished one is left out. */
export function rampsOf(ramp: RampsText | undefined): { setting: RampableSetting; to: number }[] {
  const out: { setting: RampableSetting; to: number }[] = [];
  for (const setting of RAMPABLE_SETTING_NAMES) {
    const [group, key] = splitSetting(setting);
    const r = ramp?.[group]?.[key];
    const to = toNumber(r?.to);
    if (r && isOn(r.on) && to !== undefined && Number.isFinite(to)) out.push({ setting, to });
  }
  return out;
}

/**
 * Where an order rule broken at the end of the phase is said: under the ramp that broke it (the
 * lower value's when both ramp), as the server says it for the phase's ramps.
 */
function endOrderIssues(config: unknown, ramp: RampsText | undefined, ctx: z.RefinementCtx) {
  const ramps = rampsOf(ramp);
  if (ramps.length === 0 || typeof config !== "object" || config === null) return;
  const end = structuredClone(config) as Record<string, Record<string, unknown>>;
  for (const r of ramps) {
    const [group, key] = splitSetting(r.setting);
    if (end[group]) end[group][key] = r.to;
  }
  for (const rule of Object.values(PROFILE_ORDER_RULES)) {
    const group = end[rule.group];
    if (!group || !breaksOrder(rule, group)) continue;
    const lowerRamps = ramps.some((r) => r.setting === `${rule.group}.${rule.lower}`);
    const upperRamps = ramps.some((r) => r.setting === `${rule.group}.${rule.upper}`);
    // Not the ramps' doing: the start values break the rule, and their own fields say so.
    if (!lowerRamps && !upperRamps) continue;
    const at = lowerRamps ? rule.lower : rule.upper;
    const lower = `${rule.group}.${rule.lower}` as SettingPath;
    const upper = `${rule.group}.${rule.upper}` as SettingPath;
    const valued = (path: SettingPath, value: number) => i18n.t("recipes:form.valueWithUnit", { value: limit(value), unit: settingUnit(path) });
    ctx.addIssue({
      code: "custom",
      path: ["ramp", rule.group, at, "to"],
      message: i18n.t("recipes:form.endOrder", {
        lower: settingName(lower),
        lowerValue: valued(lower, group[rule.lower] as number),
        upper: settingName(upper),
        upperValue: valued(upper, group[rule.upper] as number),
      }),
    });
  }
}

const phaseForm = z
  .object({
    name: text(() => i18n.t("recipes:form.phaseNameRequired"), PHASE_TEXT_MAX, "phaseName"),
    days: daysNumber,
    waits: z.unknown().optional(),
    confirm: z.string().optional(),
    config: profileSettingsForm,
    ramp: rampShape,
  })
  .superRefine(
    (p, ctx) => {
      const confirm = (p.confirm ?? "").trim();
      if (isOn(p.waits) && confirm === "") ctx.addIssue({ code: "custom", path: ["confirm"], message: i18n.t("recipes:form.confirmRequired") });
      if (isOn(p.waits) && confirm.length > PHASE_TEXT_MAX) ctx.addIssue({ code: "custom", path: ["confirm"], message: tooLong("confirm", PHASE_TEXT_MAX)() });
      endOrderIssues(p.config, p.ramp as RampsText | undefined, ctx);
    },
    // Judged while other fields are still wrong, so every mistake shows at once.
    { when: ({ value }) => typeof value === "object" && value !== null },
  )
  .transform(
    (p): RecipePhaseRequest => ({
      name: p.name,
      days: p.days,
      confirm: isOn(p.waits) ? (p.confirm ?? "").trim() : null,
      config: p.config,
      ramps: rampsOf(p.ramp as RampsText | undefined),
    }),
  );

/** The recipe editor's form: the server's rules and messages, converted to the request on submit. */
export const recipeForm = z.object({
  name: text(() => i18n.t("recipes:form.nameRequired"), LIMITS.name, "name"),
  species: z
    .string()
    .trim()
    .max(PHASE_TEXT_MAX, { error: tooLong("species", PHASE_TEXT_MAX) })
    .optional()
    .transform((s) => s ?? ""),
  phases: z
    .array(phaseForm, { error: () => i18n.t("recipes:form.atLeastOnePhase") })
    .min(1, { error: () => i18n.t("recipes:form.atLeastOnePhase") })
    .max(GROW_LIMITS.phases, { error: () => i18n.t("recipes:form.atMostPhases", { max: num(GROW_LIMITS.phases) }) }),
}) satisfies z.ZodType<RecipeRequest, unknown>;

/**
 * The phases as far as they can be drawn while the grower types: a phase whose days are not a
 * whole number in range is left out, and a value not (yet) a number is NaN (a gap in the chart).
 */
export function previewPhasesOf(value: unknown): RecipePhase[] {
  const phases = (value as { phases?: unknown } | undefined)?.phases;
  if (!Array.isArray(phases)) return [];
  const num = (v: unknown) => {
    const n = toNumber(v);
    return n === undefined ? NaN : n;
  };
  const out: RecipePhase[] = [];
  for (const raw of phases as (Partial<PhaseText> | undefined)[]) {
    const days = num(raw?.days);
    if (!Number.isInteger(days) || days < 1 || days > GROW_LIMITS.phaseDays) continue;
    const c = (raw?.config ?? {}) as Partial<Record<string, Record<string, unknown> | undefined>>;
    const at = (group: string, key: string) => num(c[group]?.[key]);
    out.push({
      name: (raw?.name ?? "").trim() || i18n.t("recipes:phaseNumber", { n: num(out.length + 1) }),
      days,
      confirm: isOn(raw?.waits) && (raw?.confirm ?? "").trim() !== "" ? (raw?.confirm ?? "").trim() : null,
      config: {
        irrigation: {
          on_cycle_hours: at("irrigation", "on_cycle_hours"),
          off_cycle_liters: at("irrigation", "off_cycle_liters"),
          soil_moisture_on: at("irrigation", "soil_moisture_on"),
          soil_moisture_off: at("irrigation", "soil_moisture_off"),
        },
        ventilation: { co2_threshold: at("ventilation", "co2_threshold") },
        ac: { based_on: c.ac?.based_on === "room_temp" ? "room_temp" : "soil_temp", target_temp: at("ac", "target_temp") },
        humidifier: { humidity_on_below: at("humidifier", "humidity_on_below"), humidity_off_above: at("humidifier", "humidity_off_above") },
      },
      ramps: rampsOf(raw?.ramp),
    });
  }
  return out;
}

/**
 * The form field a refusal of the server is about: the field the answer names, by its path in the
 * sent body (the first field error is the answer's own reason), whatever language the refusal is
 * shown in. A ramp's end value is the `to` field of that ramp's setting. Null when the refusal is
 * about no single field (a ramp that breaks a band, a recipe gone meanwhile).
 */
export function fieldOfRefusal(body: RecipeRequest, fieldErrors: readonly FieldError[]): string | null {
  const named = fieldErrors[0];
  if (!named?.path) return null;
  const path = named.path.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  // phases.0.ramps.1 (an end value): name the ramp's setting, as the form keeps ramps by setting.
  if (path[0] === "phases" && path[2] === "ramps" && typeof path[3] === "number") {
    const phase = body.phases[path[1] as number];
    const setting = (phase?.ramps as { setting: string }[] | undefined)?.[path[3]]?.setting;
    if (!setting || path.length > 4) return null;
    return `phases[${path[1]}].ramp.${setting}.to`;
  }
  if (path.length === 0 || (path[0] === "phases" && (path.length === 1 || path[2] === "ramps"))) return null;
  return path.reduce<string>((name, p) => (typeof p === "number" ? `${name}[${p}]` : name ? `${name}.${p}` : p), "");
}
