import { resolve } from "node:path";

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
  /** Days reading history keeps minute rollups. */
  historyMinuteRetentionDays: number;
  /** Days it keeps hourly rollups, device state changes and the command log (at least the minutes' days). */
  historyHourRetentionDays: number;
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
    host: env.HOST || "0.0.0.0",
    dataDir: resolve(env.DATA_DIR || "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisSocketStream: env.REDIS_SOCKET_STREAM || "mushroom-farm:socket.io",
    publicOrigins,
    scryptLog2N: intOf(env, "SCRYPT_LOG2N", 17, 10, 20),
    loginAttemptsPerMinute: intOf(env, "LOGIN_ATTEMPTS_PER_MINUTE", 20, 1, 100_000),
    maxConnectionsPerAddress: intOf(env, "MAX_CONNECTIONS_PER_ADDRESS", 256, 0, 1_000_000),
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
      : { mode: "embedded", host: env.MQTT_HOST || env.HOST || "0.0.0.0", port: intOf(env, "MQTT_PORT", 1883, 0, 65535) },
    demo: env.DEMO !== "0" && !env.MQTT_URL,
    demoHz: numberOf(env, "DEMO_HZ", 0.5, 0.01, 10),
    // Real time by default: the live curves go on from the seeded day at its pace, and the alarms' grace periods read true.
    demoSpeed: numberOf(env, "DEMO_SPEED", 1, 1, 3600),
    demoIncidentMinutes: numberOf(env, "DEMO_INCIDENT_MINUTES", 45, 0, 1440),
    alarmGraceMs: intOf(env, "ALARM_GRACE_SECONDS", 300, 0, 86_400) * 1000,
    alarmHoldMs: intOf(env, "ALARM_HOLD_SECONDS", 120, 0, 86_400) * 1000,
    firebaseServiceAccount: env.FIREBASE_SERVICE_ACCOUNT || undefined,
    historyMinuteRetentionDays,
    historyHourRetentionDays,
  };
}
