import type { CommandOutcome } from "../../src/contract/history.ts";
import type { Sql } from "../db/database.ts";
import type { SentCommand } from "./command-log.ts";

/** A command as the command log keeps it: as sent, and what became of it so far. */
export interface CommandLogRow extends SentCommand {
  outcome: CommandOutcome;
  reason: string | null;
  /** epoch ms */
  answeredAt: number | null;
}

/** The reason the history job gives a pending row whose node never wrote its outcome. */
export const ABANDONED_REASON = "No answer was recorded (the server stopped while waiting)";

const UPSERT = `insert into command_log as c (command_id, mcu_id, client_id, source, actor, target, type, on_off, at, outcome, reason, answered_at)
  select v.command_id, v.mcu_id, cl.client_id, 'user', v.actor, v.target, v.type, v.on_off, v.at, v.outcome, v.reason, v.answered_at
  from unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::bool[], $8::timestamptz[], $9::text[], $10::text[], $11::timestamptz[])
    as v(command_id, mcu_id, client_id, actor, target, type, on_off, at, outcome, reason, answered_at)
  join mcus m on m.mcu_id = v.mcu_id
  left join clients cl on cl.client_id = v.client_id
  on conflict (command_id, at) do update set outcome = excluded.outcome, reason = excluded.reason, answered_at = excluded.answered_at
  where c.outcome = 'pending' or (excluded.outcome <> 'pending' and c.outcome = 'timed_out' and c.reason = $12)`;

/** The command log's rows of users' commands (the automation's are written with the state changes: state-events-repo). */
export function commandLogRepo(sql: Sql) {
  return {
    /**
     * Writes users' commands in one statement, each upserted by its key (its id and the time it
     * was sent): a final outcome is never overwritten, except the time-out with ABANDONED_REASON.
     * Commands of an MCU deleted meanwhile are skipped.
     */
    async upsert(rows: readonly CommandLogRow[]): Promise<void> {
      await sql.query(UPSERT, [
        rows.map((r) => r.commandId),
        rows.map((r) => r.mcuId),
        rows.map((r) => r.clientId),
        rows.map((r) => r.actor),
        rows.map((r) => r.target),
        rows.map((r) => r.type),
        rows.map((r) => r.onOff),
        rows.map((r) => new Date(r.at).toISOString()),
        rows.map((r) => r.outcome),
        rows.map((r) => r.reason),
        rows.map((r) => (r.answeredAt === null ? null : new Date(r.answeredAt).toISOString())),
        ABANDONED_REASON,
      ]);
    },

    /**
     * Marks pending rows older than `olderThanMs` as timed out: their node stopped before it wrote the
     * outcome. Run at start with the command time-out (this node's own commands of a previous run),
     * and by the history job with a margin (any node's). Each month's partial index of pending rows
     * holds only commands still waiting, so this reads a few index entries per partition, whatever
     * the size of the log; the update keeps `at`, so no row changes partition. Answers how many.
     */
    async sweepAbandoned(olderThanMs: number, nowMs: number): Promise<number> {
      const rows = await sql.query<{ n: number }>(
        `with swept as (
       update command_log set outcome = 'timed_out', reason = $2, answered_at = $3
       where outcome = 'pending' and at < $1 returning 1
     ) select count(*)::int as n from swept`,
        [new Date(olderThanMs).toISOString(), ABANDONED_REASON, new Date(nowMs).toISOString()],
      );
      return rows[0]?.n ?? 0;
    },
  };
}
