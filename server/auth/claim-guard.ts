import type { FastifyReply } from "fastify";
import { tryAgainIn } from "./login-guard.ts";

export interface ClaimGuardConfig {
  /** Refused claims an account, or an address, may have in a window before it must wait. */
  refusedPerWindow: number;
  windowMs: number;
}

export const DEFAULT_CLAIM_GUARD: ClaimGuardConfig = { refusedPerWindow: 10, windowMs: 15 * 60_000 };

/**
 * Counts refused MCU claims (a wrong MAC or claim code) per account and per address, and stops
 * one that keeps guessing for the rest of the window. Successful claims cost nothing, so an
 * installer adding a whole fleet is never slowed. In memory: a claim code's 60 bits need no
 * shared count to stay out of reach, this only keeps a guesser from hammering the inventory.
 */
export function createClaimGuard(config: ClaimGuardConfig, now: () => number = Date.now) {
  const refused = new Map<string, { count: number; since: number }>();
  const keys = (clientId: number, address: string) => [`c:${clientId}`, `a:${address}`];
  const live = (key: string, t: number) => {
    const e = refused.get(key);
    if (e && t - e.since >= config.windowMs) refused.delete(key);
    return refused.get(key);
  };
  return {
    /** Throws the 429 (with Retry-After) when this account or address has used up its refusals. */
    check(clientId: number, address: string, reply: FastifyReply): void {
      const t = now();
      for (const key of keys(clientId, address)) {
        const e = live(key, t);
        if (e && e.count >= config.refusedPerWindow) {
          const wait = e.since + config.windowMs - t;
          reply.header("Retry-After", String(Math.max(1, Math.ceil(wait / 1000))));
          throw tryAgainIn(wait, "Too many MCU claims were refused.");
        }
      }
    },
    refused(clientId: number, address: string): void {
      const t = now();
      for (const key of keys(clientId, address)) {
        const e = live(key, t);
        if (e) e.count++;
        else refused.set(key, { count: 1, since: t });
      }
      if (refused.size > 100_000) for (const key of refused.keys()) live(key, t);
    },
  };
}

export type ClaimGuard = ReturnType<typeof createClaimGuard>;
