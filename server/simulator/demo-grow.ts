import { type } from "arktype";
import { recipeRequest } from "../../src/contract/api.ts";
import { addLocalDays, type BatchEvent, type Recipe } from "../../src/contract/grow.ts";
import { batchesRepo } from "../db/batches-repo.ts";
import type { Sql } from "../db/database.ts";
import { recipesRepo } from "../db/recipes-repo.ts";
import { applyStep, catchUp, type BatchState } from "../grow/batch-steps.ts";
import { STARTER_RECIPES } from "../grow/starter-recipes.ts";

/** The demo farms' time zone: their batches' days are counted in it. */
const TIME_ZONE = "Asia/Beirut";
const HOUR = 3_600_000;

/**
 * The demo's grow cycles: the starter recipes, and three batches a new user finds at once, each
 * at another point of its plan: one a few days into its spawn run, one in pinning waiting for
 * the grower to see pins, one fruiting with its first harvest in. They run on rooms whose profile
 * keeps the same limits as the batch's phase (or on a room without one).
 */
export async function seedDemoGrowCycles(sql: Sql, clientId: number, mcuIdOf: (room: string) => number, by: string, at: Date): Promise<void> {
  const recipes = recipesRepo(sql);
  const batches = batchesRepo(sql);
  const now = at.getTime();
  const bySpecies = new Map<string, Recipe>();
  for (const starter of STARTER_RECIPES) {
    const input = recipeRequest.schema(starter);
    if (input instanceof type.errors) throw new Error(`starter recipe ${starter.name}: ${input.summary}`);
    bySpecies.set(starter.species, await recipes.create(clientId, input, at));
  }

  /**
   * A batch started `daysAgo` days before now (a little earlier in the day), its plan caught up
   * to now; with `confirm`, the grower confirmed its waiting phase that many days after the start.
   */
  async function batch(name: string, species: string, room: string, daysAgo: number, confirm?: { afterDays: number; reason: string }) {
    const recipe = bySpecies.get(species)!;
    const startMs = addLocalDays(now, -daysAgo, TIME_ZONE) - 2 * HOUR;
    const startedAt = new Date(startMs).toISOString();
    const first: BatchState = { phases: recipe.phases, time_zone: TIME_ZONE, status: "running", phase_index: 0, phase_started_at: startedAt, extra_days: 0, held_ms: 0, held_since: null, ended_at: null };
    const events: BatchEvent[] = [{ at: startedAt, kind: "start", phase_index: 0, reason: null, by, days: null }];
    let state = first;
    if (confirm) {
      const confirmedAt = addLocalDays(startMs, confirm.afterDays, TIME_ZONE);
      const before = catchUp(state, confirmedAt);
      const out = applyStep(before.state, { kind: "confirm", by, reason: confirm.reason }, confirmedAt);
      if (!out.ok) throw new Error(`demo batch ${name}: ${out.message}`);
      events.push(...before.events, out.event);
      state = out.state;
    }
    const caught = catchUp(state, now);
    const input = { name, recipe_id: recipe.recipe_id, recipe_version: recipe.version, time_zone: TIME_ZONE, started_at: startedAt, mcu_ids: [mcuIdOf(room)] };
    return batches.create(clientId, input, caught.state, [...events, ...caught.events], at);
  }

  await batch("Oyster straw, bags 1-60", "Oyster", "Incubation Bay", 3);
  // 14 days of incubation behind it, pins not seen yet.
  await batch("Lion's mane, rack 1", "Lion's mane", "Lion's Mane Rack", 16);
  // Spawn run over (16 days), pins confirmed after 4 days of pinning, fruiting since, its first harvest in.
  const fruiting = await batch("Oyster columns, week 22", "Oyster", "Oyster Room A", 22, { afterDays: 20, reason: "Pins on most columns" });
  await batches.addHarvest(fruiting.batch_id, { at: new Date(now - 5 * HOUR).toISOString(), fresh_kg: 14.2, note: "First flush, clusters picked before the caps flattened" }, at);
  await batches.update(clientId, fruiting.batch_id, { substrate_dry_kg: 60 }, at);
}
