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
 * On the first client set in this page's life: `refresh` the browser's push registration (an
 * error is only logged, SPEC §8) and show foreground messages as an info notice titled with the
 * message title.
 */
function startOnFirstClient(
  session: Pick<Session, "getClient" | "subscribe">,
  refresh: () => Promise<void>,
  onForegroundMessage: MessagingProvider["onForegroundMessage"],
  showInfo: (text: string) => void,
  failure: string,
): () => void {
  let started = false;
  let stopMessages = () => {};
  const begin = () => {
    if (started || !session.getClient()) return;
    started = true;
    refresh().catch((err: unknown) => console.error(failure, err));
    stopMessages = onForegroundMessage((m) => showInfo(m.title || "New Notification"));
  };
  const unsubscribe = session.subscribe(begin);
  begin();
  return () => {
    unsubscribe();
    stopMessages();
  };
}

/** SPEC's push by Firebase Cloud Messaging (the app built with Firebase's config): the token is refreshed as `refreshPushToken` says. */
export function startPush(deps: PushDeps & { showInfo(text: string): void }): () => void {
  return startOnFirstClient(deps.session, () => refreshPushToken(deps), deps.provider.onForegroundMessage, deps.showInfo, "Push token refresh failed");
}

/** What standard Web Push needs from the browser (src/ui/pwa/web-push.ts, or a fake in tests). */
export interface WebPushBrowser {
  /** Asks the user; answers the browser's decision. */
  requestPermission(): Promise<NotificationPermission>;
  /** This browser's subscription for the server's VAPID public key: its present one if made with that key, else a new one. */
  subscribe(vapidPublicKey: string): Promise<PushSubscriptionJSON>;
  /** Messages that arrive while the app is in the foreground. Answers the unsubscribe. */
  onForegroundMessage(handler: (message: PushMessage) => void): () => void;
}

/** What standard Web Push needs from the server (PUSH_PATHS). */
export interface WebPushServer {
  vapidPublicKey(): Promise<string>;
  /** Stores the subscription for the signed-in client; a failure raises the server's message. */
  saveSubscription(subscription: PushSubscriptionJSON): Promise<void>;
}

export interface WebPushDeps {
  browser: WebPushBrowser;
  server: WebPushServer;
  session: Pick<Session, "getClient" | "subscribe">;
}

/**
 * Push without Firebase: asks for permission (raising "Permission denied" when refused, as SPEC's
 * flow does), subscribes this browser with the server's own VAPID key and stores the subscription
 * for the signed-in client. Stored at every start, not only when new: the server may have
 * forgotten it (expired at the push service), or another account on this browser taken it over.
 */
export async function refreshWebPushSubscription({ browser, server, session }: WebPushDeps): Promise<void> {
  if (!session.getClient()) return;
  const permission = await browser.requestPermission();
  if (permission !== "granted") throw new Error("Permission denied");
  const subscription = await browser.subscribe(await server.vapidPublicKey());
  await server.saveSubscription(subscription);
}

/** Standard Web Push (the app built without Firebase): the subscription is stored on the first client set in this page's life. */
export function startWebPush(deps: WebPushDeps & { showInfo(text: string): void }): () => void {
  return startOnFirstClient(deps.session, () => refreshWebPushSubscription(deps), deps.browser.onForegroundMessage, deps.showInfo, "Push subscription refresh failed");
}

/**
 * Messages the service worker hands to a focused page instead of showing them (public/push-sw.js),
 * by either channel. Answers the unsubscribe.
 */
export function foregroundMessages(handler: (message: PushMessage) => void): () => void {
  const listener = (event: MessageEvent) => {
    const data = event.data as { type?: string; message?: PushMessage } | null;
    if (data?.type === "push-foreground" && data.message) handler(data.message);
  };
  navigator.serviceWorker.addEventListener("message", listener);
  return () => navigator.serviceWorker.removeEventListener("message", listener);
}
