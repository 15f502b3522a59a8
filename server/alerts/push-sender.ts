import { readFile } from "node:fs/promises";
import type { NotificationPreferences } from "../../src/contract/alarms-values.ts";
import { PUSH_TTL_SECONDS, type PushPayload, type PushUrgency } from "../../src/contract/push.ts";
import type { Sql } from "../db/database.ts";
import { pushDeliveriesRepo, type OutgoingDelivery } from "../db/push-deliveries-repo.ts";
import { pushTokensRepo } from "../db/push-tokens-repo.ts";
import { webPushRepo, type StoredSubscription, type VapidKeys } from "../db/web-push-repo.ts";

/**
 * A push message: its words, and where it leads in the app (an app path such as an alarm's or an
 * MCU's history page; the dashboard when absent): the service worker opens it when the
 * notification is clicked.
 */
export interface PushMessage {
  title: string;
  body: string;
  link?: string;
  /** "high" for an alarm, which must wake a phone in Doze at once; "normal" (the default) for other notices. */
  urgency?: PushUrgency;
  /** How long a push service keeps it for a browser it cannot reach; PUSH_TTL_SECONDS of its urgency by default. */
  ttlSeconds?: number;
  /** The alarm it announces: its deliveries are listed with the alarm (pushDeliveriesRepo.ofAlarm). */
  alarmId?: number;
}

/** Where a push message without a link of its own leads. */
export const DEFAULT_PUSH_LINK = "/dashboard";

/** A push as it leaves for one browser: the message with its defaults settled, and the id its displayed report names. */
export interface OutgoingPush {
  id: string;
  title: string;
  body: string;
  link: string;
  urgency: PushUrgency;
  ttlSeconds: number;
}

/** What the service worker reads (public/push-sw.js), by either channel. */
export const payloadOf = (p: OutgoingPush): PushPayload => ({ notification: { title: p.title, body: p.body }, data: { link: p.link, id: p.id, urgency: p.urgency } });

/** Sends one push to one browser's Firebase token (or a fake in tests). */
export interface FcmSender {
  send(token: string, push: OutgoingPush): Promise<void>;
}

/** Sends one push to one browser's Web Push subscription, signed with the server's VAPID keys (web-push-sender.ts, or a fake in tests). */
export interface WebPushSender {
  send(subscription: StoredSubscription, push: OutgoingPush, vapid: VapidKeys): Promise<void>;
}

/**
 * The channels a push goes by: standard Web Push to every subscription the client's browsers
 * stored (the app uses it when it is built without Firebase), and Firebase Cloud Messaging to the
 * client's fcm_token when FIREBASE_SERVICE_ACCOUNT is set (SPEC's flow, for an app built with it).
 */
export interface PushSender {
  webPush?: WebPushSender;
  fcm?: FcmSender;
}

/** The error a sender throws for a token or subscription the push service no longer knows. */
export class StaleTokenError extends Error {}

/**
 * Firebase Admin as the sender, loaded only when credentials are configured
 * (FIREBASE_SERVICE_ACCOUNT: the service account JSON, or a path to it).
 */
export async function firebasePushSender(serviceAccount: string): Promise<FcmSender> {
  const json = serviceAccount.trim().startsWith("{") ? serviceAccount : await readFile(serviceAccount, "utf8");
  const [{ initializeApp, cert }, { getMessaging }] = await Promise.all([import("firebase-admin/app"), import("firebase-admin/messaging")]);
  const messaging = getMessaging(initializeApp({ credential: cert(JSON.parse(json) as object) }, "mushroom-farm"));
  return {
    async send(token, push) {
      const { notification, data } = payloadOf(push);
      try {
        // The link twice: fcmOptions for a browser that shows the notification itself, data for our service worker (public/push-sw.js).
        // Urgency and TTL are the Web Push headers FCM passes on to the browser's push service.
        await messaging.send({
          token,
          notification,
          data,
          webpush: { headers: { Urgency: push.urgency, TTL: String(push.ttlSeconds) }, fcmOptions: { link: push.link } },
        });
      } catch (err) {
        const code = (err as { code?: string }).code ?? "";
        if (code === "messaging/registration-token-not-registered" || code === "messaging/invalid-registration-token") throw new StaleTokenError(code);
        throw err;
      }
    },
  };
}

export type PushNotifier = (clientId: number, message: PushMessage) => Promise<void>;

