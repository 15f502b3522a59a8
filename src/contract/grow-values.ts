import type { ProfileConfig } from "./entities.ts";
import type { Batch, RecipePhase } from "./grow.ts";
import { PROFILE_SETTINGS, type ProfileSetting } from "./profile-settings.ts";

/**
 * Grow cycles: a recipe is a sequence of phases, each with the config the room keeps during it
 * (SPEC §3's config, the same a setting profile holds) and settings that may ramp linearly across
 * the phase; a batch runs one version of a recipe on one or more MCUs from a start time. The plan
 * (which phase, which day, which config now) is a pure function of the batch and the time, shared by
 * the server (which publishes the config to the devices) and the app (which shows the progress and
 * previews a recipe), so the two always agree.
 *
 * Without the schema library: the app's page imports this file (grow.ts adds the schemas of
 * recipes, batches and config changes, for the worker and the server).
 */

/** The settings a phase may ramp, by their path in the config ("ac.target_temp"). */
export const RAMPABLE_SETTINGS = {
  "ac.target_temp": PROFILE_SETTINGS.ac.target_temp,
  "humidifier.humidity_on_below": PROFILE_SETTINGS.humidifier.humidity_on_below,
  "humidifier.humidity_off_above": PROFILE_SETTINGS.humidifier.humidity_off_above,
  "ventilation.co2_threshold": PROFILE_SETTINGS.ventilation.co2_threshold,
  "irrigation.soil_moisture_on": PROFILE_SETTINGS.irrigation.soil_moisture_on,
  "irrigation.soil_moisture_off": PROFILE_SETTINGS.irrigation.soil_moisture_off,
  "irrigation.on_cycle_hours": PROFILE_SETTINGS.irrigation.on_cycle_hours,
} as const satisfies Record<string, ProfileSetting>;
export type RampableSetting = keyof typeof RAMPABLE_SETTINGS;
export const RAMPABLE_SETTING_NAMES = Object.keys(RAMPABLE_SETTINGS) as RampableSetting[];

/** A phase is at most this many days (a year); a recipe has at most this many phases. */
export const GROW_LIMITS = { phaseDays: 365, phases: 20, extendDays: 60, reason: 500, note: 500, harvestKg: 100_000, batchMcus: 500 } as const;

export const BATCH_ACTIONS = ["confirm", "hold", "resume", "extend", "skip", "end"] as const;
export type BatchAction = (typeof BATCH_ACTIONS)[number];
/** What happened in a batch: a grower's action, or the plan advancing by itself. */
export const BATCH_EVENT_KINDS = ["start", ...BATCH_ACTIONS, "advance", "maximum"] as const;
export type BatchEventKind = (typeof BATCH_EVENT_KINDS)[number];

/** Why an effective config was sent to an MCU. */
export const CONFIG_CAUSES = ["batch", "profile", "none"] as const;

// ---- Time in a time zone ------------------------------------------------------------------------

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    partsFormatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock fields of `ms` in `timeZone`, as if they were UTC (ms). */
function wallClockOf(ms: number, timeZone: string): number {
  const p: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(new Date(ms))) if (part.type !== "literal") p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) + (ms % 1000 + 1000) % 1000;
}

/**
 * The instant whose wall-clock time in `timeZone` is `wall` (fields as UTC ms). A wall time that
 * does not exist (skipped by a daylight-saving change) is read with the offset before the change,
 * landing after the gap; one that exists twice takes the earlier instant.
 */
function instantOfWallClock(wall: number, timeZone: string): number {
  // Two rounds of "guess, see the offset there, correct" settle on every real zone.
  let guess = wall - (wallClockOf(wall, timeZone) - wall);
  const offsetAtGuess = wallClockOf(guess, timeZone) - guess;
  guess = wall - offsetAtGuess;
  const earlier = guess - 3_600_000;
  if (wallClockOf(earlier, timeZone) === wall) return earlier;
  return guess;
}

/** `days` calendar days after `ms` in `timeZone`, at the same local time (23 or 25 hours on a daylight-saving day). */
export function addLocalDays(ms: number, days: number, timeZone: string): number {
  return instantOfWallClock(wallClockOf(ms, timeZone) + days * 86_400_000, timeZone);
}

/** Whether `name` is a time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

// ---- The plan -----------------------------------------------------------------------------------

/** Ramped values are sent in steps of a tenth: a device is not told of a change it cannot act on. */
const roundTenth = (n: number) => Math.round(n * 10) / 10;

function getSetting(config: ProfileConfig, path: RampableSetting): number {
  const [group, key] = path.split(".") as [keyof ProfileConfig, string];
  return (config[group] as unknown as Record<string, number>)[key]!;
}

/** The config a phase gives at `fraction` (0 at its start, 1 at its end) of its length. */
export function phaseConfigAt(phase: RecipePhase, fraction: number): ProfileConfig {
  const f = Math.min(1, Math.max(0, fraction));
  const config = structuredClone(phase.config) as ProfileConfig;
  for (const r of phase.ramps) {
    const [group, key] = r.setting.split(".") as [keyof ProfileConfig, string];
    const from = getSetting(phase.config, r.setting);
    (config[group] as unknown as Record<string, number>)[key] = roundTenth(from + (r.to - from) * f);
  }
  return config;
}

export interface BatchProgress {
  phaseIndex: number;
  phase: RecipePhase;
  /** 1-based day of the phase ("day 3 of 7"), counting held time as not passed. */
  day: number;
  /** The phase's days, with its extension. */
  days: number;
  /** How far the phase's ramps have gone (0..1). */
  fraction: number;
  /** When the phase ends by time (its maximum for a phase that waits); later while held. */
  endsAt: number;
  held: boolean;
  /** The phase ends when the grower confirms (its days are its maximum), and is not on hold. */
  waiting: boolean;
  next: RecipePhase | null;
  /** The config the room keeps now. */
  config: ProfileConfig;
}

