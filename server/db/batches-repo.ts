import type { ProfileConfig } from "../../src/contract/entities.ts";
import type { Batch, BatchEvent, ConfigChange, Harvest, RecipePhase } from "../../src/contract/grow.ts";
import type { BatchState } from "../grow/batch-steps.ts";
import type { Sql } from "./database.ts";
import { groupBy, iso, isoOrNull } from "./rows.ts";

interface BatchRow {
  batch_id: number;
  client_id: number;
  name: string;
  recipe_id: number;
  recipe_name: string;
  recipe_version: number;
  phases: RecipePhase[];
  time_zone: string;
  started_at: Date;
  status: "running" | "ended";
  phase_index: number;
  phase_started_at: Date;
  extra_days: number;
  held_ms: number;
  held_since: Date | null;
  ended_at: Date | null;
  substrate_dry_kg: number | null;
  created_at: Date;
  updated_at: Date;
}

const SELECT = `
  select b.batch_id, b.client_id, b.name, b.recipe_id, r.name as recipe_name, b.recipe_version, v.phases, b.time_zone,
    b.started_at, b.status, b.phase_index, b.phase_started_at, b.extra_days, b.held_ms::float8 as held_ms, b.held_since,
    b.ended_at, b.substrate_dry_kg, b.created_at, b.updated_at
  from batches b
  join recipe_versions v on v.recipe_id = b.recipe_id and v.version = b.recipe_version
  join recipes r on r.recipe_id = b.recipe_id`;

/** Running batches first, then the ended ones, the latest ended first. */
const ORDER = "order by (b.status = 'running') desc, b.ended_at desc nulls first, b.batch_id desc";

export interface NewBatch {
  name: string;
  recipe_id: number;
  recipe_version: number;
  time_zone: string;
  started_at: string;
  mcu_ids: number[];
}

/** What an MCU's effective config is made of: its device, its linked profile, its running batch. */
export interface ConfigSources {
  mcu_id: number;
  client_id: number;
  mac: string;
  profile_name: string | null;
  profile_config: ProfileConfig | null;
  batch_id: number | null;
}

export interface NewConfigChange {
  mcu_id: number;
  at: Date;
  cause: ConfigChange["cause"];
  batch_id: number | null;
  detail: string;
  config: ProfileConfig | null;
}

/**
 * Batches (a recipe version running on MCUs), their events and harvests, and the log of the
 * configs their MCUs were sent. A change of a batch's plan state is conditional on the state it
 * was read in, so two server nodes (or a grower and the plan) never both move the same phase on.
 */
