import { CoreError, type SerializedCoreError } from "./core-error.ts";

/** Why the core judged the session over: an API call answered 401, or the socket was refused. */
export type SessionEndCause = "api" | "socket";

/** What the core reports, once per session, when the server no longer knows it. */
export interface SessionEnded {
  clientId: number;
  cause: SessionEndCause;
}

/**
 * The failure of a call that needed the session after it had ended. The core has reported the end
 * already, and the app answers that report (one notice, /login); the call itself has nothing to add.
 */
export class SessionEndedError extends CoreError {
  constructor() {
    super("UNAUTHENTICATED", "Your session has ended. Please sign in again.", 401);
  }
}

/** A SessionEndedError as it crosses the worker boundary: the plain fields plus this mark. */
export type SerializedSessionEnded = SerializedCoreError & { sessionEnded: true };

export function isSessionEnded(err: unknown): boolean {
  return err instanceof SessionEndedError || (typeof err === "object" && err !== null && (err as { sessionEnded?: unknown }).sessionEnded === true);
}