/** The part of a batch the plan reads. */
export type BatchPlanState = Pick<Batch, "phases" | "phase_index" | "phase_started_at" | "extra_days" | "held_ms" | "held_since" | "time_zone">;

/** Where a running batch is at `now`, by its state alone (the server advances phases; this does not). */
export function batchProgress(b: BatchPlanState, now: number): BatchProgress {
  const phaseIndex = Math.min(b.phase_index, b.phases.length - 1);
  const phase = b.phases[phaseIndex]!;
  const days = phase.days + b.extra_days;
  const start = Date.parse(b.phase_started_at);
  const heldSince = b.held_since ? Date.parse(b.held_since) : null;
  const held = b.held_ms + (heldSince !== null ? Math.max(0, now - heldSince) : 0);
  const nominalEnd = addLocalDays(start, days, b.time_zone);
  const endsAt = nominalEnd + held;
  // Time that counts: what passed since the phase started, less the time on hold.
  const counted = Math.max(0, Math.min(now, heldSince ?? now) - start - b.held_ms);
  const fraction = nominalEnd > start ? Math.min(1, counted / (nominalEnd - start)) : 1;
  // Day N starts N-1 local days after the phase's start.
  let day = 1;
  while (day < days && addLocalDays(start, day, b.time_zone) <= start + counted) day++;
  return {
    phaseIndex,
    phase,
    day,
    days,
    fraction,
    endsAt,
    held: heldSince !== null,
    waiting: phase.confirm !== null && heldSince === null,
    next: b.phases[phaseIndex + 1] ?? null,
    config: phaseConfigAt(phase, fraction),
  };
}

/**
 * What the plan does by itself at `now`: "advance" when a timed phase is over, "maximum" when a
 * phase waiting for the grower reached its maximum, null otherwise (or while held). Advancing past
 * the last phase ends the batch.
 */
export function dueStep(b: BatchPlanState & Pick<Batch, "status">, now: number): "advance" | "maximum" | null {
  if (b.status !== "running" || b.held_since !== null) return null;
  const p = batchProgress(b, now);
  if (now < p.endsAt) return null;
  return p.phase.confirm === null ? "advance" : "maximum";
}

/** "Fruiting · day 3 of 7": a batch's place, as the cards show it. */
export function progressLabel(p: BatchProgress): string {
  if (p.held) return `${p.phase.name} · on hold`;
  if (p.waiting) return `${p.phase.name} · day ${p.day} · waiting: ${p.phase.confirm}`;
  return `${p.phase.name} · day ${p.day} of ${p.days}`;
}

/** A config as a comparable key (the server publishes only a changed one). */
export const configKey = (config: ProfileConfig | null): string => (config ? JSON.stringify(config) : "");

/** One phase of a batch over time: when it ran (or, from the current phase on, is planned to). */
export interface PhaseSpan {
  phaseIndex: number;
  phase: RecipePhase;
  start: number;
  /** Its end: when it was left, else when it ends by the plan (its maximum for one that waits). */
  end: number;
  /** The length its ramps are spread over (the phase's days from its start; held time not counted). */
  rampMs: number;
  /** Not begun yet: its dates are the plan's. */
  planned: boolean;
}

const LEAVES_PHASE: ReadonlySet<BatchEventKind> = new Set(["confirm", "skip", "advance", "maximum", "end"]);

/**
 * Each phase of a batch on the time axis: past phases from the batch's events (when each was left),
 * the current one from its state, and, for a running batch, the phases still to come one after the
 * other by their days. A history chart draws the plan's limits over these spans.
 */
export function batchPhaseSpans(b: Batch, now: number): PhaseSpan[] {
  const spans: PhaseSpan[] = [];
  let start = Date.parse(b.started_at);
  let index = 0;
  for (const e of b.events) {
    if (!LEAVES_PHASE.has(e.kind) || e.phase_index !== index || index >= b.phase_index) continue;
    const at = Date.parse(e.at);
    const phase = b.phases[index]!;
    spans.push({ phaseIndex: index, phase, start, end: at, rampMs: addLocalDays(start, phase.days, b.time_zone) - start, planned: false });
    start = at;
    index++;
  }
  // Phases left without an event (none should be): they start where the current one started.
  const currentStart = Date.parse(b.phase_started_at);
  if (b.status === "ended") {
    const phase = b.phases[Math.min(b.phase_index, b.phases.length - 1)];
    const endedAt = b.ended_at ? Date.parse(b.ended_at) : now;
    if (phase && b.phase_index === index) spans.push({ phaseIndex: index, phase, start: currentStart, end: endedAt, rampMs: addLocalDays(currentStart, phase.days + b.extra_days, b.time_zone) - currentStart, planned: false });
    return spans;
  }
  const p = batchProgress(b, now);
  const currentEnd = Math.max(p.endsAt, p.waiting ? now : p.endsAt);
  spans.push({ phaseIndex: p.phaseIndex, phase: p.phase, start: currentStart, end: currentEnd, rampMs: addLocalDays(currentStart, p.days, b.time_zone) - currentStart, planned: false });
  let next = currentEnd;
  for (let i = p.phaseIndex + 1; i < b.phases.length; i++) {
    const phase = b.phases[i]!;
    const end = addLocalDays(next, phase.days, b.time_zone);
    spans.push({ phaseIndex: i, phase, start: next, end, rampMs: end - next, planned: true });
    next = end;
  }
  return spans;
}
