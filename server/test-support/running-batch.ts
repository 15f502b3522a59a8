import type { ProfileConfig } from "../../src/contract/entities.ts";
import type { RecipePhase } from "../../src/contract/grow.ts";
import type { Database } from "../db/database.ts";

/**
 * A batch running `phases` on `mcuIds` for `clientId`, in phase `phaseIndex` since `phaseStartedAt`
 * (days counted in UTC): its recipe, version, batch and batch_mcus rows, written as the batches
 * repository keeps them. Answers the batch's id.
 */
export async function insertRunningBatch(
  db: Database,
  o: { clientId: number; mcuIds: number[]; phases: RecipePhase[]; phaseIndex: number; phaseStartedAt: Date },
): Promise<number> {
  const now = new Date();
  const [recipe] = await db.query<{ recipe_id: number }>(
    "insert into recipes (client_id, name, species, version, created_at, updated_at) values ($1, 'Test recipe', 'Oyster', 1, $2, $2) returning recipe_id",
    [o.clientId, now],
  );
  await db.query("insert into recipe_versions (recipe_id, version, phases, created_at) values ($1, 1, $2, $3)", [recipe!.recipe_id, JSON.stringify(o.phases), now]);
  const [batch] = await db.query<{ batch_id: number }>(
    `insert into batches (client_id, name, recipe_id, recipe_version, time_zone, started_at, status, phase_index, phase_started_at, created_at, updated_at)
     values ($1, 'Test batch', $2, 1, 'UTC', $3, 'running', $4, $5, $6, $6) returning batch_id`,
    [o.clientId, recipe!.recipe_id, o.phaseStartedAt, o.phaseIndex, o.phaseStartedAt, now],
  );
  await db.query("insert into batch_mcus (batch_id, mcu_id, running) select $1::int, id, true from unnest($2::int[]) as t(id)", [batch!.batch_id, o.mcuIds]);
  return batch!.batch_id;
}

/** A phase of `days` with `config` throughout (no ramps, no confirmation). */
export const steadyPhase = (name: string, days: number, config: ProfileConfig): RecipePhase => ({ name, days, confirm: null, config, ramps: [] });
