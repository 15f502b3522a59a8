import { mkdir } from "node:fs/promises";
import { Redis } from "ioredis";
import { createPasswordHasher } from "./auth/password.ts";
import { firebasePushSender } from "./alerts/push-sender.ts";
import { webPushSender } from "./alerts/web-push-sender.ts";
import { readConfig } from "./config.ts";
import { openPostgres, type Database } from "./db/database.ts";
import { openPgliteThread } from "./db/pglite-thread.ts";
import { migrate } from "./db/migrate.ts";
import { DEFAULT_SESSION } from "./http/session.ts";
import { DEMO_LOGIN } from "./simulator/demo.ts";
import { startSystem } from "./system.ts";

const config = readConfig();

let db: Database;
if (config.databaseUrl) {
  db = await openPostgres(config.databaseUrl);
} else {
  await mkdir(config.dataDir, { recursive: true });
  // In its own thread: PGlite's work must not hold up the devices', sockets' and requests' event loop.
  db = await openPgliteThread(config.dataDir);
}
const applied = await migrate(db);

const secure = config.publicOrigins.some((o) => o.startsWith("https://"));
// Short time-outs and one retry: a limit check must not hold a sign-in up (see @fastify/rate-limit).
const redis = config.redisUrl ? new Redis(config.redisUrl, { connectTimeout: 1_000, maxRetriesPerRequest: 1, lazyConnect: false }) : undefined;
redis?.on("error", (err: Error) => console.error(`Redis: ${err.message}`));
// Its own connection: the socket adapter blocks reading its stream, and retries as long as it takes.
const socketRedis = config.redisUrl ? new Redis(config.redisUrl) : undefined;
socketRedis?.on("error", (err: Error) => console.error(`Redis (sockets): ${err.message}`));
const hasher = createPasswordHasher({ log2N: config.scryptLog2N });
const system = await startSystem({
  db,
  hasher,
  http: {
    host: config.host,
    port: config.port,
    allowedOrigins: config.publicOrigins,
    session: { ...DEFAULT_SESSION, secure },
    staticDir: config.staticDir,
    logger: { level: config.logLevel },
    // Only the proxies TRUST_PROXY names may say who the client is: an https origin alone trusts none
    // (with every hop trusted, a client's own X-Forwarded-For would choose its address).
    trustProxy: config.trustProxy,
    metrics: { port: config.metricsPort, token: config.metricsToken },
    loginGuard: { perAddressPerMinute: config.loginAttemptsPerMinute },
    exports: config.exports,
    rateLimitRedis: redis,
    // Behind a proxy every connection may be its: it caps them, not us. The proxies TRUST_PROXY lists
    // are left uncapped by the app (anyone else is still capped); hops, or an https origin's proxy
    // that TRUST_PROXY does not name, cannot be told from a client.
    connections: { perAddress: typeof config.trustProxy === "number" || (secure && config.trustProxy === false) ? 0 : config.maxConnectionsPerAddress },
  },
  mqtt: config.mqtt,
  // Also tells the history API which ranges the minutes still hold (AppConfig.historyMinuteRetentionDays).
  historyRetention: { minuteDays: config.historyMinuteRetentionDays, hourDays: config.historyHourRetentionDays },
  socketRedis,
  socketRedisStream: config.redisSocketStream,
  alerts: { graceMs: config.alarmGraceMs, holdMs: config.alarmHoldMs },
  deviceBudget: config.deviceMessages,
  // A restart goes on in each room from where it was (startDemo): no step in the charts, no alarm of its own.
  demo: config.demo ? { hz: config.demoHz, speed: config.demoSpeed, incidentMinutes: config.demoIncidentMinutes } : undefined,
  // Web Push with the server's own keys always; Firebase as well when configured (an app built with it uses that instead).
  push: {
    webPush: webPushSender({ subject: config.vapidSubject }),
    fcm: config.firebaseServiceAccount ? await firebasePushSender(config.firebaseServiceAccount) : undefined,
  },
});
const log = system.app.log;
log.info(`Database: ${config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.dataDir}`}${applied.length ? `; applied ${applied.join(", ")}` : ""}`);
log.info(`Sign-in limits per address: ${redis ? "counted in Redis (REDIS_URL), shared by every server process" : "counted in this process"}`);
if (config.trustProxy === false && secure) {
  log.warn("PUBLIC_ORIGIN is https but TRUST_PROXY is unset: every client reaching this server through the proxy counts as the proxy's address (they share one sign-in budget); set TRUST_PROXY to the proxy's address");
} else if (typeof config.trustProxy === "number") {
  log.info(`Client addresses: X-Forwarded-For, trusting ${config.trustProxy} proxy hop(s) (TRUST_PROXY): only the proxy may reach port ${config.port}, or a client could set its own address`);
} else if (config.trustProxy !== false) {
  log.info(`Client addresses: X-Forwarded-For, from the proxies ${config.trustProxy} (TRUST_PROXY)`);
}
if (config.metricsPort !== undefined) log.info(`Metrics: http://127.0.0.1:${config.metricsPort}/metrics (METRICS_PORT)${config.metricsToken ? ", with METRICS_TOKEN" : ""}`);
log.info(`Devices connect to ${config.mqtt.mode === "embedded" ? `the embedded MQTT broker on port ${system.broker!.port}` : config.mqtt.url}`);

// The few lines a new user needs, after the log: where to open it, how to sign in, where the data lives.
const loopbackOnly = ["127.0.0.1", "::1", "localhost"].includes(config.host);
const port = (system.app.server.address() as { port: number }).port;
console.log(
  [
    "",
    `  Mushroom farm is running: http://${loopbackOnly || config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host}:${port}`,
    loopbackOnly ? "  Reachable from this machine only (HOST=0.0.0.0 opens the app and the MQTT broker to the network)" : `  Listening on ${config.host} (HOST)`,
    ...(config.demo ? [`  Demo sign-in: ${DEMO_LOGIN.username} (or ${DEMO_LOGIN.email}) / ${DEMO_LOGIN.password}`] : []),
    `  Data: ${config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `${config.dataDir} (PGlite; DATA_DIR; delete it for a new demo)`}`,
    "",
  ].join("\n"),
);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info(`${signal}: shutting down`);
  const force = setTimeout(() => {
    console.error("Shutdown took longer than 10 s; exiting.");
    process.exit(1);
  }, 10_000);
  force.unref();
  try {
    await system.close(); // stops accepting, lets in-flight requests finish, closes sockets and broker
    await db.close();
    redis?.disconnect();
    socketRedis?.disconnect();
    process.exit(0);
  } catch (err) {
    console.error("Shutdown failed:", err);
    process.exit(1);
  }
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
