import type { Notification } from "../../src/contract/entities.ts";
import type { Sql } from "./database.ts";
import { iso } from "./rows.ts";

interface NotificationRow {
  notification_id: number;
  type: string;
  title: string;
  body: string;
  read_status: boolean;
  created_at: Date;
}

const COLUMNS = "notification_id, type, title, body, read_status, created_at";

function toNotification(row: NotificationRow): Notification {
  return {
    notification_id: row.notification_id,
    type: row.type,
    title: row.title,
    body: row.body,
    read_status: row.read_status,
    createdAt: iso(row.created_at),
  };
}

/** The bell's notifications, newest first; the panel shows a bounded number. */
export function notificationsRepo(sql: Sql) {
  return {
    async list(clientId: number, limit = 200): Promise<Notification[]> {
      const rows = await sql.query<NotificationRow>(
        `select ${COLUMNS} from notifications where client_id = $1 order by created_at desc, notification_id desc limit $2`,
        [clientId, limit],
      );
      return rows.map(toNotification);
    },

    async create(clientId: number, n: { type: string; title: string; body: string }, now: Date): Promise<Notification> {
      const [row] = await sql.query<NotificationRow>(
        `insert into notifications (client_id, type, title, body, created_at) values ($1, $2, $3, $4, $5) returning ${COLUMNS}`,
        [clientId, n.type, n.title, n.body, now],
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