export function batchesRepo(sql: Sql) {
  async function assemble(rows: BatchRow[]): Promise<Batch[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.batch_id);
    const [mcus, harvests, events] = await Promise.all([
      sql.query<{ batch_id: number; mcu_id: number }>("select batch_id, mcu_id from batch_mcus where batch_id = any($1::int[]) order by mcu_id", [ids]),
      sql.query<{ batch_id: number; harvest_id: number; flush: number; at: Date; fresh_kg: number; note: string }>(
        "select batch_id, harvest_id, flush, at, fresh_kg, note from harvests where batch_id = any($1::int[]) order by flush, harvest_id",
        [ids],
      ),
      sql.query<{ batch_id: number; at: Date; kind: BatchEvent["kind"]; phase_index: number; reason: string | null; by_name: string | null; days: number | null }>(
        "select batch_id, at, kind, phase_index, reason, by_name, days from batch_events where batch_id = any($1::int[]) order by at, event_id",
        [ids],
      ),
    ]);
    const mcusOf = groupBy(mcus, (m) => m.batch_id);
    const harvestsOf = groupBy(harvests, (h) => h.batch_id);
    const eventsOf = groupBy(events, (e) => e.batch_id);
    return rows.map((row) => ({
      batch_id: row.batch_id,
      client_id: row.client_id,
      name: row.name,
      recipe_id: row.recipe_id,
      recipe_name: row.recipe_name,
      recipe_version: row.recipe_version,
      phases: row.phases,
      mcu_ids: (mcusOf.get(row.batch_id) ?? []).map((m) => m.mcu_id),
      time_zone: row.time_zone,
      started_at: iso(row.started_at),
      status: row.status,
      phase_index: row.phase_index,
      phase_started_at: iso(row.phase_started_at),
      extra_days: row.extra_days,
      held_ms: Number(row.held_ms),
      held_since: isoOrNull(row.held_since),
      ended_at: isoOrNull(row.ended_at),
      substrate_dry_kg: row.substrate_dry_kg === null ? null : Number(row.substrate_dry_kg),
      harvests: (harvestsOf.get(row.batch_id) ?? []).map(
        (h): Harvest => ({ harvest_id: h.harvest_id, flush: h.flush, at: iso(h.at), fresh_kg: Number(h.fresh_kg), note: h.note }),
      ),
      events: (eventsOf.get(row.batch_id) ?? []).map(
        (e): BatchEvent => ({ at: iso(e.at), kind: e.kind, phase_index: e.phase_index, reason: e.reason, by: e.by_name, days: e.days }),
      ),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    }));
  }

  async function get(clientId: number, batchId: number): Promise<Batch | undefined> {
    const [batch] = await assemble(await sql.query<BatchRow>(`${SELECT} where b.client_id = $1 and b.batch_id = $2`, [clientId, batchId]));
    return batch;
  }

  async function addEvents(batchId: number, events: BatchEvent[]): Promise<void> {
    for (const e of events) {
      await sql.query("insert into batch_events (batch_id, at, kind, phase_index, reason, by_name, days) values ($1, $2, $3, $4, $5, $6, $7)", [
        batchId,
        e.at,
        e.kind,
        e.phase_index,
        e.reason,
        e.by,
        e.days,
      ]);
    }
  }

  return {
    get,

    async list(clientId: number): Promise<Batch[]> {
      return assemble(await sql.query<BatchRow>(`${SELECT} where b.client_id = $1 ${ORDER}`, [clientId]));
    },

    /** Every client's running batches (the plan runner's). */
    async running(): Promise<Batch[]> {
      return assemble(await sql.query<BatchRow>(`${SELECT} where b.status = 'running' order by b.batch_id`));
    },

    /** Call inside a transaction: locks the batch's row until it commits (a grower's action against the plan's). */
    async lock(clientId: number, batchId: number): Promise<Batch | undefined> {
      const rows = await sql.query("select 1 from batches where client_id = $1 and batch_id = $2 for update", [clientId, batchId]);
      return rows.length > 0 ? get(clientId, batchId) : undefined;
    },

    /** How many of `mcuIds` are the client's MCUs. */
    async ownMcus(clientId: number, mcuIds: number[]): Promise<number> {
      const [row] = await sql.query<{ n: number }>("select count(*)::int as n from mcus where client_id = $1 and mcu_id = any($2::int[])", [clientId, mcuIds]);
      return row!.n;
    },

    /** Of `mcuIds`, those already in a running batch, with that batch's name. */
    async runningOn(mcuIds: number[]): Promise<{ mcu_id: number; mcu_name: string; batch_name: string }[]> {
      return sql.query(
        `select m.mcu_id, m.name as mcu_name, b.name as batch_name from batch_mcus bm
         join mcus m on m.mcu_id = bm.mcu_id join batches b on b.batch_id = bm.batch_id
         where bm.running and bm.mcu_id = any($1::int[]) order by m.mcu_id`,
        [mcuIds],
      );
    },

    /** Call inside a transaction: a batch in the state `state`, on its MCUs, with what happened so far. */
    async create(clientId: number, input: NewBatch, state: BatchState, events: BatchEvent[], now: Date): Promise<Batch> {
      const [row] = await sql.query<{ batch_id: number }>(
        `insert into batches (client_id, name, recipe_id, recipe_version, time_zone, started_at, status, phase_index, phase_started_at,
           extra_days, held_ms, held_since, ended_at, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) returning batch_id`,
        [clientId, input.name, input.recipe_id, input.recipe_version, input.time_zone, input.started_at, state.status, state.phase_index,
          state.phase_started_at, state.extra_days, state.held_ms, state.held_since, state.ended_at, now],
      );
      const batchId = row!.batch_id;
      await sql.query("insert into batch_mcus (batch_id, mcu_id, running) select $1::int, id, $3::boolean from unnest($2::int[]) as t(id)", [
        batchId,
        input.mcu_ids,
        state.status === "running",
      ]);
      await addEvents(batchId, events);
      return (await get(clientId, batchId))!;
    },

    /**
     * Stores a step's new plan state and its events, if the batch is still in the state `before`
     * (answers false, changing nothing, when someone moved it meanwhile). An ended batch frees its MCUs.
     */
    async saveStep(batchId: number, before: BatchState, after: BatchState, events: BatchEvent[], now: Date): Promise<boolean> {
      const rows = await sql.query(
        `update batches set status = $6, phase_index = $7, phase_started_at = $8, extra_days = $9, held_ms = $10, held_since = $11,
           ended_at = $12, updated_at = $13
         where batch_id = $1 and status = 'running' and phase_index = $2 and extra_days = $3 and held_ms = $4
           and held_since is not distinct from $5::timestamptz
         returning 1`,
        [batchId, before.phase_index, before.extra_days, before.held_ms, before.held_since, after.status, after.phase_index, after.phase_started_at,
          after.extra_days, after.held_ms, after.held_since, after.ended_at, now],
      );
      if (rows.length === 0) return false;
      if (after.status !== "running") await sql.query("update batch_mcus set running = false where batch_id = $1", [batchId]);
      await addEvents(batchId, events);
      return true;
    },

    async update(clientId: number, batchId: number, changes: { name?: string; substrate_dry_kg?: number | null }, now: Date): Promise<Batch | undefined> {
      const rows = await sql.query(
        `update batches set name = coalesce($3, name), substrate_dry_kg = case when $4::boolean then $5::real else substrate_dry_kg end, updated_at = $6
         where client_id = $1 and batch_id = $2 returning 1`,
        [clientId, batchId, changes.name ?? null, changes.substrate_dry_kg !== undefined, changes.substrate_dry_kg ?? null, now],
      );
      return rows.length > 0 ? get(clientId, batchId) : undefined;
    },

    /** Deletes an ended batch (a running one is ended first); answers whether one was deleted. */
    async deleteEnded(clientId: number, batchId: number): Promise<boolean> {
      return (await sql.query("delete from batches where client_id = $1 and batch_id = $2 and status = 'ended' returning 1", [clientId, batchId])).length > 0;
    },

    /** The next flush of the batch. */
    async addHarvest(batchId: number, h: { at: string; fresh_kg: number; note: string }, now: Date): Promise<void> {
      await sql.query(
        `insert into harvests (batch_id, flush, at, fresh_kg, note)
         select $1::int, coalesce(max(flush), 0) + 1, $2::timestamptz, $3::real, $4::text from harvests where batch_id = $1`,
        [batchId, h.at, h.fresh_kg, h.note],
      );
      await sql.query("update batches set updated_at = $2 where batch_id = $1", [batchId, now]);
    },

    /** Removes a harvest; the later flushes move up, so flushes stay 1, 2, 3 … */
    async deleteHarvest(batchId: number, harvestId: number, now: Date): Promise<boolean> {
      const [gone] = await sql.query<{ flush: number }>("delete from harvests where batch_id = $1 and harvest_id = $2 returning flush", [batchId, harvestId]);
      if (!gone) return false;
      await sql.query("update harvests set flush = flush - 1 where batch_id = $1 and flush > $2", [batchId, gone.flush]);
      await sql.query("update batches set updated_at = $2 where batch_id = $1", [batchId, now]);
      return true;
    },

    // ---- The configs MCUs were sent ----

    /** What the effective configs of `mcuIds` are made of (of every MCU with a linked profile or a running batch when `mcuIds` is undefined). */
    async configSources(mcuIds?: number[]): Promise<ConfigSources[]> {
      return sql.query<ConfigSources>(
        `select m.mcu_id, m.client_id, m.mac, p.name as profile_name, p.config as profile_config, bm.batch_id
         from mcus m
         left join profile_links l on l.mcu_id = m.mcu_id
         left join setting_profiles p on p.profile_id = l.profile_id
         left join batch_mcus bm on bm.mcu_id = m.mcu_id and bm.running
         where ${mcuIds ? "m.mcu_id = any($1::int[])" : "(p.profile_id is not null or bm.batch_id is not null)"}
         order by m.mcu_id`,
        mcuIds ? [mcuIds] : [],
      );
    },

    /**
     * Records an MCU's new effective config, unless its latest record already says the same (the
     * same cause, batch and config: a restart, or another node, does not add it twice). An MCU
     * never recorded counts as having had none. Answers whether a row was added.
     */
    async recordConfigChange(c: NewConfigChange): Promise<boolean> {
      const rows = await sql.query(
        `insert into config_changes (mcu_id, at, cause, batch_id, detail, config)
         select $1::int, $2::timestamptz, $3::text, $4::int, $5::text, $6::jsonb
         where not exists (
           select 1 from (
             select cause, batch_id, config from config_changes where mcu_id = $1 order by at desc, change_id desc limit 1
           ) latest
           where latest.cause = $3 and latest.batch_id is not distinct from $4 and latest.config is not distinct from $6::jsonb
         )
         and ($3::text <> 'none' or exists (select 1 from config_changes where mcu_id = $1))
         returning 1`,
        [c.mcu_id, c.at, c.cause, c.batch_id, c.detail, c.config === null ? null : JSON.stringify(c.config)],
      );
      return rows.length > 0;
    },

    /** An MCU's config changes, the latest first (the MCU must be the client's: none otherwise). */
    async configChanges(clientId: number, mcuId: number, limit: number): Promise<ConfigChange[]> {
      const rows = await sql.query<{ at: Date; cause: ConfigChange["cause"]; batch_id: number | null; detail: string; config: ProfileConfig | null }>(
        `select c.at, c.cause, c.batch_id, c.detail, c.config from config_changes c join mcus m on m.mcu_id = c.mcu_id
         where m.client_id = $1 and c.mcu_id = $2 order by c.at desc, c.change_id desc limit $3`,
        [clientId, mcuId, limit],
      );
      return rows.map((r) => ({ at: iso(r.at), cause: r.cause, batch_id: r.batch_id, detail: r.detail, config: r.config }));
    },

    /** Drops config changes older than `cutoff`, but never an MCU's latest (what it runs on now). */
    async sweepConfigChanges(cutoff: Date): Promise<number> {
      const rows = await sql.query(
        `delete from config_changes c where c.at < $1
           and exists (select 1 from config_changes n where n.mcu_id = c.mcu_id and (n.at, n.change_id) > (c.at, c.change_id))
         returning 1`,
        [cutoff],
      );
      return rows.length;
    },
  };
}
