import type { Sql } from "./database.ts";

/** Each client's browser push token (Firebase Cloud Messaging), as the push notifier uses it. */
export function pushTokensRepo(sql: Sql) {
  return {
    /** The client's push token, or null when it has none. */
    async tokenOf(clientId: number): Promise<string | null> {
      const [row] = await sql.query<{ fcm_token: string | null }>("select fcm_token from clients where client_id = $1", [clientId]);
      return row?.fcm_token ?? null;
    },

    /** Forgets a token the messaging service no longer knows, unless the client has a new one meanwhile. */
    async forgetStale(clientId: number, token: string): Promise<void> {
      await sql.query("update clients set fcm_token = null where client_id = $1 and fcm_token = $2", [clientId, token]);
    },
  };
}
