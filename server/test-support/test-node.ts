import type { AppConfig } from "../app.ts";
import { createPasswordHasher } from "../auth/password.ts";
import { migrate } from "../db/migrate.ts";
import { DEFAULT_SESSION } from "../http/session.ts";
import { startSystem, type System } from "../system.ts";
import { openTestDatabase } from "./test-server.ts";

/**
 * One whole server node on loopback (HTTP on a free port, the embedded broker, the gateway, the
 * sockets), with the HTTP settings a test gives: what `GET /api/metrics` reports on.
 */
export async function startTestNode(http: Partial<AppConfig> = {}): Promise<{ system: System; close(): Promise<void> }> {
  const { db, drop } = await openTestDatabase();
  await migrate(db);
  const system = await startSystem({
    db,
    hasher: createPasswordHasher({ log2N: 10 }),
    http: { host: "127.0.0.1", port: 0, allowedOrigins: [], session: DEFAULT_SESSION, loginGuard: { perAddressPerMinute: 100_000 }, ...http },
    mqtt: { mode: "embedded", host: "127.0.0.1", port: 0 },
  });
  return {
    system,
    async close() {
      await system.close();
      await db.close();
      await drop();
    },
  };
}
