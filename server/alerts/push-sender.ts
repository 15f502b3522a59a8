import { readFile } from "node:fs/promises";
import type { Notification } from "../../src/contract/entities.ts";
import type { Sql } from "../db/database.ts";

/** Sends one push message to one browser token (Firebase Cloud Messaging, or a fake in tests). */
export interface PushSender {
  send(token: string, message: { title: string; body: string }): Promise<void>;
}

/** The error a sender throws for a token the messaging service no longer knows. */
export class StaleTokenError extends Error {}

/**
 * Firebase Admin as the sender, loaded only when credentials are configured
 * (FIREBASE_SERVICE_ACCOUNT: the service account JSON, or a path to it).
 */
export async function firebasePushSender(serviceAccount: string): Promise<PushSender> {
  const json = serviceAccount.trim().startsWith("{") ? serviceAccount : await readFile(serviceAccount, "utf8");
  const [{ initializeApp, cert }, { getMessaging }] = await Promise.all([import("firebase-admin/app"), import("firebase-admin/messaging")]);
  const messaging = getMessaging(initializeApp({ credential: cert(JSON.parse(json) as object) }, "mushroom-farm"));
  return {
    async send(token, message) {
      try {
        await messaging.send({ token, notification: message, webpush: { fcmOptions: { link: "/dashboard" } } });
      } catch (err) {
        const code = (err as { code?: string }).code ?? "";
        if (code === "messaging/registration-token-not-registered" || code === "messaging/invalid-registration-token") throw new StaleTokenError(code);
        throw err;
      }
    },
  };
}

/**
 * Pushes a stored notification to its client's browser, when the client has a push token. A token
 * the service no longer knows is removed from the client; other failures are logged only (the bell
 * still has the notification over the socket).
 */
export function createPushNotifier(db: Sql, sender: PushSender, log: (msg: string) => void = () => {}) {
  return async (clientId: number, n: Notification): Promise<void> => {
    const [row] = await db.query<{ fcm_token: string | null }>("select fcm_token from clients where client_id = $1", [clientId]);
    const token = row?.fcm_token;
    if (!token) return;
    try {
      await sender.send(token, { title: n.title, body: n.body });
    } catch (err) {
      if (err instanceof StaleTokenError) {
        await db.query("update clients set fcm_token = null where client_id = $1 and fcm_token = $2", [clientId, token]);
      } else {
        log(`push to client ${clientId} failed: ${(err as Error).message}`);
      }
    }
  };
}
