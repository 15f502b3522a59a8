import type { Alarm, AlarmKind, AlarmMetric, AlarmStateFilter } from "../../src/contract/alarms-values.ts";
import type { AlertType, Notification } from "../../src/contract/entities.ts";
import { ENGLISH, writeBoth, type TitleAndBody } from "../texts.ts";
import type { Database, Sql } from "./database.ts";
import { notificationsRepo } from "./notifications-repo.ts";
import { iso, isoOrNull } from "./rows.ts";

/** What the alarm engine needs to know about one MCU's alarms of one kind (and sensor). */
export interface AlarmHistory {
  kind: AlarmKind;
  /** The sensor the alarms are about (migration 015); '' for a kind about the whole MCU or a profile limit. */
  sensor: string;
  /** An alarm of this kind is open or acknowledged: its condition does not open another. */
  unresolved: boolean;
  /** When an alarm of this kind was last announced within the window asked about, epoch ms. */
  lastAnnouncedAt: number | null;
}

export interface AlarmKey {
  clientId: number;
  mcuId: number;
  kind: AlarmKind;
  /** For a sensor's alarm, the sensor it is about (one unresolved alarm per sensor); absent otherwise. */
  sensor?: string;
}

/** The kinds whose unresolved alarm keeps the worst value reached. */
export type WorsenedKind = Exclude<AlarmKind, "mcu_offline" | "sensor_missing" | "sensor_stuck">;

/** The list's filters (all optional but the client). */
export interface AlarmFilters {
  state: AlarmStateFilter;
  farmId?: number;
  mcuId?: number;
  kind?: AlarmKind;
  /** Farms of other accounts listed too (the person's memberships). */
  memberFarms?: readonly number[];
}

/**
 * Where a page of the list ends: its last alarm's opening (in microseconds, the database's
 * precision, so alarms opened in the same millisecond are neither skipped nor repeated) and id.
 */
export interface AlarmCursor {
  openedMicros: string;
  alarmId: number;
}

/** An alarm as the database answers it: its times as Date, its words null when it was stored without them. */
type AlarmRow = Omit<Alarm, "opened_at" | "acknowledged_at" | "resolved_at" | "words"> & {
  opened_at: Date;
  acknowledged_at: Date | null;
  resolved_at: Date | null;
  words: TitleAndBody | null;
};

/**
 * The reading an alarm is about. Alarms stored without it (opened before alarms kept their
 * values, or seeded) are about the reading their kind names; a temperature by its words.
 */
const METRIC = `coalesce(a.metric, case a.type
    when 'co2_high' then 'co2' when 'humidity_low' then 'humidity' when 'soil_moisture_low' then 'soilMoisture' when 'battery_low' then 'batteryLevel'
    when 'temperature_off_target' then case when a.body like 'Soil%' then 'soilTemperature' else 'temperature' end
  end) as metric`;

/**
 * Whether `$4` is worse than the stored worst value, by kind: the farther past the limit, the
 * worse (`$5`: the target temperature, for a temperature off target).
 */
const WORSE: Record<WorsenedKind, string> = {
  co2_high: "$4 > old.worst_value",
  humidity_low: "$4 < old.worst_value",
  soil_moisture_low: "$4 < old.worst_value",
  battery_low: "$4 < old.worst_value",
  temperature_off_target: "abs($4 - $5::float8) > abs(old.worst_value - $5::float8)",
};

/** An alarm as the API shows it: the alerts row `a` joined with its MCU and farm (by `JOINS`). */
const ALARM_COLUMNS = `a.alert_id as alarm_id, a.type as kind, a.state, a.mcu_id, m.mac, m.name as mcu_name, m.farm_id, f.name as farm_name,
  a.title, a.body, a.words, ${METRIC}, a.opened_value, a.worst_value, a.raised_at as opened_at, a.acknowledged_at, a.acknowledged_by, a.ack_comment, a.resolved_at`;
const JOINS = "join mcus m on m.mcu_id = a.mcu_id left join farms f on f.farm_id = m.farm_id";

const alarmOf = ({ opened_at, acknowledged_at, resolved_at, words, ...rest }: AlarmRow): Alarm => ({
  ...rest,
  // An alarm stored without words has none to carry: its title and body are all there is.
  ...(words ? { words } : {}),
  opened_at: iso(opened_at),
  acknowledged_at: isoOrNull(acknowledged_at),
  resolved_at: isoOrNull(resolved_at),
});

