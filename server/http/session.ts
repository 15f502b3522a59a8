import { createHash, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { refusal } from "../errors.ts";
import { sessionsRepo, type SessionRow } from "../db/sessions-repo.ts";
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

/**
 * How long this node trusts a session it has read, before reading it again: a request of a
 * signed-in browser then costs no query to check its session (each query is a round trip to the
 * database thread, or to PostgreSQL, through a loop busy with devices). Sign-out and password
 * changes on this node forget the session at once; one ended on another node is refused here at
 * most this much later.
 */
const TRUST_MS = 1_000;

export const hashSessionId = (id: string) => createHash("sha256").update(id).digest("base64url");

export interface Sessions {
  /** Starts a session for `clientId` and sets its cookie; ends the session the request came with. */
  start(req: FastifyRequest, reply: FastifyReply, clientId: number): Promise<void>;
  /** The signed-in client of this request, or 401. */
  require(req: FastifyRequest): Promise<{ clientId: number; idHash: string }>;
  end(req: FastifyRequest, reply: FastifyReply): Promise<string | undefined>;
  /** The client of a raw cookie header (the realtime handshake), or undefined. */
  clientOfCookieHeader(cookieHeader: string | undefined): Promise<{ clientId: number; idHash: string } | undefined>;
  /** Forgets what this node knows of a session that ended (it is read again if it comes back). */
  forget(idHash: string): void;
}

export function createSessions(db: Database, config: SessionConfig, now: () => Date): Sessions {
  const repo = sessionsRepo(db);
  /** Sessions read lately, by id hash, until (wall clock) they are read again. */
  const trusted = new Map<string, { row: SessionRow; until: number }>();

  async function read(idHash: string): Promise<SessionRow | undefined> {
    const hit = trusted.get(idHash);
    if (hit && hit.until > Date.now()) return hit.row;
    const row = await repo.find(idHash);
    if (!row) {
      trusted.delete(idHash);
      return undefined;
    }
    if (trusted.size >= 10_000) trusted.clear();
    trusted.set(idHash, { row, until: Date.now() + TRUST_MS });
    return row;
  }

  async function resolve(id: string | undefined) {
    if (!id || id.length > 100) return undefined;
    const idHash = hashSessionId(id);
    const row = await read(idHash);
    if (!row) return undefined;
    const t = now().getTime();
    if (row.expires_at.getTime() <= t || row.last_seen_at.getTime() + config.idleMs <= t) {
      trusted.delete(idHash);
      await repo.delete(idHash);
      return undefined;
    }
    if (t - row.last_seen_at.getTime() >= TOUCH_EVERY_MS) {
      const at = now();
      await repo.touch(idHash, at);
      row.last_seen_at = at;
    }
    return { clientId: row.client_id, idHash };
  }

  return {
    async start(req, reply, clientId) {
      const previous = req.cookies[config.cookieName];
      if (previous) {
        trusted.delete(hashSessionId(previous));
        await repo.delete(hashSessionId(previous));
      }
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
      if (!session) throw refusal("UNAUTHENTICATED", "session_ended", "Your session has ended. Please sign in again.");
      return session;
    },

    async end(req, reply) {
      const id = req.cookies[config.cookieName];
      reply.clearCookie(config.cookieName, { path: "/", httpOnly: true, sameSite: "lax", secure: config.secure });
      if (!id) return undefined;
      const idHash = hashSessionId(id);
      trusted.delete(idHash);
      await repo.delete(idHash);
      return idHash;
    },

    forget(idHash) {
      trusted.delete(idHash);
    },

    async clientOfCookieHeader(cookieHeader) {
      const match = cookieHeader?.split(/;\s*/).find((c) => c.startsWith(`${config.cookieName}=`));
      return resolve(match ? decodeURIComponent(match.slice(config.cookieName.length + 1)) : undefined);
    },
  };
}
