import type { AlarmNotice, Rota, RotaRequest } from "../../src/contract/rota.ts";
import { can, ROLES } from "../../src/contract/team.ts";
import type { TitleAndBody } from "../texts.ts";
import type { Sql } from "./database.ts";
import { iso, isoOrNull } from "./rows.ts";

/** An alarm being called out, as its row keeps it. */
export interface Escalation {
  alarm_id: number;
  farm_id: number;
  step: number;
  called: number[];
  next_repeat_at: Date;
  next_escalate_at: Date;
}

/** The alarm an escalation calls about, as the calls word it; null when it is no longer open. */
export interface CalledAlarm {
  alarm_id: number;
  kind: string;
  mcu_id: number;
  /** As stored: the server's English words. */
  title: string;
  body: string;
  /** The words of both, for each person called to read in their own language; null for an alarm stored without them. */
  words: TitleAndBody | null;
}

/** The member roles whose rights include acknowledging a farm's alarms: only they are worth calling about one. */
const ACKNOWLEDGING_ROLES = ROLES.filter((r) => can(r, "acknowledgeAlarms"));

/**
 * The people who may be called about farm `$farm`'s alarms: its account (their own farm) and its
 * members whose role may acknowledge alarms (`$roles`: ACKNOWLEDGING_ROLES).
 */
const callableOf = (farm: string, roles: string) =>
  `select f.client_id from farms f where f.farm_id = ${farm} union select m.client_id from farm_members m where m.farm_id = ${farm} and m.role = any(${roles}::text[])`;

/** On-call rotas, alarms being called out, and every call made. */
export function rotaRepo(sql: Sql) {
  return {
    async get(farmId: number): Promise<Rota | null> {
      const [row] = await sql.query<Omit<Rota, "farm_id">>("select time_zone, repeat_minutes, escalate_minutes, shifts from farm_rotas where farm_id = $1", [farmId]);
      return row ? { farm_id: farmId, ...row } : null;
    },

    async put(farmId: number, r: RotaRequest, now: Date): Promise<Rota> {
      await sql.query(
        `insert into farm_rotas (farm_id, time_zone, repeat_minutes, escalate_minutes, shifts, updated_at) values ($1, $2, $3, $4, $5, $6)
         on conflict (farm_id) do update set time_zone = excluded.time_zone, repeat_minutes = excluded.repeat_minutes,
           escalate_minutes = excluded.escalate_minutes, shifts = excluded.shifts, updated_at = excluded.updated_at`,
        [farmId, r.time_zone, r.repeat_minutes, r.escalate_minutes, JSON.stringify(r.shifts), now],
      );
      return { farm_id: farmId, ...r };
    },

    /** The people of a farm who may be on its rota, or called about its alarms: its account and its members who may acknowledge alarms. */
    async callable(farmId: number): Promise<Set<number>> {
      const rows = await sql.query<{ client_id: number }>(callableOf("$1", "$2"), [farmId, ACKNOWLEDGING_ROLES]);
      return new Set(rows.map((r) => r.client_id));
    },

    /** Everyone a call's last step reaches: the farm's account and its Managers and Owners. */
    async managersAndOwners(farmId: number): Promise<number[]> {
      const rows = await sql.query<{ client_id: number }>(
        "select client_id from farms where farm_id = $1 union select client_id from farm_members where farm_id = $1 and role in ('owner', 'manager') order by client_id",
        [farmId],
      );
      return rows.map((r) => r.client_id);
    },

    /** The alarm, while it is open and nobody acknowledged it. */
    async openAlarm(alarmId: number): Promise<CalledAlarm | null> {
      const [row] = await sql.query<CalledAlarm>("select alert_id as alarm_id, type as kind, mcu_id, title, body, words from alerts where alert_id = $1 and state = 'open'", [alarmId]);
      return row ?? null;
    },

    /** Starts calling an alarm out; false when it was started already (by this node or another). */
    async start(e: Escalation): Promise<boolean> {
      const rows = await sql.query(
        `insert into alarm_escalations (alarm_id, farm_id, step, called, next_repeat_at, next_escalate_at) values ($1, $2, $3, $4, $5, $6)
         on conflict (alarm_id) do nothing returning 1`,
        [e.alarm_id, e.farm_id, e.step, e.called, e.next_repeat_at, e.next_escalate_at],
      );
      return rows.length > 0;
    },

    /**
     * The escalations with a call due at `now`, oldest first; and those where nobody called may
     * still be called (removed from the farm, made a Viewer): their alarm waits for someone who
     * can act, not for its next repeat.
     */
    async due(now: Date, limit: number): Promise<Escalation[]> {
      return sql.query<Escalation>(
        `select e.alarm_id, e.farm_id, e.step, e.called, e.next_repeat_at, e.next_escalate_at from alarm_escalations e
         where least(e.next_repeat_at, e.next_escalate_at) <= $1
           or not exists (select 1 from unnest(e.called) as c(client_id) where c.client_id in (${callableOf("e.farm_id", "$3")}))
         order by least(e.next_repeat_at, e.next_escalate_at) limit $2`,
        [now, limit, ACKNOWLEDGING_ROLES],
      );
    },

    /** Takes the next step of an escalation, only if it is still as `was` (another node did not take it): whether it did. */
    async advance(was: Escalation, next: Pick<Escalation, "step" | "called" | "next_repeat_at" | "next_escalate_at">): Promise<boolean> {
      const rows = await sql.query(
        `update alarm_escalations set step = $4, called = $5, next_repeat_at = $6, next_escalate_at = $7
         where alarm_id = $1 and next_repeat_at = $2 and next_escalate_at = $3 returning 1`,
        [was.alarm_id, was.next_repeat_at, was.next_escalate_at, next.step, next.called, next.next_repeat_at, next.next_escalate_at],
      );
      return rows.length > 0;
    },

    async stop(alarmId: number): Promise<void> {
      await sql.query("delete from alarm_escalations where alarm_id = $1", [alarmId]);
    },

    async notice(alarmId: number, person: number, step: number, reason: AlarmNotice["reason"], at: Date): Promise<void> {
      await sql.query("insert into alarm_notices (alarm_id, client_id, step, reason, at) values ($1, $2, $3, $4, $5)", [alarmId, person, step, reason, at]);
    },

    /** Who was called about an alarm, when and why, and when a push of that call was displayed. */
    async notices(alarmId: number): Promise<AlarmNotice[]> {
      const rows = await sql.query<{ client_id: number; username: string; step: number; reason: AlarmNotice["reason"]; at: Date; displayed_at: Date | null }>(
        `select n.client_id, c.username, n.step, n.reason, n.at,
           (select min(d.displayed_at) from push_deliveries d where d.alert_id = n.alarm_id and d.client_id = n.client_id and d.sent_at >= n.at) as displayed_at
         from alarm_notices n join clients c on c.client_id = n.client_id where n.alarm_id = $1 order by n.at, n.notice_id`,
        [alarmId],
      );
      return rows.map((r) => ({ client_id: r.client_id, username: r.username, step: r.step, reason: r.reason, at: iso(r.at), displayed_at: isoOrNull(r.displayed_at) }));
    },
  };
}

export type RotaRepo = ReturnType<typeof rotaRepo>;
