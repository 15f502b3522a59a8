import type { FastifyPluginAsync } from "fastify";
import { PUSH_PATHS, pushDisplayedRequest, pushSubscriptionRequest, pushUnsubscribeRequest, type VapidPublicKeyAnswer } from "../../../src/contract/push.ts";
import { refusal } from "../../errors.ts";
import { OWN } from "../farm-access.ts";
import { parse } from "../validate.ts";

/**
 * The push services browsers subscribe at: Chromium's (Chrome, Edge on Android, Samsung Internet,
 * Opera, Brave) and Firebase's, Mozilla's, Apple's, Microsoft's (Edge on Windows). The server POSTs
 * to every stored endpoint at each alarm, so an endpoint anywhere else would let a signed-in
 * client have the server send requests into the network it runs in.
 */
const PUSH_SERVICE_HOSTS = [/^fcm\.googleapis\.com$/, /^android\.googleapis\.com$/, /^updates\.push\.services\.mozilla\.com$/, /(^|\.)push\.apple\.com$/, /\.notify\.windows\.com$/];

export function isKnownPushService(url: URL): boolean {
  return url.protocol === "https:" && url.port === "" && PUSH_SERVICE_HOSTS.some((host) => host.test(url.hostname));
}

export interface PushRoutesOptions {
  /** Which subscription endpoints are taken (default: isKnownPushService; tests: their local push service). */
  endpointAllowed?: (url: URL) => boolean;
}

/** Web Push, in the signed-in scope: the server's public key, and the signed-in client's browser subscriptions. */
export const pushRoutes: FastifyPluginAsync<PushRoutesOptions> = async (app, options) => {
  const allowed = options.endpointAllowed ?? isKnownPushService;
  const { webPush } = app.repos;

  app.get(PUSH_PATHS.vapidPublicKey, OWN, async (): Promise<VapidPublicKeyAnswer> => ({ public_key: (await webPush.vapidKeys(app.now())).publicKey }));

  app.put(PUSH_PATHS.subscription, OWN, async (req, reply): Promise<void> => {
    const body = parse(pushSubscriptionRequest, req.body);
    if (!allowed(new URL(body.endpoint))) throw refusal("VALIDATION", "push_service_not_allowed", "endpoint is not a push service this server sends to");
    await webPush.save(req.signedIn.clientId, { endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth }, app.now(), req.signedIn.idHash);
    reply.code(204);
  });

  // Only the signed-in client's own subscription goes: another client's endpoint matches nothing.
  app.delete(PUSH_PATHS.subscription, OWN, async (req): Promise<{ removed: boolean }> => {
    const body = parse(pushUnsubscribeRequest, req.body ?? {});
    return { removed: await webPush.remove(req.signedIn.clientId, body.endpoint) };
  });
};

/**
 * The service worker's report that it displayed a push, outside the session (see
 * PUSH_PATHS.displayed): the message id is the proof, so an unknown one is simply not stored.
 */
export const pushReceiptRoutes: FastifyPluginAsync = async (app) => {
  app.post(PUSH_PATHS.displayed, { config: { rateLimit: { max: 120, timeWindow: 60_000 } } }, async (req): Promise<{ stored: boolean }> => {
    const body = parse(pushDisplayedRequest, req.body);
    return { stored: await app.repos.pushDeliveries.displayed(body.id.toLowerCase(), app.now()) };
  });
};
