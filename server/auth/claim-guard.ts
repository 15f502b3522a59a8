import type { FastifyReply } from "fastify";
import { tryAgainIn } from "./login-guard.ts";

export interface ClaimGuardConfig {
  /** Refused claims an account, or an address, may have in a window before it must wait. */
  refusedPerWindow: number;
  windowMs: number;
}

export const DEFAULT_CLAIM_GUARD: ClaimGuardConfig = { refusedPerWindow: 10, windowMs: 15 * 60_000 };

/** Claims of one account or address waiting for one of theirs in flight to end; past this they are refused at once. */
const MAX_WAITING = 64;

/** An account's or address's claims in the current window. */
interface Tally {
  refused: number;
  /** Claims reserved and not yet ended: each may still be refused, so each counts as one. */
  inFlight: number;
  since: number;
  /** Claims waiting for one in flight to end, to be checked again. */
  waiting: (() => void)[];
}

/** A claim's reserved attempt: end it once the claim has run. */
export interface ClaimAttempt {
  /** `refused`: the claim was refused (a wrong MAC or code), its attempt stays counted; otherwise it is given back. */
  end(refused: boolean): void;
}

/**
 * Counts refused MCU claims (a wrong MAC or claim code) per account and per address, and stops
 * one that keeps guessing for the rest of the window. Each claim reserves its attempt in the tick
 * that checks the count, before it reaches the inventory: a burst of concurrent guesses is
 * checked against its own attempts too, not only against refusals already recorded. A claim that
 * succeeds gives its attempt back, so an installer adding a whole fleet is never slowed; one that
 * finds all the attempts left in flight waits for one of them to end rather than being refused
 * (as many as MAX_WAITING). In memory: a claim code's 60 bits need no shared count to stay out of
 * reach, this only keeps a guesser from hammering the inventory.
 */
export function createClaimGuard(config: ClaimGuardConfig, now: () => number = Date.now) {
  const tallies = new Map<string, Tally>();
  const keys = (clientId: number, address: string) => [`c:${clientId}`, `a:${address}`];
  /** The key's tally in the current window (a new one if it had none): refusals of a window past are forgotten. */
  const tallyOf = (key: string, t: number): Tally => {
    let e = tallies.get(key);
    if (e && t - e.since >= config.windowMs) {
      e.refused = 0;
      e.since = t;
    }
    if (!e) tallies.set(key, (e = { refused: 0, inFlight: 0, since: t, waiting: [] }));
    return e;
  };
  const forgetIfIdle = (key: string, e: Tally) => {
    if (e.refused === 0 && e.inFlight === 0 && e.waiting.length === 0 && tallies.get(key) === e) tallies.delete(key);
  };
  const refuse = (wait: number, reply: FastifyReply) => {
    reply.header("Retry-After", String(Math.max(1, Math.ceil(wait / 1000))));
    return tryAgainIn(wait, "Too many MCU claims were refused.", "too_many_claims");
  };

  return {
    /**
     * Reserves one attempt for this account and address, or throws the 429 (with Retry-After)
     * when their refusals are used up. Resolves once reserved: at once, or after waiting for one
     * of their claims in flight to end.
     */
    async reserve(clientId: number, address: string, reply: FastifyReply): Promise<ClaimAttempt> {
      const ks = keys(clientId, address);
      for (;;) {
        // Checked and reserved in one go, with no await between: no other claim runs in between.
        const t = now();
        const es = ks.map((k) => tallyOf(k, t));
        const usedUp = es.find((e) => e.refused >= config.refusedPerWindow);
        if (usedUp) {
          ks.forEach((k, i) => forgetIfIdle(k, es[i]!));
          throw refuse(usedUp.since + config.windowMs - t, reply);
        }
        const full = es.find((e) => e.refused + e.inFlight >= config.refusedPerWindow);
        if (!full) {
          for (const e of es) e.inFlight++;
          let ended = false;
          return {
            end(refused: boolean) {
              if (ended) return;
              ended = true;
              const at = now();
              ks.forEach((k, i) => {
                const e = es[i]!;
                e.inFlight--;
                // A refusal counts in the window it ends in (the tally's, renewed if the old one ran out).
                if (refused) tallyOf(k, at).refused++;
                // Each waiting claim checks again: one may take this attempt's place, or all are refused.
                for (const wake of e.waiting.splice(0)) wake();
                forgetIfIdle(k, e);
              });
              if (tallies.size > 100_000) {
                for (const [k, e] of tallies) {
                  if (at - e.since >= config.windowMs) e.refused = 0;
                  forgetIfIdle(k, e);
                }
              }
            },
          };
        }
        if (full.waiting.length >= MAX_WAITING) throw refuse(1000, reply);
        await new Promise<void>((resolve) => full.waiting.push(resolve));
      }
    },
  };
}

export type ClaimGuard = ReturnType<typeof createClaimGuard>;
