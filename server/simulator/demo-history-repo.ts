import { randomUUID } from "node:crypto";
import type { AlarmKind } from "../../src/contract/alarms-values.ts";
import type { ProfileConfig } from "../../src/contract/entities.ts";
import type { SwitchReason } from "../../src/contract/switch-reasons.ts";
import type { Sql } from "../db/database.ts";
import type { StateChange } from "../history/state-tracker.ts";
import type { TitleAndBody } from "../texts.ts";

/** A demo MCU as the seeded day needs it: its owner (who sends the grower's commands) and linked profile. */
export interface DemoMcu {
  mcu_id: number;
  client_id: number;
  mac: string;
  name: string;
  username: string;
  config: ProfileConfig | null;
}

/** A command-log row of the seeded day: the automation's switches and the grower's own commands. */
export interface SeededCommand {
  mcuId: number;
  actor: string | null;
  source: "user" | "automation";
  target: string;
  type: "auto" | "status";
  onOff: boolean;
  /** epoch ms */
  at: number;
  outcome: "reported" | "acknowledged";
  /** The automation's reason (switch-reasons.ts), if any. */
  why?: SwitchReason | null;
}

/** An alarm the seeded day opened and resolved (times epoch ms). */
export interface SeededAlarmRow {
  clientId: number;
  mcuId: number;
  kind: AlarmKind;
  openedAt: number;
  resolvedAt: number;
  title: string;
  body: string;
  words: TitleAndBody;
  acknowledgedAt: number | null;
  acknowledgedBy: string | null;
  ackComment: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The demo's seeded day of history (history-seed.ts): its MCUs, their newest stored minute, and
 * the day's state changes, command log and alarms, written in large statements. (Its minutes and
 * hours are written as the live path writes them: rollups-repo.)
 */
export function demoHistoryRepo(sql: Sql) {
  return {
    /** The MCUs registered with these MACs, by id. */
    async mcusOf(macs: readonly string[]): Promise<DemoMcu[]> {
      return sql.query<DemoMcu>(
        `select m.mcu_id, m.client_id, m.mac, m.name, c.username, p.config from mcus m
     join clients c on c.client_id = m.client_id
     left join profile_links l on l.mcu_id = m.mcu_id
     left join setting_profiles p on p.profile_id = l.profile_id
     where m.mac = any($1::text[]) order by m.mcu_id`,
        [macs],
      );
    },

    /** The newest minute stored of any of these MCUs (null: none), by the primary key (one probe per MCU and partition). */
    async newestMinute(mcuIds: readonly number[]): Promise<Date | null> {
      const [newest] = await sql.query<{ at: Date | null }>(
        `select max(x.bucket) as at from unnest($1::int[]) as id
     cross join lateral (select bucket from reading_minutes where mcu_id = id order by bucket desc limit 1) x`,
        [mcuIds],
      );
      return newest?.at ?? null;
    },

    /** Writes state changes as they are (no comparison with stored ones: the day is new). */
    async insertStateEvents(part: readonly StateChange[]): Promise<void> {
      await sql.query(
        `insert into device_state_events (mcu_id, at, target, status, auto, session)
         select * from unnest($1::int[], $2::timestamptz[], $3::text[], $4::bool[], $5::bool[], $6::bool[])`,
        [part.map((c) => c.mcuId), part.map((c) => iso(c.at)), part.map((c) => c.target), part.map((c) => c.status), part.map((c) => c.auto), part.map((c) => c.session)],
      );
    },

    /** Writes command-log rows, each answered 0.2 s after it was sent, under a new command id. */
    async insertCommands(part: readonly SeededCommand[]): Promise<void> {
      await sql.query(
        `insert into command_log (command_id, mcu_id, client_id, source, actor, target, type, on_off, at, outcome, reason, answered_at, why)
         select v.id, v.mcu_id, m.client_id, v.source, v.actor, v.target, v.type, v.on_off, v.at, v.outcome, null, v.at + interval '0.2 seconds', v.why::jsonb
         from unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bool[], $8::timestamptz[], $9::text[], $10::text[])
           as v(id, mcu_id, source, actor, target, type, on_off, at, outcome, why)
         join mcus m on m.mcu_id = v.mcu_id`,
        [
          part.map(() => randomUUID()),
          part.map((c) => c.mcuId),
          part.map((c) => c.source),
          part.map((c) => c.actor),
          part.map((c) => c.target),
          part.map((c) => c.type),
          part.map((c) => c.onOff),
          part.map((c) => iso(c.at)),
          part.map((c) => c.outcome),
          part.map((c) => (c.why ? JSON.stringify(c.why) : null)),
        ],
      );
    },

    /** Deletes the state events of these MCUs from `fromMs` to `toMs` that repeat the state stored before them. */
    async deleteRepeatedStates(mcuIds: readonly number[], fromMs: number, toMs: number): Promise<void> {
      await sql.query(
        `delete from device_state_events d
       where d.mcu_id = any($1::int[]) and d.at >= $2 and d.at < $3
         and exists (
           select 1 from (
             select p.status, p.auto, p.session from device_state_events p
             where p.mcu_id = d.mcu_id and p.target = d.target and p.at < d.at order by p.at desc limit 1
           ) q where q.status = d.status and q.auto = d.auto and q.session is not distinct from d.session
         )`,
        [mcuIds, iso(fromMs), iso(toMs)],
      );
    },

    /** Writes an alarm that opened and resolved (not announced). */
    async insertResolvedAlarm(a: SeededAlarmRow): Promise<void> {
      await sql.query(
        `insert into alerts (client_id, mcu_id, type, state, raised_at, resolved_at, title, body, announced, acknowledged_at, acknowledged_by, ack_comment, words)
         values ($1, $2, $3, 'resolved', $4, $5, $6, $7, false, $8, $9, $10, $11)`,
        [
          a.clientId,
          a.mcuId,
          a.kind,
          iso(a.openedAt),
          iso(a.resolvedAt),
          a.title,
          a.body,
          a.acknowledgedAt === null ? null : iso(a.acknowledgedAt),
          a.acknowledgedBy,
          a.ackComment,
          JSON.stringify(a.words),
        ],
      );
    },
  };
}
