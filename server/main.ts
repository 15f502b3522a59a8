import { mkdir } from "node:fs/promises";
import { Redis } from "ioredis";
import { sweepLoginRecords } from "./auth/login-guard.ts";
import { createPasswordHasher } from "./auth/password.ts";
import { firebasePushSender } from "./alerts/push-sender.ts";
import { readConfig } from "./config.ts";
import { openPostgres, type Database } from "./db/database.ts";
import { openPgliteThread } from "./db/pglite-thread.ts";
import { migrate } from "./db/migrate.ts";
import { sessionsRepo } from "./db/sessions-repo.ts";
import { DEFAULT_SESSION } from "./http/session.ts";
import { DEMO_LOGIN, ensureDemo, saveDemoKey } from "./simulator/demo.ts";
import { seedDemoHistory } from "./simulator/history-seed.ts";
import { startFleet, type Fleet } from "./simulator/fleet.ts";
import { startIncidents, type Incidents } from "./simulator/incidents.ts";
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
    rateLimitRedis: redis,
    // Behind a proxy (an https origin is served through one) every connection comes from it: it caps them, not us.
    connections: { perAddress: secure || config.trustProxy !== false ? 0 : config.maxConnectionsPerAddress },
  },
  mqtt: config.mqtt,
  // Also tells the history API which ranges the minutes still hold (AppConfig.historyMinuteRetentionDays).
  historyRetention: { minuteDays: config.historyMinuteRetentionDays, hourDays: config.historyHourRetentionDays },
  socketRedis,
  socketRedisStream: config.redisSocketStream,
  alerts: { graceMs: config.alarmGraceMs, holdMs: config.alarmHoldMs },
  deviceBudget: config.deviceMessages,
  push: config.firebaseServiceAccount ? await firebasePushSender(config.firebaseServiceAccount) : undefined,
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

let fleet: Fleet | undefined;
let incidents: Incidents | undefined;
if (config.demo) {
  const demo = await ensureDemo(db, hasher);
  // The seed links profiles in the database directly: their devices must hear of it.
  if (demo.created) await system.publishLinkedConfigs();
  // A day of history for a new demo (or one last run over a day ago); its devices go on from where it ends.
  const started = Date.now();
  const history = await seedDemoHistory(db, demo.devices).catch((err: Error) => {
    log.warn({ err }, "demo history: not made");
    return undefined;
  });
  const generatedMs = Date.now() - started;
  history?.written.then(
    (n) =>
      n.mcus > 0 &&
      log.info(`Demo history: the last 24 h of ${n.mcus} MCUs (${n.minuteRows} minutes, ${n.stateEvents} state changes, ${n.commands} commands, ${n.alarms} alarms): made in ${generatedMs} ms, written in the background in ${Date.now() - started} ms`),
    (err: Error) => log.warn({ err }, "demo history: not written"),
  );
  fleet = await startFleet({
    url: system.mqttUrl,
    devices: demo.devices.map((d) => ({ ...d, room: history?.rooms.get(d.mac) })),
    hz: config.demoHz,
    speed: config.demoSpeed,
    log: (m) => log.debug(m),
    onKey: (mac, key) => void saveDemoKey(db, mac, key).catch((err: Error) => log.warn({ err }, `demo device ${mac}: its new key was not saved`)),
  });
  log.info(`Demo fleet: ${demo.devices.length} simulated MCUs${demo.created ? " (demo data created)" : ""}`);
  if (config.demoIncidentMinutes > 0) {
    // A shorter incident when they come often, so that one is over before the next begins.
    const everyMs = config.demoIncidentMinutes * 60_000;
    const names = new Map((await db.query<{ mac: string; name: string }>("select mac, name from mcus where mac = any($1::text[])", [demo.devices.map((d) => d.mac)])).map((r) => [r.mac, r.name]));
    incidents = startIncidents(fleet.mcus, { everyMs, lastsMs: Math.min(10 * 60_000, everyMs / 3), log: (m) => log.info(m), nameOf: (mac) => names.get(mac) });
  }
}

// Expired sessions are refused on use, old sign-in failures no longer count: this only keeps the tables small.
const sweep = setInterval(() => {
  const now = new Date();
  sessionsRepo(db)
    .deleteExpired(now, new Date(now.getTime() - DEFAULT_SESSION.idleMs))
    .catch((err: Error) => log.warn({ err }, "session sweep failed"));
  sweepLoginRecords(db, now).catch((err: Error) => log.warn({ err }, "sign-in records sweep failed"));
}, 3600_000);
sweep.unref();

console.log(`\n  Mushroom farm is running: http://localhost:${(system.app.server.address() as { port: number }).port}`);
if (config.demo) console.log(`  Demo sign-in: ${DEMO_LOGIN.username} (or ${DEMO_LOGIN.email}) / ${DEMO_LOGIN.password}`);
console.log("");

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
  clearInterval(sweep);
  try {
    incidents?.stop();
    await fleet?.stop();
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
