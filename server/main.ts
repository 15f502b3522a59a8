import { mkdir } from "node:fs/promises";
import { buildApp } from "./app.ts";
import { createPasswordHasher } from "./auth/password.ts";
import { readConfig } from "./config.ts";
import { openPglite, openPostgres, type Database } from "./db/database.ts";
import { migrate } from "./db/migrate.ts";
import { sessionsRepo } from "./db/sessions-repo.ts";
import { DEFAULT_SESSION } from "./http/session.ts";

const config = readConfig();

let db: Database;
if (config.databaseUrl) {
  db = await openPostgres(config.databaseUrl);
} else {
  await mkdir(config.dataDir, { recursive: true });
  db = await openPglite(config.dataDir);
}
const applied = await migrate(db);

const secure = config.publicOrigins.some((o) => o.startsWith("https://"));
const app = await buildApp({
  db,
  hasher: createPasswordHasher({ log2N: config.scryptLog2N }),
  config: {
    allowedOrigins: config.publicOrigins,
    session: { ...DEFAULT_SESSION, secure },
    staticDir: config.staticDir,
    logger: { level: config.logLevel },
    trustProxy: secure,
  },
});

// Expired sessions are refused on use; this only keeps the table small.
const sweep = setInterval(() => {
  const now = new Date();
  sessionsRepo(db)
    .deleteExpired(now, new Date(now.getTime() - DEFAULT_SESSION.idleMs))
    .catch((err: Error) => app.log.warn({ err }, "session sweep failed"));
}, 3600_000);
sweep.unref();

await app.listen({ port: config.port, host: config.host });
const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.dataDir}`;
app.log.info(`Database: ${where}${applied.length ? `; applied migrations ${applied.join(", ")}` : ""}`);
console.log(`\n  Mushroom farm is running: http://localhost:${config.port}\n`);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: shutting down`);
  const force = setTimeout(() => {
    console.error("Shutdown took longer than 10 s; exiting.");
    process.exit(1);
  }, 10_000);
  force.unref();
  clearInterval(sweep);
  try {
    await app.close(); // stops accepting, lets in-flight requests finish
    await db.close();
    process.exit(0);
  } catch (err) {
    console.error("Shutdown failed:", err);
    process.exit(1);
  }
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
