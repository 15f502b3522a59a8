import { isIP } from "node:net";
import { resolve } from "node:path";
import { DEFAULT_DEVICE_MESSAGE_BURST, DEFAULT_DEVICE_MESSAGES_PER_SECOND } from "./devices/device-budget.ts";

/** Everything the server reads from its environment, with the defaults of the README. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Redis shared by every server process (per-address sign-in limits count across them). */
  redisUrl: string | undefined;
  /** The Redis stream the server nodes' sockets share (REDIS_SOCKET_STREAM): one per deployment using that Redis. */
  redisSocketStream: string;
  publicOrigins: string[];
  scryptLog2N: number;
  /** Sign-in and registration attempts one address may make per minute. */
  loginAttemptsPerMinute: number;
  /** Open HTTP connections one address may hold (0: no cap). */
  maxConnectionsPerAddress: number;
  /**
   * The reverse proxies whose X-Forwarded-For is believed (TRUST_PROXY): a number of hops, or the
   * proxies' addresses and CIDRs (comma-separated); false: none, the socket's address is the client's.
   */
  trustProxy: TrustProxy;
  /** A listener for GET /metrics on 127.0.0.1 only (METRICS_PORT); the main port then has no /api/metrics. */
  metricsPort: number | undefined;
  /** A bearer token every metrics read must carry (METRICS_TOKEN). */
  metricsToken: string | undefined;
  staticDir: string;
  logLevel: string;
  mqtt:
    | { mode: "embedded"; host: string; port: number }
    | { mode: "external"; url: string; username: string; password: string; shareGroup: string };
  /** Seed and run the demo fleet (embedded broker only). */
  demo: boolean;
  demoHz: number;
  demoSpeed: number;
  /** Minutes between the demo's incidents (a grow room's door left open, so an alarm opens and resolves); 0: none. */
  demoIncidentMinutes: number;
  /** An alarm opens once its condition (a reading outside the profile) has lasted this long (ALARM_GRACE_SECONDS). */
  alarmGraceMs: number;
  /** An alarm resolves once its condition has stayed clear this long (ALARM_HOLD_SECONDS): the hysteresis. */
  alarmHoldMs: number;
  /** Firebase service account (JSON or a path): alert notifications are also pushed to browsers. */
  firebaseServiceAccount: string | undefined;
  /**
   * Who runs this server, as Web Push services are told (VAPID_SUBJECT: a mailto: address or an
   * https: URL); by default the https PUBLIC_ORIGIN, else a placeholder address.
   */
  vapidSubject: string;
  /** Days reading history keeps minute rollups. */
  historyMinuteRetentionDays: number;
  /** Days it keeps hourly rollups, device state changes and the command log (at least the minutes' days). */
  historyHourRetentionDays: number;
  /**
   * Messages one device may send a second, on average (DEVICE_MESSAGES_PER_SECOND), and at once
   * (DEVICE_MESSAGE_BURST): the rest is dropped; a device over it for long is cut off for a minute.
   */
  deviceMessages: { perSecond: number; burst: number };
  /** CSV exports one client may stream at once (EXPORTS_PER_CLIENT), and this node in all (EXPORTS_PER_NODE). */
  exports: { perClient: number; perNode: number };
}

/** Hops (a number) or proxy addresses and CIDRs (a comma-separated list, as Fastify's trustProxy takes them); false: none. */
export type TrustProxy = false | number | string;

/** proxy-addr's named ranges, which Fastify's trustProxy also takes. */
const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

function proxyEntryValid(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const slash = entry.lastIndexOf("/");
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash === -1) return true;
  const range = entry.slice(slash + 1);
  if (/^\d{1,3}$/.test(range)) return Number(range) >= 1 && Number(range) <= (family === 4 ? 32 : 128);
  // An IPv4 netmask (255.255.255.0) is taken too.
  return family === 4 && isIP(range) === 4;
}

/**
 * TRUST_PROXY: unset, empty or 0 trusts no proxy. Trusting every hop (`true`) is refused: any
 * client could then choose its own address with an X-Forwarded-For of its own.
 */
function trustProxyOf(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = (env.TRUST_PROXY ?? "").trim();
  if (raw === "" || raw === "0") return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 16) throw new Error(`TRUST_PROXY must be a number of proxy hops from 1 to 16, or the proxies' addresses (was "${raw}")`);
    return hops;
  }
  const entries = raw.split(",").map((e) => e.trim());
  const bad = entries.filter((e) => !proxyEntryValid(e));
  if (bad.length > 0) {
    throw new Error(
      `TRUST_PROXY must be a number of proxy hops (1), or a comma-separated list of the proxies' addresses or CIDRs (127.0.0.1,10.0.0.0/8; also loopback, linklocal, uniquelocal); "${bad.join('", "')}" is neither`,
    );
  }
  return entries.join(",");
}

