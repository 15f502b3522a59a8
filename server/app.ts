import fastifyCookie from "@fastify/cookie";
import { createClaimGuard, DEFAULT_CLAIM_GUARD, type ClaimGuardConfig } from "./auth/claim-guard.ts";
import fastifyRateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { Redis } from "ioredis";
import { createLoginGuard, DEFAULT_LOGIN_GUARD, perAddressLimit, type LoginGuardConfig } from "./auth/login-guard.ts";
import type { PasswordHasher } from "./auth/password.ts";
import type { Database } from "./db/database.ts";
import { refusal } from "./errors.ts";
import type { Access, SignedIn } from "./http/context.ts";
import { createRepositories } from "./db/repositories.ts";
import { createEventBus, type EventBus } from "./events.ts";
import { answerError, installErrorHandler, refuseWhileClosing } from "./http/errors.ts";
import { installFarmAccess } from "./http/farm-access.ts";
import { installAuditTrail } from "./http/audit-trail.ts";
import { installJsonBodyParser } from "./http/json-body.ts";
import { installSecurityHeaders } from "./http/security-headers.ts";
import { answerClientError, capConnectionsPerAddress, DEFAULT_CONNECTION_LIMITS, httpServerOptions, trustedProxies, type ConnectionLimits } from "./http/connection-limits.ts";
import { alarmRoutes } from "./http/routes/alarms.ts";
import { accountRoutes, signInRoutes } from "./http/routes/clients.ts";
import { farmRoutes } from "./http/routes/farms.ts";
import { historyRoutes } from "./http/routes/history.ts";
import type { ExportLimits } from "./history/export-gate.ts";
import { mcuRoutes } from "./http/routes/mcus.ts";
import { notificationRoutes } from "./http/routes/notifications.ts";
import { peripheralRoutes } from "./http/routes/peripherals.ts";
import { installServedMetrics, type MetricsOptions } from "./http/routes/metrics.ts";
import { profileRoutes } from "./http/routes/profiles.ts";
import { pushReceiptRoutes, pushRoutes, type PushRoutesOptions } from "./http/routes/push.ts";
import { recipeRoutes } from "./http/routes/recipes.ts";
import { batchRoutes } from "./http/routes/batches.ts";
import { teamRoutes } from "./http/routes/team.ts";
import { auditRoutes } from "./http/routes/audit.ts";
import { createSessions, type SessionConfig, type Sessions } from "./http/session.ts";
import type { TrustProxy } from "./config.ts";
import { serveApp } from "./http/spa.ts";

export interface AppConfig {
  /** Origins allowed to change state besides the server's own (PUBLIC_ORIGIN, the Vite dev server …). */
  allowedOrigins: string[];
  session: SessionConfig;
  /** The built app (Vite's dist/); undefined serves the API only. */
  staticDir?: string;
  logger?: FastifyServerOptions["logger"];
  /**
   * The reverse proxies whose X-Forwarded-For gives `req.ip` (TRUST_PROXY): a number of hops, or
   * their addresses and CIDRs, comma-separated; false (the default): none, `req.ip` is the
   * socket's address. Every per-address limit (sign-in, registration, claims, the password
   * hashing queue) counts by `req.ip`.
   */
  trustProxy?: TrustProxy;
  /** GET /api/metrics: a bearer token, or a listener of its own on 127.0.0.1 (METRICS_TOKEN, METRICS_PORT). */
  metrics?: MetricsOptions;
  /** Slow clients and connections per address (defaults: DEFAULT_CONNECTION_LIMITS; no per-address cap behind a proxy). */
  connections?: Partial<ConnectionLimits>;
  /** Where per-address limits count: this process alone, or a Redis every server process shares. */
  rateLimitRedis?: Redis;
  /** Sign-in throttling (defaults: DEFAULT_LOGIN_GUARD; `secure` follows the session's). */
  loginGuard?: Partial<LoginGuardConfig>;
  /** Refused MCU claims allowed per account and address (defaults: DEFAULT_CLAIM_GUARD). */
  claimGuard?: Partial<ClaimGuardConfig>;
  /** Days minute rollups are kept (default 30): the history API reads older ranges from hourly rollups. */
  historyMinuteRetentionDays?: number;
  /** CSV exports streaming at once per client and per node (defaults: DEFAULT_EXPORT_LIMITS). */
  exports?: Partial<ExportLimits>;
  /** Web Push subscriptions: which endpoints are taken (default: the browsers' push services). */
  push?: PushRoutesOptions;
}

export interface AppDeps {
  db: Database;
  hasher: PasswordHasher;
  config: AppConfig;
  now?: () => Date;
  /** The server's event bus, which its other parts subscribe to (before the server listens); an app built alone has one of its own. */
  events?: EventBus;
  /** Shared with the realtime server, which authenticates sockets by the same sessions. */
  sessions?: Sessions;
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Fastify's trustProxy for TRUST_PROXY. A number is hops: Fastify 5 ignores a bare number (it
 * cannot tell a proxy from a client that reached the port directly), so hops are a trust function
 * here; they are for a server only its proxies can reach. Addresses go to Fastify as they are.
 */
