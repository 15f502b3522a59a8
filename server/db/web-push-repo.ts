import webpush from "web-push";
import type { Sql } from "./database.ts";

/** The server's VAPID key pair (RFC 8292), base64url: the public half is what browsers subscribe with. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** A browser's push subscription as stored: where its push service takes pushes, and the keys its pushes are encrypted for. */
export interface StoredSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Subscriptions kept per client: the newest ones. Each is a browser that gets every alarm, so a
 * client that stored thousands would make every alarm thousands of requests from this server.
 */
export const SUBSCRIPTIONS_PER_CLIENT = 10;

/** Standard Web Push: the server's VAPID key pair and each browser's subscription. */
export function webPushRepo(sql: Sql) {
  const readKeys = async (): Promise<VapidKeys | null> => {
    const [row] = await sql.query<{ public_key: string; private_key: string }>("select public_key, private_key from push_vapid_keys");
    return row ? { publicKey: row.public_key, privateKey: row.private_key } : null;
  };

  return {
    /**
     * The server's VAPID key pair, made at the first call and the same ever after. Two nodes that
     * make one at once keep the first stored: every node signs with the key browsers subscribed with.
     */
    async vapidKeys(now: Date): Promise<VapidKeys> {
      const kept = await readKeys();
      if (kept) return kept;
      const made = webpush.generateVAPIDKeys();
      await sql.query("insert into push_vapid_keys (public_key, private_key, created_at) values ($1, $2, $3) on conflict do nothing", [made.publicKey, made.privateKey, now]);
      return (await readKeys())!;
    },

    /**
     * Stores a browser's subscription for the client, in the session it came from (`sessionHash`:
     * signing out there forgets it). An endpoint already stored (for them or for whoever signed in
     * on that browser before) becomes theirs with its new keys; beyond SUBSCRIPTIONS_PER_CLIENT,
     * their oldest go.
     */
    async save(clientId: number, s: StoredSubscription, now: Date, sessionHash: string | null = null): Promise<void> {
      await sql.query(
        `insert into push_subscriptions (client_id, endpoint, p256dh, auth, created_at, session_hash) values ($1, $2, $3, $4, $5, $6)
         on conflict (endpoint) do update set client_id = excluded.client_id, p256dh = excluded.p256dh, auth = excluded.auth, created_at = excluded.created_at, session_hash = excluded.session_hash`,
        [clientId, s.endpoint, s.p256dh, s.auth, now, sessionHash],
      );
      await sql.query(
        `delete from push_subscriptions where client_id = $1 and subscription_id not in (
           select subscription_id from push_subscriptions where client_id = $1 order by created_at desc, subscription_id desc limit $2
         )`,
        [clientId, SUBSCRIPTIONS_PER_CLIENT],
      );
    },

    /** Forgets the client's subscription of this endpoint; answers whether they had it (another client's is left alone). */
    async remove(clientId: number, endpoint: string): Promise<boolean> {
      const rows = await sql.query("delete from push_subscriptions where client_id = $1 and endpoint = $2 returning 1", [clientId, endpoint]);
      return rows.length > 0;
    },

    /** Forgets the subscriptions last stored in a session that was signed out; answers how many. */
    async forgetSession(sessionHash: string): Promise<number> {
      return (await sql.query("delete from push_subscriptions where session_hash = $1 returning 1", [sessionHash])).length;
    },

    /** The client's subscriptions, newest first. */
    async subscriptionsOf(clientId: number): Promise<StoredSubscription[]> {
      return sql.query<StoredSubscription>("select endpoint, p256dh, auth from push_subscriptions where client_id = $1 order by created_at desc, subscription_id desc", [clientId]);
    },

    /** Forgets a subscription its push service no longer knows (404 or 410), unless it was stored again with new keys meanwhile. */
    async forgetStale(s: StoredSubscription): Promise<void> {
      await sql.query("delete from push_subscriptions where endpoint = $1 and p256dh = $2 and auth = $3", [s.endpoint, s.p256dh, s.auth]);
    },
  };
}

export type WebPushRepo = ReturnType<typeof webPushRepo>;
