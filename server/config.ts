import { resolve } from "node:path";

/** Everything the server reads from its environment, with the defaults of the README. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicOrigins: string[];
  scryptLog2N: number;
  staticDir: string;
  logLevel: string;
}

function intOf(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max} (was "${raw}")`);
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
  return {
    port: intOf(env, "PORT", 8080, 0, 65535),
    host: env.HOST || "0.0.0.0",
    dataDir: resolve(env.DATA_DIR || "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    publicOrigins,
    scryptLog2N: intOf(env, "SCRYPT_LOG2N", 17, 10, 20),
    staticDir: resolve(env.STATIC_DIR || "./dist"),
    logLevel: env.LOG_LEVEL || "info",
  };
}
