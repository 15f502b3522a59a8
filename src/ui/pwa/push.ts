import type { Client } from "../../contract/entities.ts";
import { CONSTANTS } from "../../contract/limits.ts";
import type { CoreHandle } from "../data/core-client.ts";
import type { Session } from "../data/session.ts";

/** A push message as the page sees it. */
export interface PushMessage {
  title?: string;
  body?: string;
}

/** What push needs from a messaging service (Firebase Cloud Messaging, or a fake in tests). */
export interface MessagingProvider {
  /** Asks the user; answers the browser's decision. */
  requestPermission(): Promise<NotificationPermission>;
  /** The push token of this browser, from the messaging service (with the public VAPID key). */
  getToken(): Promise<string>;
  /** Messages that arrive while the app is in the foreground. Answers the unsubscribe. */
  onForegroundMessage(handler: (message: PushMessage) => void): () => void;
}

/** When this browser last stored its token on the client record (SPEC §9: refresh after 7 days). */
export const TOKEN_SAVED_AT_KEY = "fcm_token_saved_at";

export interface PushDeps {
  provider: MessagingProvider;
  core: Pick<CoreHandle, "updateClient">;
  session: Pick<Session, "getClient" | "setClient" | "subscribe">;
  storage?: Storage;
  now?: () => number;
}

/**
 * SPEC §4/§7: asks for permission (raising "Permission denied" when refused), gets the token and
 * stores it as fcm_token with the whole client record, unless this token was stored less than
 * 7 days ago.
 */
export async function refreshPushToken({ provider, core, session, storage = localStorage, now = Date.now }: PushDeps): Promise<void> {
  const client = session.getClient();
  if (!client) return;
  const permission = await provider.requestPermission();
  if (permission !== "granted") throw new Error("Permission denied");
  const token = await provider.getToken();
  const savedAt = Number(storage.getItem(TOKEN_SAVED_AT_KEY) ?? 0);
  if (token === client.fcm_token && now() - savedAt < CONSTANTS.pushTokenRefreshMs) return;
  const record: Client = { ...client, fcm_token: token };
  const updated = await core.updateClient(client.client_id, record);
  session.setClient(updated);
  storage.setItem(TOKEN_SAVED_AT_KEY, String(now()));
}

/**
 * On the first client set in this page's life: refresh the token (an error is only logged, SPEC
 * §8) and show foreground messages as an info notice titled with the message title.
 */
export function startPush(deps: PushDeps & { showInfo(text: string): void }): () => void {
  let started = false;
  let stopMessages = () => {};
  const begin = () => {
    if (started || !deps.session.getClient()) return;
    started = true;
    refreshPushToken(deps).catch((err: unknown) => console.error("Push token refresh failed", err));
    stopMessages = deps.provider.onForegroundMessage((m) => deps.showInfo(m.title || "New Notification"));
  };
  const unsubscribe = deps.session.subscribe(begin);
  begin();
  return () => {
    unsubscribe();
    stopMessages();
  };
}
