import webpush from "web-push";
import { payloadOf, StaleTokenError, type WebPushSender } from "./push-sender.ts";

export interface WebPushSenderOptions {
  /**
   * Who runs this server, for the push services (the VAPID `sub` claim): a mailto: address or an
   * https: URL. Apple's push service refuses a push whose subject is not one it can reach.
   */
  subject: string;
  /** The HTTP client (tests: any; the server: the platform's). */
  fetch?: typeof fetch;
  /** A push service that has not answered in this time is given up on (the alarm is in the app all the same). */
  timeoutMs?: number;
}

/**
 * Standard Web Push (RFC 8030): the payload encrypted for the subscription's keys (RFC 8291,
 * aes128gcm) and the request signed with the server's VAPID key (RFC 8292), both by the web-push
 * library, then POSTed to the subscription's endpoint with fetch. The library's own sender speaks
 * https only through Node's https module; fetch gives one time-out for the whole exchange, and
 * refuses redirects, so an endpoint cannot lead the server elsewhere.
 */
export function webPushSender({ subject, fetch: send = fetch, timeoutMs = 10_000 }: WebPushSenderOptions): WebPushSender {
  return {
    async send(subscription, push, vapid) {
      const request = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(payloadOf(push)),
        { vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey }, TTL: push.ttlSeconds, urgency: push.urgency },
      );
      const headers: Record<string, string> = {};
      // fetch sets Content-Length from the body itself.
      for (const [name, value] of Object.entries(request.headers)) if (name.toLowerCase() !== "content-length") headers[name] = String(value);
      const res = await send(request.endpoint, { method: "POST", headers, body: request.body, redirect: "error", signal: AbortSignal.timeout(timeoutMs) });
      const answer = (await res.text()).slice(0, 200);
      // 404 and 410: the subscription expired or the browser unsubscribed (RFC 8030 §7.3).
      if (res.status === 404 || res.status === 410) throw new StaleTokenError(`${res.status} ${answer}`.trim());
      if (!res.ok) throw new Error(`push service answered ${res.status}${answer ? `: ${answer}` : ""}`);
    },
  };
}
