import type { Batch, RecipePhase } from "../contract/grow.ts";

/**
 * Batches for tests of the grow-cycle screens: a three-phase oyster recipe (the middle phase waits
 * for "Pins visible") started at T0 in UTC. Not part of the app (only tests import it).
 */
export const DAY = 86_400_000;
export const T0 = Date.parse("2026-11-01T08:00:00Z");

const config = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 800 },
  ac: { based_on: "room_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 93 },
} as RecipePhase["config"];

export const phaseRecord = (name: string, days: number, confirm: string | null = null): RecipePhase => ({ name, days, confirm, config, ramps: [] });

/** Spawn run 14 days, Pinning up to 7 days until "Pins visible", Fruiting 10 days. */
export const OYSTER_PHASES = [phaseRecord("Spawn run", 14), phaseRecord("Pinning", 7, "Pins visible"), phaseRecord("Fruiting", 10)];

/** A batch just started at T0 on MCU 1; `over` replaces fields. */
export const batchRecord = (over: Partial<Batch> = {}): Batch => ({
  batch_id: 1,
  client_id: 1,
  name: "Oyster 1",
  recipe_id: 1,
  recipe_name: "Oyster",
  recipe_version: 1,
  phases: OYSTER_PHASES,
  mcu_ids: [1],
  time_zone: "UTC",
  started_at: new Date(T0).toISOString(),
  status: "running",
  phase_index: 0,
  phase_started_at: new Date(T0).toISOString(),
  extra_days: 0,
  held_ms: 0,
  held_since: null,
  ended_at: null,
  substrate_dry_kg: null,
  harvests: [],
  events: [],
  createdAt: new Date(T0).toISOString(),
  updatedAt: new Date(T0).toISOString(),
  ...over,
});
