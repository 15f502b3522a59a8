import type { Sql } from "../db/database.ts";
import type { StateChange } from "./state-tracker.ts";

/**
 * How long after a user's command a change to the status it asked for counts as that command's
 * doing rather than the automation's: a device answers within the command time-out (5 s) and
 * reports the change with its next reading.
 */
export const USER_COMMAND_WINDOW_MS = 30_000;

/**
 * Writes state changes heard in readings, and the command-log rows of the changes the devices'
 * automation made, in one statement:
 *
 * - A change is compared with the state before it: the previous change of the same MCU and
 *   controller in this batch, else the last one stored. One that changes nothing is dropped, so a
 *   restart (whose first reading of each controller counts as a change in memory) or two nodes
 *   hearing the same MCU do not fill the timeline with repeats.
 * - A stored change with Automation on, whose status differs from a known previous status, and
 *   that no user command asked for (this node's flag, or a user command for that status in the
 *   command log within USER_COMMAND_WINDOW_MS before it, sent from any node), is logged as the
 *   automation's: source 'automation', outcome 'reported', no actor, with the change's reason
 *   (`reason`: the device's or the inferred rule and the batch's phase; see switch-reasons.ts).
 * - command_log is partitioned by month and holds every automation switch (two years by
 *   default): the look-up of a user command is also bounded by the batch's own span ($9, $10:
 *   constants when the statement is planned), so it reads the partitions of those days only, one
 *   index probe per change.
 */
const INSERT_CHANGES = `with v as (
    select u.mcu_id, m.client_id, u.at, u.target, u.status, u.auto, u.session, u.user_caused, u.why::jsonb as why,
      row_number() over w as k,
      lag(u.status) over w as b_status, lag(u.auto) over w as b_auto, lag(u.session) over w as b_session
    from unnest($1::int[], $2::timestamptz[], $3::text[], $4::bool[], $5::bool[], $6::bool[], $7::bool[], $11::text[])
      as u(mcu_id, at, target, status, auto, session, user_caused, why)
    join mcus m on m.mcu_id = u.mcu_id
    window w as (partition by u.mcu_id, u.target order by u.at)
  ),
  p as (
    select v.*,
      case when v.k = 1 then d.status else v.b_status end as p_status,
      case when v.k = 1 then d.auto else v.b_auto end as p_auto,
      case when v.k = 1 then d.session else v.b_session end as p_session
    from v left join lateral (
      select e.status, e.auto, e.session from device_state_events e
      where v.k = 1 and e.mcu_id = v.mcu_id and e.target = v.target and e.at <= v.at
      order by e.at desc limit 1
    ) d on true
  ),
  changed as (
    select * from p
    where p_status is null or p_status <> status or p_auto <> auto or p_session is distinct from session
  ),
  events as (
    insert into device_state_events (mcu_id, at, target, status, auto, session)
    select mcu_id, at, target, status, auto, session from changed
    returning 1
  ),
  automation as (
    insert into command_log (command_id, mcu_id, client_id, source, actor, target, type, on_off, at, outcome, reason, answered_at, why)
    select gen_random_uuid()::text, c.mcu_id, c.client_id, 'automation', null, c.target, 'status', c.status, c.at, 'reported', null, c.at, c.why
    from changed c
    where c.auto and c.p_status is not null and c.p_status <> c.status and not c.user_caused
      and not exists (
        select 1 from command_log u
        where u.mcu_id = c.mcu_id and u.target = c.target and u.source = 'user' and u.type = 'status' and u.on_off = c.status
          and u.outcome in ('pending', 'acknowledged') and u.at <= c.at and u.at > c.at - $8::int * interval '1 millisecond'
          and u.at > $9::timestamptz and u.at <= $10::timestamptz
      )
    returning 1
  )
  select (select count(*) from events)::int as events, (select count(*) from automation)::int as automation`;

/**
 * Writes changes (any order; of MCUs that may have been deleted meanwhile); answers how many
 * events and automation rows were stored. The statement writes device_state_events and
 * command_log: a caller that may meet a missing partition ensures both (writeWithPartitions).
 */
export async function insertStateChanges(sql: Sql, changes: StateChange[]): Promise<{ events: number; automation: number }> {
  if (changes.length === 0) return { events: 0, automation: 0 };
  let first = Infinity;
  let last = -Infinity;
  for (const c of changes) {
    first = Math.min(first, c.at);
    last = Math.max(last, c.at);
  }
  const [row] = await sql.query<{ events: number; automation: number }>(INSERT_CHANGES, [
    changes.map((c) => c.mcuId),
    changes.map((c) => new Date(c.at).toISOString()),
    changes.map((c) => c.target),
    changes.map((c) => c.status),
    changes.map((c) => c.auto),
    changes.map((c) => c.session),
    changes.map((c) => c.userCaused),
    USER_COMMAND_WINDOW_MS,
    new Date(first - USER_COMMAND_WINDOW_MS).toISOString(),
    new Date(last).toISOString(),
    changes.map((c) => (c.reason ? JSON.stringify(c.reason) : null)),
  ]);
  return row ?? { events: 0, automation: 0 };
}
