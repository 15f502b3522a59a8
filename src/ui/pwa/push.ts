import type { Client } from "../../contract/entities.ts";
import { CONSTANTS } from "../../contract/limits.ts";
import type { WebPushSubscription } from "../../contract/push-values.ts";
import type { CoreHandle } from "../data/core-client.ts";
import type { Session } from "../data/session.ts";
import { i18n } from "../i18n/i18n.ts";

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
  /** Deletes this browser's token at the messaging service (sign-out): what was sent to it no longer arrives. */
  deleteToken?(): Promise<void>;
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
 * Whether this browser gets alarm pushes, as the screens say it: on (notifications allowed: the
 * subscription is stored at each start), off (not asked yet: turned on by a click), blocked (the
 * person refused notifications to the site), install (an iPhone's or iPad's browser outside the
 * app added to the Home Screen, where there is no Push API), unsupported (no Push API at all), or
 * pending (the push code is still loading).
 */
export type PushStatus = "on" | "off" | "blocked" | "install" | "unsupported" | "pending";

/** The page's push, for the screens and for sign-out. */
export interface PushControl {
  status(): PushStatus;
  subscribe(fn: () => void): () => void;
  /**
   * Turns pushes on for the signed-in client from a click (Safari asks for permission from a user
   * gesture only). Raises "Permission denied" when refused, or the server's message.
   */
  turnOn(): Promise<void>;
  /**
   * Sign-out: removes this browser's push subscription, so a shared phone stops ringing with the
   * alarms of whoever signs out, and has the next client set on this page subscribe again. Answers
   * the endpoint the server must forget (null: none, or a channel the server keeps otherwise).
   */
  leave(): Promise<string | null>;
}

/** A started push: its control, and how to stop listening (tests). */
export type PushHandle = PushControl & { stop(): void };

/** What the start of push needs to know of the browser (tests say it). */
export interface PushEnvironment {
  /** The browser's decision so far (Notification.permission). */
  permission(): NotificationPermission;
  /**
   * Apple's browsers (Safari, and every browser of an iPhone or iPad) ask for notification
   * permission only from a user gesture: nothing asks on load there, the screens offer a button.
   */
  asksOnGestureOnly: boolean;
}

/** How long sign-out waits for the browser to unsubscribe (a push service that does not answer must not hold the person back). */
const LEAVE_MS = 3_000;

/** One way of pushing to this browser (Firebase's token, or a standard Web Push subscription). */
interface PushChannel {
  /** Asks for permission when needed and stores this browser's push address for the signed-in client. */
  refresh(): Promise<void>;
  /** Removes this browser's push address; answers the endpoint the server must forget (null: none). */
  unsubscribe(): Promise<string | null>;
  onForegroundMessage: MessagingProvider["onForegroundMessage"];
}

/**
 * On the first client set in this page's life (and again after a sign-out through `leave`):
 * `refresh` the browser's push registration (an error is only logged, SPEC §8), unless the browser
 * asks only from a gesture and has not been asked yet; and show foreground messages as an info
 * notice titled with the message title.
 */
function startChannel(
  session: Pick<Session, "getClient" | "subscribe">,
  channel: PushChannel,
  environment: PushEnvironment,
  showInfo: (text: string) => void,
  failure: string,
): PushHandle {
  let started = false;
  let stopMessages: (() => void) | null = null;
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((fn) => fn());
  const statuses: Record<NotificationPermission, PushStatus> = { granted: "on", denied: "blocked", default: "off" };
  const begin = () => {
    if (started || !session.getClient()) return;
    started = true;
    if (!(environment.asksOnGestureOnly && environment.permission() === "default")) {
      channel
        .refresh()
        .catch((err: unknown) => console.error(failure, err))
        .finally(changed);
    }
    // Said when the message comes, in the language the person reads then.
    stopMessages ??= channel.onForegroundMessage((m) => showInfo(m.title || i18n.t("pwa:newNotification")));
  };
  const unsubscribe = session.subscribe(begin);
  begin();
  return {
    status: () => statuses[environment.permission()],
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    async turnOn() {
      started = true;
      try {
        await channel.refresh();
      } finally {
        changed();
      }
    },
    async leave() {
      started = false;
      const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), LEAVE_MS));
      const left = channel.unsubscribe().catch((err: unknown) => {
        console.error("Push unsubscribe failed", err);
        return null;
      });
      return Promise.race([left, timeout]);
    },
    stop() {
      unsubscribe();
      stopMessages?.();
    },
  };
}

