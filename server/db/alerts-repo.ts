import type { AlertType, Notification } from "../../src/contract/entities.ts";
import type { Database, Sql } from "./database.ts";
import { notificationsRepo } from "./notifications-repo.ts";

/** What the alert engine needs to know about one MCU's alerts of one type. */
export interface AlertHistory {
  type: AlertType;
  /** An alert of this type is open (or acknowledged): its condition is not raised again. */
  unresolved: boolean;
  /** When an alert of this type was last raised, epoch ms. */
  lastRaisedAt: number;
}

interface AlertKey {
  clientId: number;
  mcuId: number;
  type: AlertType;
}

/**
 * The alerts table (migration 003). Raising and resolving are each one transaction that also
 * writes the notification, and both are decided by the database (the unique index on unresolved
 * alerts), so two server nodes, or a restart, never announce the same condition twice.
 */
export function alertsRepo(db: Database) {
  return {
    async historyOf(clientId: number, mcuId: number): Promise<AlertHistory[]> {
      const rows = await db.query<{ type: AlertType; unresolved: boolean; last_raised_at: Date }>(
        `select type, bool_or(state <> 'resolved') as unresolved, max(raised_at) as last_raised_at
         from alerts where client_id = $1 and mcu_id = $2 group by type`,
        [clientId, mcuId],
      );
      return rows.map((r) => ({ type: r.type, unresolved: r.unresolved, lastRaisedAt: new Date(r.last_raised_at).getTime() }));
    },

    /**
     * Opens an alert and stores its notification. Answers the notification, or null when an
     * alert of this type is already unresolved for the MCU (nothing is written then).
     */
    async raise(key: AlertKey, n: { title: string; body: string }, now: Date): Promise<Notification | null> {
      return db.transaction(async (tx) => {
        const [alert] = await tx.query<{ alert_id: number }>(
          `insert into alerts (client_id, mcu_id, type, raised_at) values ($1, $2, $3, $4)
           on conflict (client_id, mcu_id, type) where state <> 'resolved' do nothing returning alert_id`,
          [key.clientId, key.mcuId, key.type, now],
        );
        if (!alert) return null;
        const notification = await notificationsRepo(tx).create(key.clientId, { type: key.type, ...n }, now);
        await tx.query("update alerts set notification_id = $2 where alert_id = $1", [alert.alert_id, notification.notification_id]);
        return notification;
      });
    },

    /**
     * Resolves the unresolved alert of this type, if there is one. With `announce`, also stores
     * that notification (an MCU back online), only when this call did resolve it.
     */
    async resolve(key: AlertKey, now: Date, announce?: { type: AlertType; title: string; body: string }): Promise<Notification | null> {
      const run = async (tx: Sql) => {
        const resolved = await tx.query(
          `update alerts set state = 'resolved', resolved_at = $4
           where client_id = $1 and mcu_id = $2 and type = $3 and state <> 'resolved' returning alert_id`,
          [key.clientId, key.mcuId, key.type, now],
        );
        return resolved.length > 0 && announce ? notificationsRepo(tx).create(key.clientId, announce, now) : null;
      };
      return announce ? db.transaction(run) : run(db);
    },
  };
}

/** Records an alert that a notification already announced (the demo's seed), inside the caller's transaction. */
export async function recordOpenAlert(sql: Sql, key: AlertKey, notificationId: number, raisedAt: Date): Promise<void> {
  await sql.query("insert into alerts (client_id, mcu_id, type, raised_at, notification_id) values ($1, $2, $3, $4, $5)", [
    key.clientId,
    key.mcuId,
    key.type,
    raisedAt,
    notificationId,
  ]);
}
