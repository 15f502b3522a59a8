import { createHash, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors.ts";
import { sessionsRepo } from "../db/sessions-repo.ts";
import type { Database } from "../db/database.ts";

export interface SessionConfig {
  cookieName: string;
  /** A session unused this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in however active it is. */
  absoluteMs: number;
  /** Send the cookie only over HTTPS. */
  secure: boolean;
}

export const DEFAULT_SESSION: SessionConfig = {
  cookieName: "sid",
  idleMs: 7 * 24 * 3600_000,
  absoluteMs: 30 * 24 * 3600_000,
  secure: false,
};

/** How stale last_seen may get before a request writes it again: spares a write per request. */
const TOUCH_EVERY_MS = 60_000;

export const hashSessionId = (id: string) => createHash("sha256").update(id).digest("base64url");

export interface Sessions {
  /** Starts a session for `clientId` and sets its cookie; ends the session the request came with. */
  start(req: FastifyRequest, reply: FastifyReply, clientId: number): Promise<void>;
  /** The signed-in client of this request, or 401. */
  require(req: FastifyRequest): Promise<{ clientId: number; idHash: string }>;
  end(req: FastifyRequest, reply: FastifyReply): Promise<string | undefined>;
  /** The client of a raw cookie header (the realtime handshake), or undefined. */
  clientOfCookieHeader(cookieHeader: string | undefined): Promise<{ clientId: number; idHash: string } | undefined>;
}

export function createSessions(db: Database, config: SessionConfig, now: () => Date): Sessions {
  const repo = sessionsRepo(db);

  async function resolve(id: string | undefined) {
    if (!id || id.length > 100) return undefined;
    const idHash = hashSessionId(id);
    const row = await repo.find(idHash);
    if (!row) return undefined;
    const t = now().getTime();
    if (row.expires_at.getTime() <= t || row.last_seen_at.getTime() + config.idleMs <= t) {
      await repo.delete(idHash);
      return undefined;
    }
    if (t - row.last_seen_at.getTime() >= TOUCH_EVERY_MS) await repo.touch(idHash, now());
    return { clientId: row.client_id, idHash };
  }

  return {
    async start(req, reply, clientId) {
      const previous = req.cookies[config.cookieName];
      if (previous) await repo.delete(hashSessionId(previous));
      const id = randomBytes(32).toString("base64url");
      const at = now();
      await repo.create(hashSessionId(id), clientId, at, new Date(at.getTime() + config.absoluteMs));
      reply.setCookie(config.cookieName, id, {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure: config.secure,
        maxAge: Math.floor(config.absoluteMs / 1000),
      });
    },

    async require(req) {
      const session = await resolve(req.cookies[config.cookieName]);
      if (!session) throw new AppError("UNAUTHENTICATED", "Your session has ended. Please sign in again.");
      return session;
    },

    async end(req, reply) {
      const id = req.cookies[config.cookieName];
      reply.clearCookie(config.cookieName, { path: "/", httpOnly: true, sameSite: "lax", secure: config.secure });
      if (!id) return undefined;
      const idHash = hashSessionId(id);
      await repo.delete(idHash);
      return idHash;
    },

    async clientOfCookieHeader(cookieHeader) {
      const match = cookieHeader?.split(/;\s*/).find((c) => c.startsWith(`${config.cookieName}=`));
      return resolve(match ? decodeURIComponent(match.slice(config.cookieName.length + 1)) : undefined);
    },
  };
}
