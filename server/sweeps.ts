import type { FastifyPluginAsync } from "fastify";
import { sweepLoginRecords } from "./auth/login-guard.ts";
import type { Sql } from "./db/database.ts";

export interface SweepOptions {
  db: Sql;
  /** A session unused this long is swept (SessionConfig.idleMs). */
  sessionIdleMs: number;
  /** How often (default hourly). */
  everyMs?: number;
}

/**
 * Expired sessions are refused on use and old sign-in failures no longer count: these sweeps only
 * keep the tables small. They run while the server runs, from when it is ready until it closes.
 */
export const sweeps: FastifyPluginAsync<SweepOptions> = async (app, o) => {
  let timer: NodeJS.Timeout | undefined;
  const sweep = () => {
    const now = app.now();
    app.repos.sessions.deleteExpired(now, new Date(now.getTime() - o.sessionIdleMs)).catch((err: Error) => app.log.warn({ err }, "session sweep failed"));
    sweepLoginRecords(o.db, now).catch((err: Error) => app.log.warn({ err }, "sign-in records sweep failed"));
  };
  app.addHook("onReady", async () => {
    timer = setInterval(sweep, o.everyMs ?? 3600_000);
    timer.unref();
  });
  app.addHook("onClose", async () => clearInterval(timer));
};
