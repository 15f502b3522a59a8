/**
 * Push's values without schemas, for the page's main thread (which must not load the schema
 * library: it compiles validators with eval, refused by the page's Content Security Policy). The
 * schemas are in push.ts.
 */

export const PUSH_PATHS = {
  /** GET (signed in): the server's VAPID public key, which `PushManager.subscribe` takes as its applicationServerKey. */
  vapidPublicKey: "/api/push/vapid-public-key",
  /** PUT (signed in): this browser's subscription, for the signed-in client. DELETE: forgets it (body: its endpoint). */
  subscription: "/api/push/subscription",
  /**
   * POST: the service worker displayed a push. Not behind the session: a farm phone that has not
   * opened the app for longer than a session lives still receives alarms, and its report still
   * counts. The message id, known only to the browser the push was encrypted for, is the proof.
   */
  displayed: "/api/push/displayed",
} as const;

/**
 * A browser's push subscription as the page hands it to the data core to store
 * (`PushSubscription.toJSON()` with its endpoint and keys, which the server checks: push.ts).
 */
export interface WebPushSubscription {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

/** How urgently a push service should deliver a push (the Urgency header of RFC 8030). */
export const PUSH_URGENCIES = ["high", "normal"] as const;
export type PushUrgency = (typeof PUSH_URGENCIES)[number];

/**
 * How long a push service keeps an undelivered push (its TTL, in seconds). An alarm rings at once
 * or not at all: five minutes late it would wake someone for what the app already shows (and
 * Android holds normal-urgency pushes back by minutes in Doze, hence high urgency for alarms).
 * Other notices (an MCU back online, one that sends too much) may wait for the phone a day.
 */
export const PUSH_TTL_SECONDS: Record<PushUrgency, number> = { high: 300, normal: 24 * 3600 };

/**
 * What every push carries to the service worker (public/push-sw.js), the same shape by Web Push
 * and by Firebase Cloud Messaging (whose `data` values are strings): the words to show, where a
 * click leads (an app path), the message id to report as displayed, and its urgency.
 */
export interface PushPayload {
  notification: { title: string; body: string };
  data: { link: string; id: string; urgency: PushUrgency };
}

