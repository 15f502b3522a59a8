import type { AlarmWords, NotificationSubject } from "../../src/contract/alarms-values.ts";
import type { Notification } from "../../src/contract/entities.ts";
import type { Sql } from "./database.ts";
import { iso } from "./rows.ts";

interface NotificationRow {
  notification_id: number;
  type: string;
  title: string;
  body: string;
  words: AlarmWords | null;
  read_status: boolean;
  created_at: Date;
  alarm_id: number | null;
  mcu_id: number | null;
  mcu_name: string | null;
}

/** A notification as the bell shows it: SPEC §3's fields and what it is about (NotificationSubject). */
export type SubjectNotification = Notification & Required<NotificationSubject>;

/** The columns of `n`, a notifications row, joined with its MCU `m` (by `MCU_JOIN`) for the MCU's name now. */
const COLUMNS = "n.notification_id, n.type, n.title, n.body, n.words, n.read_status, n.created_at, n.alarm_id, n.mcu_id, m.name as mcu_name";
const MCU_JOIN = "left join mcus m on m.mcu_id = n.mcu_id";

function toNotification(row: NotificationRow): SubjectNotification {
  return {
    notification_id: row.notification_id,
    type: row.type,
    title: row.title,
    body: row.body,
    ...(row.words ? { words: row.words } : {}),
    read_status: row.read_status,
    createdAt: iso(row.created_at),
    alarm_id: row.alarm_id,
    mcu_id: row.mcu_id,
    mcu_name: row.mcu_name,
  };
}

/** The bell's notifications, newest first; the panel shows a bounded number. */
export function notificationsRepo(sql: Sql) {
  return {
    async list(clientId: number, limit = 200): Promise<SubjectNotification[]> {
      const rows = await sql.query<NotificationRow>(
        `select ${COLUMNS} from notifications n ${MCU_JOIN} where n.client_id = $1 order by n.created_at desc, n.notification_id desc limit $2`,
        [clientId, limit],
      );
      return rows.map(toNotification);
    },

    /**
     * Stores a notification, with the words its title and body were written from (absent: texts
     * written without words, which every reader then reads as they are); `about` names the MCU
     * (and the alarm) it is about, where the bell and a push lead.
     */
    async create(
      clientId: number,
      n: { type: string; title: string; body: string; words?: AlarmWords },
      now: Date,
      about: { mcuId?: number; alarmId?: number } = {},
    ): Promise<SubjectNotification> {
      const [row] = await sql.query<NotificationRow>(
        `with n as (
           insert into notifications (client_id, type, title, body, words, created_at, mcu_id, alarm_id) values ($1, $2, $3, $4, $5::jsonb, $6, $7, $8) returning *
         )
         select ${COLUMNS} from n ${MCU_JOIN}`,
        [clientId, n.type, n.title, n.body, n.words ? JSON.stringify(n.words) : null, now, about.mcuId ?? null, about.alarmId ?? null],
      );
      return toNotification(row!);
    },

    /** Marks the client's notifications among `ids` read; answers how many were unread. Ids of other clients match nothing. */
    async markRead(clientId: number, ids: readonly number[]): Promise<number> {
      if (ids.length === 0) return 0;
      const rows = await sql.query(
        "update notifications set read_status = true where client_id = $1 and notification_id = any($2::int[]) and not read_status returning notification_id",
        [clientId, ids],
      );
      return rows.length;
    },
  };
}
