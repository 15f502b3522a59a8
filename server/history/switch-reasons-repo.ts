import type { ProfileConfig } from "../../src/contract/entities.ts";
import { batchProgress, type BatchPlanState, type RecipePhase } from "../../src/contract/grow.ts";
import { inferWhy, type SwitchReason } from "../../src/contract/switch-reasons.ts";
import type { Sql } from "../db/database.ts";
import { iso, isoOrNull } from "../db/rows.ts";
import type { StateChange } from "./state-tracker.ts";

/** What an MCU's effective config is made of now: its running batch's plan, else its linked profile's config. */
export interface ConfigSource {
  /** The running batch's plan state, or null when the MCU is in none. */
  batch: BatchPlanState | null;
  /** The linked profile's config, or null: the device runs its built-in settings, which the server does not know. */
  profile: ProfileConfig | null;
}

interface SourceRow {
  mcu_id: number;
  profile_config: ProfileConfig | null;
  phases: RecipePhase[] | null;
  phase_index: number | null;
  phase_started_at: Date | null;
  extra_days: number | null;
  held_ms: number | null;
  held_since: Date | null;
  time_zone: string | null;
}

/**
 * The config sources of `mcuIds`, in one query (a written batch of state changes asks once, for
 * its distinct MCUs): an MCU is in at most one running batch (batch_mcus' partial unique index)
 * and has at most one linked profile.
 */
export async function configSources(sql: Sql, mcuIds: readonly number[]): Promise<Map<number, ConfigSource>> {
  const rows = await sql.query<SourceRow>(
    `select m.id as mcu_id, sp.config as profile_config, v.phases, b.phase_index, b.phase_started_at, b.extra_days,
       b.held_ms::float8 as held_ms, b.held_since, b.time_zone
     from unnest($1::int[]) as m(id)
     left join profile_links pl on pl.mcu_id = m.id
     left join setting_profiles sp on sp.profile_id = pl.profile_id
     left join batch_mcus bm on bm.mcu_id = m.id and bm.running
     left join batches b on b.batch_id = bm.batch_id and b.status = 'running'
     left join recipe_versions v on v.recipe_id = b.recipe_id and v.version = b.recipe_version`,
    [mcuIds],
  );
  const sources = new Map<number, ConfigSource>();
  for (const r of rows) {
    const batch: BatchPlanState | null =
      r.phases && r.phases.length > 0 && r.phase_started_at && r.time_zone
        ? {
            phases: r.phases,
            phase_index: r.phase_index ?? 0,
            phase_started_at: iso(r.phase_started_at),
            extra_days: r.extra_days ?? 0,
            held_ms: Number(r.held_ms ?? 0),
            held_since: isoOrNull(r.held_since),
            time_zone: r.time_zone,
          }
        : null;
    sources.set(r.mcu_id, { batch, profile: r.profile_config });
  }
  return sources;
}

/**
 * The reason the command log keeps for a change, if its automation made it: the device's rule,
 * else the rule that the MCU's effective config at the change's time and the reading's values
 * explain (marked inferred), else none; with the running batch's phase and day ("Fruiting, day 3").
 * A change a person asked for, or made with Automation off, has none (its row, if any, is the person's).
 */
export function reasonOf(change: StateChange, source: ConfigSource | undefined): SwitchReason | null {
  if (!change.auto || change.userCaused) return null;
  const progress = source?.batch ? batchProgress(source.batch, change.at) : null;
  const phase = progress ? `${progress.phase.name}, day ${progress.day}` : null;
  if (change.why) return { rule: change.why.rule, value: change.why.value, limit: change.why.limit, inferred: false, phase };
  const config = progress?.config ?? source?.profile ?? null;
  const why = config ? inferWhy(change.target, change.status, config, change.values) : null;
  return why ? { ...why, inferred: true, phase } : null;
}

/** Sets each automation change's `reason` (those not given one yet), with one query for their MCUs' config sources. */
export async function giveReasons(sql: Sql, changes: readonly StateChange[]): Promise<void> {
  const open = changes.filter((c) => c.reason === undefined && c.auto && !c.userCaused);
  if (open.length === 0) return;
  const sources = await configSources(sql, [...new Set(open.map((c) => c.mcuId))]);
  for (const c of open) c.reason = reasonOf(c, sources.get(c.mcuId));
}