function trustProxyOption(trust: TrustProxy): FastifyServerOptions["trustProxy"] {
  if (typeof trust !== "number") return trust;
  return (_address: string, hop: number) => hop < trust;
}

/**
 * Builds the HTTP server from its dependencies: repositories, the event bus, access and the clock
 * decorated on the instance; the public routes; and the signed-in routes in one scope whose hook
 * puts the session's client on each request. The caller owns the database and closes it; it adds
 * what needs the rest of the server (the metrics route) before `listen`.
 */
export async function buildApp({ db, hasher, config, now = () => new Date(), events, sessions = createSessions(db, config.session, now) }: AppDeps): Promise<FastifyInstance> {
  // Proxies known by hops only cannot be told from their clients: then no connection is capped by its address.
  const limits: ConnectionLimits = { ...DEFAULT_CONNECTION_LIMITS, ...(typeof config.trustProxy === "number" ? { perAddress: 0 } : {}), ...config.connections };
  const app = Fastify({
    http: httpServerOptions(limits),
    requestTimeout: limits.requestMs,
    logger: config.logger ?? false,
    bodyLimit: 64 * 1024,
    trustProxy: trustProxyOption(config.trustProxy ?? false),
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    routerOptions: { maxParamLength: 200 },
    // Fastify's own answers to these (a bad URL, a path segment too long, a request Node gave up on,
    // a request while closing) have neither our code nor a reason: ours answer them instead.
    frameworkErrors: answerError,
    clientErrorHandler: answerClientError,
    return503OnClosing: false,
  });
  capConnectionsPerAddress(app.server, limits.perAddress, typeof config.trustProxy === "string" ? trustedProxies(config.trustProxy) : undefined);
  installErrorHandler(app);
  refuseWhileClosing(app);
  // JSON is the only body the API takes; a form or text body is answered with 415.
  app.removeContentTypeParser(["text/plain"]);
  installJsonBodyParser(app);
  await app.register(fastifyCookie);
  // Per-address limits are set on the routes that take them (sign-in, registration). With Redis,
  // every server process counts against the same budget; if Redis cannot answer, the limit is
  // skipped rather than every sign-in refused (the account locks, in the database, still hold).
  await app.register(fastifyRateLimit, { global: false, ...(config.rateLimitRedis ? { redis: config.rateLimitRedis, nameSpace: "mf-rate-", skipOnError: true } : {}) });

  const allowed = new Set(config.allowedOrigins);
  app.addHook("onRequest", async (req) => {
    if (!STATE_CHANGING.has(req.method)) return;
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed.has(origin) && origin !== `${req.protocol}://${req.host}`) {
      throw refusal("BAD_ORIGIN", "origin_not_allowed", "Requests from this origin are not allowed");
    }
    if (req.method !== "DELETE" && !/^application\/json\b/i.test(req.headers["content-type"] ?? "")) {
      throw refusal("UNSUPPORTED_MEDIA_TYPE", "json_only", "Send the request body as application/json");
    }
  });
  installSecurityHeaders(app, { https: config.session.secure });

  const loginGuard = { ...DEFAULT_LOGIN_GUARD, secure: config.session.secure, ...config.loginGuard };
  const access: Access = {
    hasher,
    sessions,
    loginGuard: createLoginGuard(db, loginGuard, now),
    perAddress: perAddressLimit(loginGuard.perAddressPerMinute),
    claimGuard: createClaimGuard({ ...DEFAULT_CLAIM_GUARD, ...config.claimGuard }, () => now().getTime()),
  };
  app.decorate("repos", createRepositories(db, now));
  const bus = events ?? createEventBus((msg) => app.log.error(msg));
  app.decorate("events", bus);
  app.decorate("access", access);
  app.decorate("now", now);
  app.decorateRequest("signedIn", null as unknown as SignedIn);
  // A session ended anywhere on this node (sign-out, a password change) is not trusted from its cache.
  bus.on("sessionEnded", (idHash) => sessions.forget(idHash));

  installServedMetrics(app);

  await app.register(signInRoutes);
  await app.register(pushReceiptRoutes);
  await app.register(async (signedIn) => {
    signedIn.addHook("onRequest", async (req) => {
      req.signedIn = await sessions.require(req);
    });
    installFarmAccess(signedIn);
    installAuditTrail(signedIn);
    for (const routes of [accountRoutes, notificationRoutes, alarmRoutes, farmRoutes, mcuRoutes, peripheralRoutes, profileRoutes, recipeRoutes, batchRoutes, teamRoutes, auditRoutes]) {
      await signedIn.register(routes);
    }
    await signedIn.register(historyRoutes, { minuteRetentionDays: config.historyMinuteRetentionDays ?? 30, exports: config.exports });
    await signedIn.register(pushRoutes, config.push ?? {});
  });
  await serveApp(app, config.staticDir);
  return app;
}
