import { createHash, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Sql } from "../db/database.ts";
import { loginGuardRepo } from "../db/login-guard-repo.ts";
import type { ErrorParams, ErrorReason } from "../../src/contract/error-reasons.ts";
import { refusal, type AppError } from "../errors.ts";

export interface LoginGuardConfig {
  /** Sign-in (and registration) attempts one source address may make per minute. */
  perAddressPerMinute: number;
  /** Failed sign-ins in a row for one username before it is locked. */
  lockAfter: number;
  /** The first lock; each further failure after it doubles the lock, up to `maxLockMs`. */
  firstLockMs: number;
  maxLockMs: number;
  /** Send the known-browser cookie only over HTTPS. */
  secure: boolean;
}

export const DEFAULT_LOGIN_GUARD: LoginGuardConfig = { perAddressPerMinute: 20, lockAfter: 5, firstLockMs: 30_000, maxLockMs: 15 * 60_000, secure: false };

const KNOWN_COOKIE = "known";
const KNOWN_MAX_AGE_S = 365 * 24 * 3600;
/** A username's failures are forgotten after a day without one (unless it is still locked). */
const FAILURES_KEPT_MS = 24 * 3600_000;

/** "30 seconds", "1 minute", "4 minutes": how long until a lock ends, for people. */
export function waitWords(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 60) return `${s} second${s === 1 ? "" : "s"}`;
  const m = Math.ceil(s / 60);
  return `${m} minute${m === 1 ? "" : "s"}`;
}

/**
 * A 429 whose message says why and when to come back ("… Try again in 30 seconds."); its reason
 * says why for the app, and `retry_seconds` when (the app words the wait in the person's language).
 */
export const tryAgainIn = (ms: number, why: string, reason: ErrorReason, params: ErrorParams = {}) =>
  refusal("RATE_LIMITED", reason, `${why} Try again in ${waitWords(ms)}.`, { ...params, retry_seconds: Math.max(1, Math.ceil(ms / 1000)) });

/**
 * The route options of a per-address limit on attempts (sign-in, registration, invitation codes):
 * `max` a minute from one address, then 429. The plugin sets Retry-After; the answer is ours
 * ({code, message}, the words of `tryAgainIn`).
 */
export function perAddressLimit(max: number) {
  return {
    rateLimit: {
      max,
      timeWindow: 60_000,
      errorResponseBuilder: (_req: unknown, { ttl }: { ttl: number }) => tryAgainIn(ttl, "Too many attempts from your network.", "too_many_attempts"),
    },
  };
}
export type PerAddressLimit = ReturnType<typeof perAddressLimit>;

/** The same, with `Retry-After` set on the reply. */
function tooManyAttempts(reply: FastifyReply, ms: number, why: string, reason: ErrorReason): AppError {
  reply.header("Retry-After", String(Math.max(1, Math.ceil(ms / 1000))));
  return tryAgainIn(ms, why, reason);
}

/** Deletes failure counts and known browsers that no longer count, so the tables stay small (hourly). */
export function sweepLoginRecords(db: Sql, now: Date): Promise<number> {
  return loginGuardRepo(db).sweep(now, FAILURES_KEPT_MS, KNOWN_MAX_AGE_S * 1000);
}

/** Usernames and emails sign in without regard to case: so are they counted. */
const keyOf = (username: string) => username.trim().toLowerCase();
const hashToken = (token: string) => createHash("sha256").update(token).digest("base64url");

/**
 * The account side of sign-in throttling. Every failed sign-in counts against the username that
 * was typed, whether or not it belongs to an account (a lock must not tell which ones exist);
 * after `lockAfter` failures in a row the username is locked, for longer with each further
 * failure. The owner still gets in from a browser that has signed in to the account before (a
 * long-lived random cookie, stored hashed), or once the lock has run out; a success clears the count.
 */
export function createLoginGuard(db: Sql, config: LoginGuardConfig, now: () => Date) {
  const repo = loginGuardRepo(db);
  const lockFor = (failures: number) =>
    failures < config.lockAfter ? 0 : Math.min(config.maxLockMs, config.firstLockMs * 2 ** (failures - config.lockAfter));

  return {
    /**
     * Throws a 429 when `username` is locked, unless this browser has signed in to `clientId`
     * (the account the username names, if any) before.
     */
    async check(req: FastifyRequest, reply: FastifyReply, username: string, clientId: number | undefined): Promise<void> {
      const until = await repo.lockedUntil(keyOf(username));
      const left = until ? until.getTime() - now().getTime() : 0;
      if (left <= 0) return;
      const token = req.cookies[KNOWN_COOKIE];
      if (clientId !== undefined && token && token.length <= 100 && (await repo.isKnown(hashToken(token), clientId))) return;
      throw tooManyAttempts(reply, left, "Too many failed sign-in attempts for this account.", "too_many_sign_in_failures");
    },
    async failed(username: string): Promise<void> {
      await repo.fail(keyOf(username), now(), lockFor);
    },
    /** Clears the count and remembers this browser for the account. */
    async succeeded(req: FastifyRequest, reply: FastifyReply, username: string, clientId: number): Promise<void> {
      await repo.clear(keyOf(username));
      const previous = req.cookies[KNOWN_COOKIE];
      const token = previous && previous.length <= 100 ? previous : randomBytes(32).toString("base64url");
      await repo.remember(hashToken(token), clientId, now());
      reply.setCookie(KNOWN_COOKIE, token, { path: "/api/clients/login", httpOnly: true, sameSite: "strict", secure: config.secure, maxAge: KNOWN_MAX_AGE_S });
    },
  };
}

export type LoginGuard = ReturnType<typeof createLoginGuard>;