/** Push as it cannot be here (`install`, `unsupported`), or not yet (`pending`): the screens say so. */
export function pushUnavailable(status: "install" | "unsupported" | "pending"): PushHandle {
  return {
    status: () => status,
    subscribe: () => () => {},
    turnOn: () => Promise.reject(new Error(status === "install" ? i18n.t("pwa:unavailable.install") : i18n.t("pwa:unavailable.unsupported"))),
    leave: async () => null,
    stop() {},
  };
}

/** The browser's own answers (Notification.permission; Apple's browsers: by their vendor, which every browser of an iPhone reports). */
export function browserPushEnvironment(): PushEnvironment {
  return {
    permission: () => ("Notification" in window ? Notification.permission : "denied"),
    asksOnGestureOnly: /Apple/.test(navigator.vendor),
  };
}

/**
 * SPEC's push by Firebase Cloud Messaging (the app built with Firebase's config): the token is
 * refreshed as `refreshPushToken` says. Leaving deletes the token at Firebase, so the one on the
 * client record no longer reaches this browser.
 */
export function startPush(deps: PushDeps & { showInfo(text: string): void; environment?: PushEnvironment }): PushHandle {
  const storage = deps.storage ?? localStorage;
  const channel: PushChannel = {
    refresh: () => refreshPushToken(deps),
    async unsubscribe() {
      await deps.provider.deleteToken?.();
      storage.removeItem(TOKEN_SAVED_AT_KEY);
      return null;
    },
    onForegroundMessage: deps.provider.onForegroundMessage,
  };
  return startChannel(deps.session, channel, deps.environment ?? browserPushEnvironment(), deps.showInfo, "Push token refresh failed");
}

/** What standard Web Push needs from the browser (src/ui/pwa/web-push.ts, or a fake in tests). */
export interface WebPushBrowser {
  /** Asks the user; answers the browser's decision. */
  requestPermission(): Promise<NotificationPermission>;
  /** This browser's subscription for the server's VAPID public key: its present one if made with that key, else a new one. */
  subscribe(vapidPublicKey: string): Promise<WebPushSubscription>;
  /** Unsubscribes this browser; answers the endpoint it had (null: it had none). */
  unsubscribe(): Promise<string | null>;
  /** Messages that arrive while the app is in the foreground. Answers the unsubscribe. */
  onForegroundMessage(handler: (message: PushMessage) => void): () => void;
}

export interface WebPushDeps {
  browser: WebPushBrowser;
  /** The server's push endpoints, called by the data core (which owns every call to the API). */
  core: Pick<CoreHandle, "pushVapidPublicKey" | "savePushSubscription">;
  session: Pick<Session, "getClient" | "subscribe">;
}

/**
 * Push without Firebase: asks for permission (raising "Permission denied" when refused, as SPEC's
 * flow does), subscribes this browser with the server's own VAPID key and stores the subscription
 * for the signed-in client. Stored at every start, not only when new: the server may have
 * forgotten it (expired at the push service), or another account on this browser taken it over.
 */
export async function refreshWebPushSubscription({ browser, core, session }: WebPushDeps): Promise<void> {
  if (!session.getClient()) return;
  const permission = await browser.requestPermission();
  if (permission !== "granted") throw new Error("Permission denied");
  const subscription = await browser.subscribe(await core.pushVapidPublicKey());
  await core.savePushSubscription(subscription);
}

/** Standard Web Push (the app built without Firebase): the subscription is stored on the first client set in this page's life. */
export function startWebPush(deps: WebPushDeps & { showInfo(text: string): void; environment?: PushEnvironment }): PushHandle {
  const channel: PushChannel = {
    refresh: () => refreshWebPushSubscription(deps),
    unsubscribe: () => deps.browser.unsubscribe(),
    onForegroundMessage: deps.browser.onForegroundMessage,
  };
  return startChannel(deps.session, channel, deps.environment ?? browserPushEnvironment(), deps.showInfo, "Push subscription refresh failed");
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