/**
 * Pushes a message to each of its client's browsers: every Web Push subscription, and the
 * Firebase token when Firebase is configured. Each push is recorded before it is sent (who, what
 * alarm, when), with a message id in its payload that the service worker reports back once it
 * displayed it. A token or subscription the push service no longer knows is forgotten; other
 * failures are recorded and logged only (the app still gets the alarm, and the bell its
 * notification, over the socket). Whether a message is to be pushed at all is the caller's
 * decision (see `mayPush`).
 */
export function createPushNotifier(db: Sql, sender: PushSender, log: (msg: string) => void = () => {}, now: () => Date = () => new Date()): PushNotifier {
  const tokens = pushTokensRepo(db);
  const subscriptions = webPushRepo(db);
  const deliveries = pushDeliveriesRepo(db);
  // Read once per process: the key pair changes only by rotation, which is a restart (README).
  let vapid: Promise<VapidKeys> | null = null;
  const vapidKeys = () => {
    vapid ??= subscriptions.vapidKeys(now()).catch((err: unknown) => {
      vapid = null;
      throw err;
    });
    return vapid;
  };

  async function deliver(d: OutgoingDelivery, message: Omit<OutgoingPush, "id">, send: (push: OutgoingPush) => Promise<void>, forget: () => Promise<void>): Promise<void> {
    const { deliveryId, messageId } = await deliveries.sending(d, now());
    try {
      await send({ ...message, id: messageId });
    } catch (err) {
      const stale = err instanceof StaleTokenError;
      await deliveries.failed(deliveryId, stale ? `no longer subscribed (${(err as Error).message})` : (err as Error).message);
      if (stale) await forget();
      else log(`push to client ${d.clientId} (${d.service}) failed: ${(err as Error).message}`);
    }
  }

  return async (clientId, n) => {
    const urgency = n.urgency ?? "normal";
    const message = { title: n.title, body: n.body, link: n.link || DEFAULT_PUSH_LINK, urgency, ttlSeconds: n.ttlSeconds ?? PUSH_TTL_SECONDS[urgency] };
    const about = { clientId, title: n.title, urgency, ...(n.alarmId === undefined ? {} : { alarmId: n.alarmId }) };
    const sends: Promise<void>[] = [];
    const fcm = sender.fcm;
    const token = fcm ? await tokens.tokenOf(clientId) : null;
    if (fcm && token) {
      sends.push(deliver({ ...about, channel: "fcm", service: "fcm.googleapis.com" }, message, (push) => fcm.send(token, push), () => tokens.forgetStale(clientId, token)));
    }
    const webPush = sender.webPush;
    const subs = webPush ? await subscriptions.subscriptionsOf(clientId) : [];
    if (webPush && subs.length > 0) {
      const keys = await vapidKeys();
      for (const s of subs) {
        sends.push(deliver({ ...about, channel: "web_push", service: new URL(s.endpoint).host }, message, (push) => webPush.send(s, push, keys), () => subscriptions.forgetStale(s)));
      }
    }
    await Promise.all(sends);
  };
}

/** Minutes since local midnight of "HH:MM". */
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** One formatter per time zone: building one costs far more than using it. */
const clocks = new Map<string, Intl.DateTimeFormat>();

/** The local time of day at `at` in `timeZone`, in minutes since midnight. */
export function localMinutes(at: Date, timeZone: string): number {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    clocks.set(timeZone, clock);
  }
  let hour = 0;
  let minute = 0;
  for (const part of clock.formatToParts(at)) {
    if (part.type === "hour") hour = Number(part.value);
    else if (part.type === "minute") minute = Number(part.value);
  }
  return hour * 60 + minute;
}

/**
 * Whether `at` falls in the quiet hours: from `start` (included) to `end` (excluded), local time
 * in the client's time zone, across midnight when `end` is not after `start` (equal: all day).
 */
export function inQuietHours(q: NotificationPreferences["quiet_hours"], at: Date): boolean {
  if (!q.enabled) return false;
  const start = minutesOf(q.start);
  const end = minutesOf(q.end);
  let now: number;
  try {
    now = localMinutes(at, q.time_zone);
  } catch {
    // A zone this runtime no longer knows (stored under another runtime's zone data): UTC rather than no quiet hours at all.
    now = localMinutes(at, "UTC");
  }
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/** An alarm's opening (or an MCU announced back online) is pushed unless the client turned push off or it is quiet time. */
export const mayPush = (p: NotificationPreferences, at: Date): boolean => p.push.emergency && !inQuietHours(p.quiet_hours, at);
