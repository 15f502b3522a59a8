import { type } from "arktype";
import type { RequestSchema } from "./api.ts";

/**
 * Push to browsers beyond SPEC's Firebase flow: standard Web Push with the server's own VAPID key
 * (no messaging account needed), the urgency and lifetime of each push, and the service worker's
 * report that a push was displayed.
 */

export * from "./push-values.ts";
import { PUSH_URGENCIES } from "./push-values.ts";

export const vapidPublicKeyAnswer = type({
  /** The uncompressed P-256 public key, base64url (87 characters). */
  public_key: "string",
});
export type VapidPublicKeyAnswer = typeof vapidPublicKeyAnswer.infer;

/** Push service endpoints are capability URLs; longer than this is not one. */
export const PUSH_ENDPOINT_MAX = 2048;

/** A string that must match `pattern`, refused with `message` (the first problem is what the caller sees). */
const matching = (pattern: RegExp, message: string) => type("string").narrow((s, ctx) => pattern.test(s) || ctx.reject({ message }));

const endpoint = type("string").narrow((s, ctx) => {
  if (s.length > PUSH_ENDPOINT_MAX) return ctx.reject({ message: `endpoint must be at most ${PUSH_ENDPOINT_MAX} characters` });
  try {
    return new URL(s).protocol.startsWith("http") || ctx.reject({ message: "endpoint must be a URL" });
  } catch {
    return ctx.reject({ message: "endpoint must be a URL" });
  }
});

/**
 * A browser's `PushSubscription.toJSON()`. The keys are checked for their size here (p256dh: a
 * 65-byte uncompressed P-256 point, which begins with 0x04, so "B"; auth: 16 bytes), so that a
 * subscription the server could not encrypt for is refused when stored rather than at an alarm.
 * Fields a browser adds later are dropped.
 */
export const pushSubscriptionRequest = {
  schema: type({
    endpoint,
    keys: {
      p256dh: matching(/^B[A-Za-z0-9_-]{86}=?$/, "keys.p256dh must be a P-256 public key (base64url)"),
      auth: matching(/^[A-Za-z0-9_-]{22}(==)?$/, "keys.auth must be 16 bytes (base64url)"),
    },
    "expirationTime?": "number | null",
    "+": "delete",
  }),
  missing: { endpoint: "endpoint is required", keys: "keys is required", "keys.p256dh": "keys.p256dh is required", "keys.auth": "keys.auth is required" },
} satisfies RequestSchema;
export type PushSubscriptionRequest = typeof pushSubscriptionRequest.schema.inferIn;

export const pushUnsubscribeRequest = {
  schema: type({ endpoint: type("string").narrow((s, ctx) => s.length <= PUSH_ENDPOINT_MAX || ctx.reject({ message: "endpoint is not a push endpoint" })), "+": "reject" }),
  missing: { endpoint: "endpoint is required" },
} satisfies RequestSchema;
export type PushUnsubscribeRequest = typeof pushUnsubscribeRequest.schema.inferIn;

/** DELETE's answer: whether the signed-in client had that subscription (another client's is left alone). */
export const pushUnsubscribeAnswer = type({ removed: "boolean" });

export const pushDisplayedRequest = {
  schema: type({ id: matching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "id must be a message id"), "+": "reject" }),
  missing: { id: "id is required" },
} satisfies RequestSchema;
export type PushDisplayedRequest = typeof pushDisplayedRequest.schema.inferIn;

/** One push of an alarm to one browser, as an alarm's screen shows it ("notified X at …, displayed at …"). */
export const pushDelivery = type({
  delivery_id: "number.integer",
  /** Who it was sent to. */
  client_id: "number.integer",
  username: "string",
  channel: "'web_push' | 'fcm'",
  /** The push service's host (fcm.googleapis.com, web.push.apple.com …): which kind of browser. */
  service: "string",
  title: "string",
  urgency: type.enumerated(...PUSH_URGENCIES),
  sent_at: "string",
  /** Why the push service did not take it; null when it did (or has not answered yet). */
  failure: "string | null",
  /** When the browser showed it (its service worker's report); null until then, or never. */
  displayed_at: "string | null",
});
export type PushDelivery = typeof pushDelivery.infer;
