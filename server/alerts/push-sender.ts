import { readFile } from "node:fs/promises";
import type { NotificationPreferences } from "../../src/contract/alarms-values.ts";
import type { Sql } from "../db/database.ts";
import { pushTokensRepo } from "../db/push-tokens-repo.ts";

/**
 * A push message: its words, and where it leads in the app (an app path such as an alarm's or an
 * MCU's history page; the dashboard when absent): the service worker opens it when the
 * notification is clicked.
 */
export interface PushMessage {
  title: string;
  body: string;
  link?: string;
}

/** Where a push message without a link of its own leads. */
export const DEFAULT_PUSH_LINK = "/dashboard";

/** Sends one push message to one browser token (Firebase Cloud Messaging, or a fake in tests). */
export interface PushSender {
  send(token: string, message: PushMessage): Promise<void>;
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
    async send(token, { title, body, link = DEFAULT_PUSH_LINK }) {
      try {
        // The link twice: fcmOptions for a browser that shows the notification itself, data for our service worker (public/push-sw.js).
        await messaging.send({ token, notification: { title, body }, data: { link }, webpush: { fcmOptions: { link } } });
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
 * Pushes a message to its client's browser, when the client has a push token. A token the service
 * no longer knows is removed from the client; other failures are logged only (the app still gets
 * the alarm, and the bell its notification, over the socket). Whether a message is to be pushed at
 * all is the caller's decision (see `mayPush`).
 */
export function createPushNotifier(db: Sql, sender: PushSender, log: (msg: string) => void = () => {}): PushNotifier {
  const tokens = pushTokensRepo(db);
  return async (clientId, n) => {
    const token = await tokens.tokenOf(clientId);
    if (!token) return;
    try {
      await sender.send(token, { title: n.title, body: n.body, ...(n.link ? { link: n.link } : {}) });
    } catch (err) {
      if (err instanceof StaleTokenError) {
        await tokens.forgetStale(clientId, token);
      } else {
        log(`push to client ${clientId} failed: ${(err as Error).message}`);
      }
    }
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