function intOf(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max} (was "${raw}")`);
  return n;
}

function numberOf(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`${name} must be a number from ${min} to ${max} (was "${raw}")`);
  return n;
}

function metricsTokenOf(env: NodeJS.ProcessEnv): string | undefined {
  const token = env.METRICS_TOKEN;
  if (token === undefined || token === "") return undefined;
  // Sent as `Authorization: Bearer <token>`: only the characters RFC 6750's token allows, and enough of them to be guessed by no one.
  if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(token) || token.length < 16) throw new Error("METRICS_TOKEN must be at least 16 characters of A-Z, a-z, 0-9, -._~+/ (e.g. openssl rand -hex 32)");
  return token;
}

/** VAPID_SUBJECT, checked at start: a bad one would fail every Web Push, one alarm at a time. */
function vapidSubjectOf(env: NodeJS.ProcessEnv, publicOrigins: string[]): string {
  const subject = env.VAPID_SUBJECT;
  if (subject === undefined || subject === "") return publicOrigins.find((o) => o.startsWith("https://")) ?? "mailto:push@mushroom-farm.invalid";
  if (!/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/.test(subject)) throw new Error(`VAPID_SUBJECT must be a mailto: address or an https: URL, like mailto:you@your-farm.com (was "${subject}")`);
  return subject;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const publicOrigins = (env.PUBLIC_ORIGIN ?? "")
    .split(",")
    .map((o) => o.trim().replace(/\/$/, ""))
    .filter(Boolean);
  for (const origin of publicOrigins) {
    if (!/^https?:\/\/[^/]+$/.test(origin)) throw new Error(`PUBLIC_ORIGIN must be like https://farm.example.com (was "${origin}")`);
  }
  const historyMinuteRetentionDays = intOf(env, "HISTORY_MINUTE_RETENTION_DAYS", 30, 1, 3650);
  const historyHourRetentionDays = intOf(env, "HISTORY_HOUR_RETENTION_DAYS", 730, 1, 36500);
  // Long ranges are read from hourly rollups: hours kept for less time than minutes would lose ranges the minutes still hold.
  if (historyHourRetentionDays < historyMinuteRetentionDays) {
    throw new Error(`HISTORY_HOUR_RETENTION_DAYS (${historyHourRetentionDays}) must be at least HISTORY_MINUTE_RETENTION_DAYS (${historyMinuteRetentionDays})`);
  }
  return {
    port: intOf(env, "PORT", 8080, 0, 65535),
    // Loopback unless asked: the demo's password is public, so a first start must not open it (or the broker) to the network.
    host: env.HOST || "127.0.0.1",
    dataDir: resolve(env.DATA_DIR || "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisSocketStream: env.REDIS_SOCKET_STREAM || "mushroom-farm:socket.io",
    publicOrigins,
    scryptLog2N: intOf(env, "SCRYPT_LOG2N", 17, 10, 20),
    loginAttemptsPerMinute: intOf(env, "LOGIN_ATTEMPTS_PER_MINUTE", 20, 1, 100_000),
    maxConnectionsPerAddress: intOf(env, "MAX_CONNECTIONS_PER_ADDRESS", 256, 0, 1_000_000),
    trustProxy: trustProxyOf(env),
    metricsPort: env.METRICS_PORT ? intOf(env, "METRICS_PORT", 0, 1, 65535) : undefined,
    metricsToken: metricsTokenOf(env),
    staticDir: resolve(env.STATIC_DIR || "./dist"),
    logLevel: env.LOG_LEVEL || "info",
    mqtt: env.MQTT_URL
      ? {
          mode: "external",
          url: env.MQTT_URL,
          username: env.MQTT_USERNAME || "gateway",
          password: env.MQTT_PASSWORD || "",
          shareGroup: env.MQTT_SHARE_GROUP || "mushroom-farm",
        }
      : { mode: "embedded", host: env.MQTT_HOST || env.HOST || "127.0.0.1", port: intOf(env, "MQTT_PORT", 1883, 0, 65535) },
    demo: env.DEMO !== "0" && !env.MQTT_URL,
    demoHz: numberOf(env, "DEMO_HZ", 0.5, 0.01, 10),
    // Real time by default: the live curves go on from the seeded day at its pace, and the alarms' grace periods read true.
    demoSpeed: numberOf(env, "DEMO_SPEED", 1, 1, 3600),
    demoIncidentMinutes: numberOf(env, "DEMO_INCIDENT_MINUTES", 45, 0, 1440),
    alarmGraceMs: intOf(env, "ALARM_GRACE_SECONDS", 300, 0, 86_400) * 1000,
    alarmHoldMs: intOf(env, "ALARM_HOLD_SECONDS", 120, 0, 86_400) * 1000,
    firebaseServiceAccount: env.FIREBASE_SERVICE_ACCOUNT || undefined,
    vapidSubject: vapidSubjectOf(env, publicOrigins),
    historyMinuteRetentionDays,
    historyHourRetentionDays,
    deviceMessages: {
      perSecond: numberOf(env, "DEVICE_MESSAGES_PER_SECOND", DEFAULT_DEVICE_MESSAGES_PER_SECOND, 0.01, 100_000),
      burst: intOf(env, "DEVICE_MESSAGE_BURST", DEFAULT_DEVICE_MESSAGE_BURST, 1, 1_000_000),
    },
    exports: { perClient: intOf(env, "EXPORTS_PER_CLIENT", 2, 1, 1000), perNode: intOf(env, "EXPORTS_PER_NODE", 8, 1, 10_000) },
  };
}
