import { type } from "arktype";
import { profileConfig } from "./entities.ts";
import { BATCH_EVENT_KINDS, CONFIG_CAUSES, RAMPABLE_SETTING_NAMES } from "./grow-values.ts";

/**
 * Grow cycles' schemas: recipes, batches and the configs sent for them, as the server answers
 * them; the limits, the plan and its time zone arithmetic are in grow-values.ts (the app's page
 * imports that without the schema library), exported here too.
 */
export * from "./grow-values.ts";

export const ramp = type({ setting: type.enumerated(...RAMPABLE_SETTING_NAMES), to: "number" });
export type Ramp = typeof ramp.infer;

export const recipePhase = type({
  name: "string",
  /** The phase's length in days; for a phase that waits for the grower, its maximum. */
  days: "number.integer >= 1",
  /** What the grower confirms to end the phase ("Pins visible"), or null: the phase ends after `days`. */
  confirm: "string | null",
  /** The config at the phase's start. */
  config: profileConfig,
  /** Settings that move linearly from the phase's start value to `to` at its end. */
  ramps: ramp.array(),
});
export type RecipePhase = typeof recipePhase.infer;

export const recipe = type({
  recipe_id: "number.integer",
  client_id: "number.integer",
  name: "string",
  /** The crop it grows ("Oyster"). */
  species: "string",
  /** Editing a recipe makes a new version; running batches keep the version they started with. */
  version: "number.integer >= 1",
  phases: recipePhase.array(),
  /** Batches running on any version of it. */
  running_batches: "number.integer >= 0",
  createdAt: "string",
  updatedAt: "string",
});
export type Recipe = typeof recipe.infer;

export const batchEvent = type({
  at: "string",
  kind: type.enumerated(...BATCH_EVENT_KINDS),
  /** The phase it happened in (for "advance": the phase that ended). */
  phase_index: "number.integer >= 0",
  reason: "string | null",
  /** Who: a person's username, or null for the plan itself. */
  by: "string | null",
  /** Days added (extend). */
  days: "number.integer | null",
});
export type BatchEvent = typeof batchEvent.infer;

export const harvest = type({
  harvest_id: "number.integer",
  /** 1 for the first flush. */
  flush: "number.integer >= 1",
  at: "string",
  fresh_kg: "number",
  note: "string",
});
export type Harvest = typeof harvest.infer;

export const batch = type({
  batch_id: "number.integer",
  client_id: "number.integer",
  name: "string",
  recipe_id: "number.integer",
  recipe_name: "string",
  recipe_version: "number.integer >= 1",
  /** The phases of that version (a batch keeps them even when the recipe changes). */
  phases: recipePhase.array(),
  mcu_ids: "number.integer[]",
  /** The IANA time zone its days are counted in: a 7-day phase ends at the same local time a week later. */
  time_zone: "string",
  started_at: "string",
  status: "'running' | 'ended'",
  phase_index: "number.integer >= 0",
  phase_started_at: "string",
  /** Days added to the current phase. */
  extra_days: "number.integer >= 0",
  /** Time the current phase spent on hold before `held_since`, in ms. */
  held_ms: "number >= 0",
  held_since: "string | null",
  ended_at: "string | null",
  substrate_dry_kg: "number | null",
  harvests: harvest.array(),
  events: batchEvent.array(),
  createdAt: "string",
  updatedAt: "string",
});
export type Batch = typeof batch.infer;

/** An effective config sent to an MCU, and why (CONFIG_CAUSES). */
export const configChange = type({
  at: "string",
  cause: type.enumerated(...CONFIG_CAUSES),
  batch_id: "number.integer | null",
  /** "Fruiting, day 3" for a batch's config. */
  detail: "string",
  config: profileConfig.or("null"),
});
export type ConfigChange = typeof configChange.infer;
