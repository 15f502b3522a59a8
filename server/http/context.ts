import type { ClaimGuard } from "../auth/claim-guard.ts";
import type { LoginGuard, PerAddressLimit } from "../auth/login-guard.ts";
import type { PasswordHasher } from "../auth/password.ts";
import type { Repositories } from "../db/repositories.ts";
import type { EventBus } from "../events.ts";
import type { Sessions } from "./session.ts";

/** Sign-in, sessions and the limits on guessing, as the routes use them. */
export interface Access {
  hasher: PasswordHasher;
  sessions: Sessions;
  loginGuard: LoginGuard;
  /**
   * The route options that limit the attempts one address may make per minute at what can be
   * guessed (sign-in, registration, invitation codes): one budget, set by LOGIN_ATTEMPTS_PER_MINUTE.
   */
  perAddress: PerAddressLimit;
  /** Refused MCU claims (wrong MAC or claim code) per account and address. */
  claimGuard: ClaimGuard;
}

/** The client a signed-in request comes from (its session's). */
export interface SignedIn {
  clientId: number;
  idHash: string;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Every repository of the API, over the server's database (decorated once, in app.ts). */
    repos: Repositories;
    /** The server's event bus: routes raise what the device side, sockets and caches act on. */
    events: EventBus;
    access: Access;
    /** The server's clock (tests set it). */
    now: () => Date;
  }
  interface FastifyRequest {
    /**
     * The signed-in client, set by the signed-in scope's hook before any of its handlers runs (a
     * request without a live session is answered 401 there). Null outside that scope.
     */
    signedIn: SignedIn;
  }
}
