import type { AuditEntry, AuditKind } from "../../src/contract/team.ts";
import type { Sql } from "./database.ts";
import { iso } from "./rows.ts";

/** The key of an audited record: an id, or (farm, person) for a membership. */
export type AuditKey = number | readonly [number, number];

/**
 * Each kind's record as the trail keeps it, read whole from its table (so a new column is in the
 * trail without a change here), without what must never leave the server (a code's hash) or what
 * changes by itself every second (an MCU's readings). `$1` (and `$2`) is the key.
 */
const SNAPSHOTS: Record<Exclude<AuditKind, "command">, string> = {
  farm: "select to_jsonb(f) - 'status' as r from farms f where farm_id = $1",
  mcu: "select to_jsonb(m) - 'readings' - 'last_seen_at' - 'status' - 'reported_sensors' as r from mcus m where mcu_id = $1",
  controller: "select to_jsonb(c) as r from controllers c where unit_id = $1",
  sensor: "select to_jsonb(s) as r from sensors s where sensor_id = $1",
  profile: "select to_jsonb(p) as r from setting_profiles p where profile_id = $1",
  link: "select to_jsonb(l) as r from profile_links l where id = $1",
  recipe:
    "select to_jsonb(r) || jsonb_build_object('phases', v.phases) as r from recipes r join recipe_versions v on v.recipe_id = r.recipe_id and v.version = r.version where r.recipe_id = $1",
  batch: `select to_jsonb(b) || jsonb_build_object(
            'mcu_ids', (select coalesce(jsonb_agg(bm.mcu_id order by bm.mcu_id), '[]') from batch_mcus bm where bm.batch_id = b.batch_id),
            'harvests', (select coalesce(jsonb_agg(to_jsonb(h) - 'batch_id' order by h.harvest_id), '[]') from harvests h where h.batch_id = b.batch_id)) as r
          from batches b where batch_id = $1`,
  member: "select to_jsonb(fm) || jsonb_build_object('username', c.username) as r from farm_members fm join clients c on c.client_id = fm.client_id where fm.farm_id = $1 and fm.client_id = $2",
  invitation: "select to_jsonb(i) - 'code_hash' as r from farm_invitations i where invitation_id = $1",
  rota: "select to_jsonb(r) as r from farm_rotas r where farm_id = $1",
};

export interface NewAuditEntry {
  /** The account acted in; the farm's account when `farmId` is known. */
  tenant: number;
  farmId: number | null;
  actorId: number;
  address: string;
  at: Date;
  kind: AuditKind;
  entityId: string;
  action: string;
  before: object | null;
  after: object | null;
}

export interface AuditFilters {
  kind?: AuditKind;
  actor?: string;
  fromMs?: number;
  toMs?: number;
}

/** Where a page ends: its last entry's time (µs since the epoch, as text) and id. */
export interface AuditCursor {
  atMicros: string;
  auditId: string;
}

interface AuditRow {
  audit_id: string;
  farm_id: number | null;
  actor: string;
  address: string;
  at: Date;
  kind: AuditKind;
  entity_id: string;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  at_micros: string;
}

/** The audit trail: records changes and lists a farm's (with its account's changes of no farm). */
export function auditRepo(sql: Sql) {
  return {
    /** A record as the trail keeps it; null when there is none (before a create, after a delete). */
    async snapshot(kind: Exclude<AuditKind, "command">, key: AuditKey): Promise<Record<string, unknown> | null> {
      const params = typeof key === "number" ? [key] : [...key];
      const [row] = await sql.query<{ r: Record<string, unknown> }>(SNAPSHOTS[kind], params);
      return row?.r ?? null;
    },

    async record(e: NewAuditEntry): Promise<void> {
      await sql.query(
        `insert into audit_log (client_id, farm_id, actor_id, actor, address, at, kind, entity_id, action, before, after)
         select coalesce((select client_id from farms where farm_id = $2), $1), $2, $3, coalesce((select username from clients where client_id = $3), ''), $4, $5, $6, $7, $8, $9, $10`,
        [e.tenant, e.farmId, e.actorId, e.address, e.at, e.kind, e.entityId, e.action, e.before === null ? null : JSON.stringify(e.before), e.after === null ? null : JSON.stringify(e.after)],
      );
    },

    /** A page of a farm's trail, newest first: its own entries and its account's of no farm. */
    async list(tenant: number, farmId: number, f: AuditFilters, limit: number, after?: AuditCursor): Promise<{ entry: AuditEntry; cursor: AuditCursor }[]> {
      const values: unknown[] = [tenant, farmId];
      const p = (v: unknown) => `$${values.push(v)}`;
      const where = ["client_id = $1", "(farm_id = $2 or farm_id is null)"];
      if (f.kind) where.push(`kind = ${p(f.kind)}`);
      if (f.actor) where.push(`lower(actor) = lower(${p(f.actor)})`);
      if (f.fromMs !== undefined) where.push(`at >= ${p(new Date(f.fromMs))}`);
      if (f.toMs !== undefined) where.push(`at < ${p(new Date(f.toMs))}`);
      if (after) where.push(`(at, audit_id) < (timestamptz '1970-01-01 00:00:00+00' + ${p(after.atMicros)}::bigint * interval '1 microsecond', ${p(after.auditId)}::bigint)`);
      const rows = await sql.query<AuditRow>(
        `select audit_id::text, farm_id, actor, address, at, kind, entity_id, action, before, after, (extract(epoch from at) * 1000000)::bigint::text as at_micros
         from audit_log where ${where.join(" and ")} order by at desc, audit_log.audit_id desc limit ${p(limit)}`,
        values,
      );
      return rows.map(({ at_micros, ...r }) => ({ entry: { ...r, at: iso(r.at) }, cursor: { atMicros: at_micros, auditId: r.audit_id } }));
    },

    /** Forgets entries older than `cutoff` (kept as long as the command log). */
    async sweep(cutoff: Date): Promise<number> {
      return (await sql.query("delete from audit_log where at < $1 returning 1", [cutoff])).length;
    },
  };
}

export type AuditRepo = ReturnType<typeof auditRepo>;
