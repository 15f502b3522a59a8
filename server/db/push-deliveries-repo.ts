import { randomUUID } from "node:crypto";
import type { PushDelivery, PushUrgency } from "../../src/contract/push.ts";
import type { Sql } from "./database.ts";
import { iso, isoOrNull } from "./rows.ts";

/** A push about to be handed to a push service for one browser. */
export interface OutgoingDelivery {
  clientId: number;
  /** The alarm it announces, if any. */
  alarmId?: number;
  channel: PushDelivery["channel"];
  /** The push service's host. */
  service: string;
  title: string;
  urgency: PushUrgency;
}

interface DeliveryRow {
  delivery_id: number;
  client_id: number;
  username: string;
  channel: PushDelivery["channel"];
  service: string;
  title: string;
  urgency: PushUrgency;
  sent_at: Date;
  failure: string | null;
  displayed_at: Date | null;
}

/** A failure as stored: the push service's words, cut short (an error page can be long). */
const FAILURE_MAX = 300;

/** Each push to each browser: who it was for, when it was sent, whether the push service took it and when it was displayed. */
export function pushDeliveriesRepo(sql: Sql) {
  return {
    /**
     * Records a push before it is sent (its displayed report may come back before the push service
     * has answered), with a new random message id for its payload.
     */
    async sending(d: OutgoingDelivery, at: Date): Promise<{ deliveryId: number; messageId: string }> {
      const messageId = randomUUID();
      const [row] = await sql.query<{ delivery_id: number }>(
        `insert into push_deliveries (message_id, client_id, alert_id, channel, service, title, urgency, sent_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning delivery_id`,
        [messageId, d.clientId, d.alarmId ?? null, d.channel, d.service, d.title, d.urgency, at],
      );
      return { deliveryId: row!.delivery_id, messageId };
    },

    /** The push service did not take the push. */
    async failed(deliveryId: number, failure: string): Promise<void> {
      await sql.query("update push_deliveries set failure = $2 where delivery_id = $1", [deliveryId, failure.slice(0, FAILURE_MAX)]);
    },

    /** A service worker displayed the push of this message id; the first report counts. Answers whether the id was known. */
    async displayed(messageId: string, at: Date): Promise<boolean> {
      const rows = await sql.query("update push_deliveries set displayed_at = coalesce(displayed_at, $2) where message_id = $1 returning 1", [messageId, at]);
      return rows.length > 0;
    },

    /**
     * The pushes of an alarm, in the order they were sent: to whom, when, whether the push service
     * took each and when each was displayed ("notified grower_1 at 08:01, displayed at 08:01").
     * `accountId` is the alarm's account (the acting tenant of the request): an alarm of another
     * account answers nothing. Message ids are not answered: they are the displayed report's proof.
     */
    async ofAlarm(accountId: number, alarmId: number): Promise<PushDelivery[]> {
      const rows = await sql.query<DeliveryRow>(
        `select d.delivery_id, d.client_id, c.username, d.channel, d.service, d.title, d.urgency, d.sent_at, d.failure, d.displayed_at
         from push_deliveries d
         join alerts a on a.alert_id = d.alert_id
         join clients c on c.client_id = d.client_id
         where d.alert_id = $2 and a.client_id = $1
         order by d.sent_at, d.delivery_id`,
        [accountId, alarmId],
      );
      return rows.map((r) => ({ ...r, sent_at: iso(r.sent_at), displayed_at: isoOrNull(r.displayed_at) }));
    },

    /** Forgets pushes sent before `cutoff` (kept as long as the command log). */
    async sweep(cutoff: Date): Promise<number> {
      return (await sql.query("delete from push_deliveries where sent_at < $1 returning 1", [cutoff])).length;
    },
  };
}

export type PushDeliveriesRepo = ReturnType<typeof pushDeliveriesRepo>;