/** What opening an alarm did: the alarm, and the bell's notification if one was stored. */
export interface Opened {
  alarm: Alarm;
  notification: Notification | null;
}

/** What resolving an alarm did: the alarm, whether its opening was announced, and the notification stored for it. */
export interface Resolved {
  alarm: Alarm;
  announced: boolean;
  notification: Notification | null;
}

/** What an alarm measured when it opened: the reading it is about and its value then. */
export interface Measure {
  metric: AlarmMetric;
  value: number;
}

/** The answer to an acknowledgement: the alarm and whether this call changed it. */
export type Acknowledged = { alarm: Alarm; changed: boolean } | { resolved: Alarm } | undefined;

/**
 * The alerts table (migrations 003, 008, 015) as alarms. Opening and resolving are each one
 * transaction that also writes the notification, and both are decided by the database (the
 * unique index on unresolved alerts), so two server nodes, or a restart, never open the same
 * condition twice nor announce it twice.
 */
export function alertsRepo(db: Database) {
  async function get(clientId: number, alarmId: number): Promise<Alarm | undefined> {
    const [row] = await db.query<AlarmRow>(`select ${ALARM_COLUMNS} from alerts a ${JOINS} where a.client_id = $1 and a.alert_id = $2`, [clientId, alarmId]);
    return row && alarmOf(row);
  }

  /** `historyOf` for several MCUs in one query: by MCU id (an MCU with no such alarms is absent). */
  async function historiesOf(mcus: { clientId: number; mcuId: number }[], announcedSince: Date): Promise<Map<number, AlarmHistory[]>> {
    const rows = await db.query<{ mcu_id: number; kind: AlarmKind; sensor: string; unresolved: boolean; last_announced_at: Date | null }>(
      `select a.mcu_id, a.type as kind, a.sensor, bool_or(a.state <> 'resolved') as unresolved, max(a.raised_at) filter (where a.announced and a.raised_at > $3) as last_announced_at
       from alerts a join (select unnest($1::int[]) as client_id, unnest($2::int[]) as mcu_id) k on k.client_id = a.client_id and k.mcu_id = a.mcu_id
       where a.state <> 'resolved' or a.raised_at > $3 group by a.mcu_id, a.type, a.sensor`,
      [mcus.map((m) => m.clientId), mcus.map((m) => m.mcuId), announcedSince],
    );
    const byMcu = new Map<number, AlarmHistory[]>();
    for (const r of rows) {
      const list = byMcu.get(r.mcu_id) ?? [];
      if (list.length === 0) byMcu.set(r.mcu_id, list);
      list.push({ kind: r.kind, sensor: r.sensor, unresolved: r.unresolved, lastAnnouncedAt: r.last_announced_at ? new Date(r.last_announced_at).getTime() : null });
    }
    return byMcu;
  }

  return {
    get,

    /**
     * The MCU's unresolved alarms and its announcements since `announcedSince`; rows resolved
     * before then do not matter, so the read stays small however long the MCU's record grows.
     */
    async historyOf(clientId: number, mcuId: number, announcedSince: Date): Promise<AlarmHistory[]> {
      return (await historiesOf([{ clientId, mcuId }], announcedSince)).get(mcuId) ?? [];
    },

    historiesOf,

    /**
     * Opens an alarm; with `notify`, also stores that notification for the bell. Answers null
     * when an alarm of this kind (and sensor) is already unresolved for the MCU (nothing is written then).
     * `announced` records whether this opening counts for the repeat window. The alarm's title and
     * body are the server's English words; the notification's (`note`) are in the account's
     * language (the same when absent); `words` are kept for the people a call-out reaches, each of
     * whom reads them in their own, and with the notification, which its reader's app says in theirs.
     */
    async open(
      key: AlarmKey,
      text: { title: string; body: string; words?: TitleAndBody; note?: { title: string; body: string } },
      now: Date,
      o: { announced: boolean; notify: boolean; measure?: Measure },
    ): Promise<Opened | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx.query<AlarmRow>(
          `with a as (
             insert into alerts (client_id, mcu_id, type, sensor, raised_at, title, body, announced, metric, opened_value, worst_value, words) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11)
             on conflict (client_id, mcu_id, type, sensor) where state <> 'resolved' do nothing returning *
           )
           select ${ALARM_COLUMNS} from a ${JOINS}`,
          [key.clientId, key.mcuId, key.kind, key.sensor ?? "", now, text.title, text.body, o.announced, o.measure?.metric ?? null, o.measure?.value ?? null, text.words ? JSON.stringify(text.words) : null],
        );
        if (!row) return null;
        if (!o.notify) return { alarm: alarmOf(row), notification: null };
        const note = text.note ?? text;
        const notification = await notificationsRepo(tx).create(key.clientId, { type: key.kind, title: note.title, body: note.body, words: text.words }, now, { mcuId: key.mcuId, alarmId: row.alarm_id });
        await tx.query("update alerts set notification_id = $2 where alert_id = $1", [row.alarm_id, notification.notification_id]);
        return { alarm: alarmOf(row), notification };
      });
    },

    /**
     * Resolves the unresolved alarm of this kind (and sensor), if there is one (null otherwise). With
     * `announce`, also stores that notification (an MCU back online), only when this call resolved
     * an alarm whose opening was announced.
     */
    async resolve(key: AlarmKey, now: Date, announce?: { type: AlertType; title: string; body: string; words?: TitleAndBody }): Promise<Resolved | null> {
      const run = async (tx: Sql): Promise<Resolved | null> => {
        const [row] = await tx.query<AlarmRow & { announced: boolean }>(
          `with a as (
             update alerts set state = 'resolved', resolved_at = $4
             where client_id = $1 and mcu_id = $2 and type = $3 and sensor = $5 and state <> 'resolved' returning *
           )
           select ${ALARM_COLUMNS}, a.announced from a ${JOINS}`,
          [key.clientId, key.mcuId, key.kind, now, key.sensor ?? ""],
        );
        if (!row) return null;
        const { announced, ...alarm } = row;
        const notification = announce && announced ? await notificationsRepo(tx).create(key.clientId, announce, now, { mcuId: key.mcuId }) : null;
        return { alarm: alarmOf(alarm), announced, notification };
      };
      return announce ? db.transaction(run) : run(db);
    },

    /**
     * Acknowledges the client's alarm: who (`by`'s username now: the account, or a member of its
     * farm), when, and the comment.
     * An alarm acknowledged already is answered as it is; a resolved one as such; another
     * client's, or none, is undefined.
     */
    async acknowledge(clientId: number, alarmId: number, comment: string | null, now: Date, by: number = clientId): Promise<Acknowledged> {
      const [changed] = await db.query<AlarmRow>(
        `with a as (
           update alerts set state = 'acknowledged', acknowledged_at = $3, ack_comment = $4,
             acknowledged_by = (select username from clients where client_id = $5)
           where client_id = $1 and alert_id = $2 and state = 'open' returning *
         )
         select ${ALARM_COLUMNS} from a ${JOINS}`,
        [clientId, alarmId, now, comment, by],
      );
      if (changed) return { alarm: alarmOf(changed), changed: true };
      const alarm = await get(clientId, alarmId);
      if (!alarm) return undefined;
      return alarm.state === "resolved" ? { resolved: alarm } : { alarm, changed: false };
    },

    /**
     * Keeps `value` as the unresolved alarm's worst value if it is worse than the one kept (see
     * WORSE; `target`: the target temperature). Answers the alarm when it changed, else the worst
     * value kept (another node, or this one before a restart, kept a worse one); null when no such
     * alarm is unresolved.
     */
    async worsen(key: AlarmKey & { kind: WorsenedKind }, value: number, target: number | null): Promise<{ alarm: Alarm } | { worst: number | null } | null> {
      const where = "client_id = $1 and mcu_id = $2 and type = $3 and state <> 'resolved'";
      const [row] = await db.query<AlarmRow>(
        `with old as (select alert_id, worst_value from alerts where ${where} for update),
         a as (
           update alerts set worst_value = $4 from old
           where alerts.alert_id = old.alert_id and (old.worst_value is null or ${WORSE[key.kind]}) returning alerts.*
         )
         select ${ALARM_COLUMNS} from a ${JOINS}`,
        // $5 only where the comparison reads it: a parameter a statement never names has no type.
        key.kind === "temperature_off_target" ? [key.clientId, key.mcuId, key.kind, value, target] : [key.clientId, key.mcuId, key.kind, value],
      );
      if (row) return { alarm: alarmOf(row) };
      const [kept] = await db.query<{ worst_value: number | null }>(`select worst_value from alerts where ${where}`, [key.clientId, key.mcuId, key.kind]);
      return kept ? { worst: kept.worst_value } : null;
    },

    /**
     * Acknowledges every open alarm of the client's farm at once (who, when, the comment, as one
     * alarm's acknowledgement); answers those this call acknowledged, newest first.
     */
    async acknowledgeFarm(clientId: number, farmId: number, comment: string | null, now: Date, by: number = clientId): Promise<Alarm[]> {
      const rows = await db.query<AlarmRow>(
        `with a as (
           update alerts set state = 'acknowledged', acknowledged_at = $3, ack_comment = $4,
             acknowledged_by = (select username from clients where client_id = $5)
           where client_id = $1 and state = 'open' and mcu_id in (select mcu_id from mcus where client_id = $1 and farm_id = $2) returning *
         )
         select ${ALARM_COLUMNS} from a ${JOINS} order by a.raised_at desc, a.alert_id desc`,
        [clientId, farmId, now, comment, by],
      );
      return rows.map(alarmOf);
    },

    /** A page of the client's alarms, newest opened first, after the cursor; each with its own cursor. */
    async list(clientId: number, f: AlarmFilters, limit: number, after?: AlarmCursor): Promise<{ alarm: Alarm; cursor: AlarmCursor }[]> {
      const values: unknown[] = [clientId];
      const p = (v: unknown) => `$${values.push(v)}`;
      const where = [f.memberFarms?.length ? `(a.client_id = $1 or m.farm_id = any(${p(f.memberFarms)}::int[]))` : "a.client_id = $1"];
      if (f.state === "active") where.push("a.state <> 'resolved'");
      else if (f.state === "resolved") where.push("a.state = 'resolved'");
      if (f.farmId !== undefined) where.push(`m.farm_id = ${p(f.farmId)}`);
      if (f.mcuId !== undefined) where.push(`a.mcu_id = ${p(f.mcuId)}`);
      if (f.kind !== undefined) where.push(`a.type = ${p(f.kind)}`);
      if (after) {
        where.push(
          `(a.raised_at, a.alert_id) < (timestamptz '1970-01-01 00:00:00+00' + ${p(after.openedMicros)}::bigint * interval '1 microsecond', ${p(after.alarmId)})`,
        );
      }
      const rows = await db.query<AlarmRow & { opened_micros: string }>(
        `select ${ALARM_COLUMNS}, (extract(epoch from a.raised_at) * 1000000)::bigint::text as opened_micros
         from alerts a ${JOINS} where ${where.join(" and ")}
         order by a.raised_at desc, a.alert_id desc limit ${p(limit)}`,
        values,
      );
      return rows.map(({ opened_micros, ...r }) => ({ alarm: alarmOf(r), cursor: { openedMicros: opened_micros, alarmId: r.alarm_id } }));
    },
  };
}

/**
 * Records an alarm that a notification already announced (the demo's seed), inside the caller's
 * transaction. With `words`, its own title and body are theirs in the server's English (as the
 * engine keeps an alarm's), whatever language the notification was written in; without them,
 * the notification's texts, which every reader then reads.
 */
export async function recordOpenAlert(
  sql: Sql,
  key: { clientId: number; mcuId: number; type: AlarmKind },
  notificationId: number,
  raisedAt: Date,
  words?: TitleAndBody,
): Promise<void> {
  const english = words && writeBoth(words, ENGLISH);
  // The notification leads to the alarm, as one the engine stores does.
  await sql.query(
    `with a as (
       insert into alerts (client_id, mcu_id, type, raised_at, notification_id, title, body, announced, words)
       select $1, $2, $3, $4, notification_id, coalesce($7, title), coalesce($8, body), true, $6::jsonb from notifications where notification_id = $5
       returning alert_id, mcu_id, notification_id
     )
     update notifications n set alarm_id = a.alert_id, mcu_id = a.mcu_id from a where n.notification_id = a.notification_id`,
    [key.clientId, key.mcuId, key.type, raisedAt, notificationId, words ? JSON.stringify(words) : null, english?.title ?? null, english?.body ?? null],
  );
}
