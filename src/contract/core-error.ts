import type { ErrorParams, ErrorReason } from "./error-reasons.ts";
import { ERROR_CODES, type FieldError } from "./errors.ts";

/** Errors of the browser data core: the server's codes plus what can go wrong on the way. */
export const CORE_ERROR_CODES = [...ERROR_CODES, "NETWORK", "TIMEOUT", "BAD_RESPONSE", "NOT_STARTED"] as const;
export type CoreErrorCode = (typeof CORE_ERROR_CODES)[number];

/**
 * A failed call of the data core. `serverMessage` is the text the server sent, when it sent one:
 * SPEC §8 shows it, and falls back to its own text when there is none. `reason` and `params` say
 * the same for the app to translate (a person reading another language than English).
 */
export class CoreError extends Error {
  override readonly name = "CoreError";
  readonly reason: ErrorReason | null;
  readonly params: ErrorParams;
  constructor(
    readonly code: CoreErrorCode,
    message: string,
    readonly status: number | null = null,
    readonly serverMessage: string | null = null,
    /** Every field the server refused, by its dotted path, so a form shows each message at its field. */
    readonly fieldErrors: readonly FieldError[] = [],
    why: { reason?: ErrorReason | null; params?: ErrorParams } = {},
  ) {
    super(message);
    this.reason = why.reason ?? null;
    this.params = why.params ?? {};
  }
}

/** Plain data for crossing a thread boundary (structured clone drops class and fields). */
export interface SerializedCoreError {
  code: CoreErrorCode;
  message: string;
  status: number | null;
  serverMessage: string | null;
  fieldErrors: readonly FieldError[];
  reason: ErrorReason | null;
  params: ErrorParams;
}

export function serializeCoreError(e: CoreError): SerializedCoreError {
  return { code: e.code, message: e.message, status: e.status, serverMessage: e.serverMessage, fieldErrors: e.fieldErrors, reason: e.reason, params: e.params };
}

export function deserializeCoreError(s: SerializedCoreError): CoreError {
  return new CoreError(s.code, s.message, s.status, s.serverMessage, s.fieldErrors ?? [], { reason: s.reason ?? null, params: s.params ?? {} });
}

/** Normalises anything thrown into a CoreError, once. */
export function toCoreError(err: unknown): CoreError {
  if (err instanceof CoreError) return err;
  if (err instanceof DOMException && err.name === "TimeoutError") return new CoreError("TIMEOUT", "The server did not answer in time");
  if (err instanceof TypeError) return new CoreError("NETWORK", "Cannot reach the server. Check the connection.");
  return new CoreError("INTERNAL", err instanceof Error ? err.message : String(err));
}
