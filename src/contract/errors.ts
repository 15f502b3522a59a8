import type { ErrorParams, ErrorReason } from "./error-reasons.ts";

/**
 * Every error the API can answer with. The server sends `{ code, message }`, and for a refusal a
 * person sees, a precise `reason` with its `params` (error-reasons.ts); the app shows `message`
 * in English (SPEC §8), the translation of `reason` in another language, and branches on `code` only.
 */
export const ERROR_CODES = [
  "BAD_REQUEST", // malformed JSON, wrong content type, a body where none belongs
  "VALIDATION", // a well-formed body, param or query that breaks a rule
  "UNAUTHENTICATED", // no session, or it expired
  "INVALID_CREDENTIALS",
  "FORBIDDEN", // a client_id in the path that is not the session's client, or a farm role without the right
  "BAD_ORIGIN", // a state-changing request from an origin that is not allowed
  "NOT_FOUND",
  "CONFLICT", // a unique value (MAC, username, email) is taken, or a delete would orphan data
  "GONE", // an invitation that expired or was revoked
  "alarm_resolved", // acknowledging an alarm that has resolved meanwhile (spelled as alarms-values.ts names it)
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "RATE_LIMITED",
  "INTERNAL",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldError {
  /** Dotted path of the offending field, e.g. `config.ac.target_temp`. */
  path: string;
  message: string;
  /** Why this field was refused, for the app to say in the person's language; absent when the server has no precise word for it. */
  reason?: ErrorReason;
  params?: ErrorParams;
}

export interface ApiErrorBody {
  code: ErrorCode;
  /** English, for logs and API users; what the app shows in English. */
  message: string;
  reason?: ErrorReason;
  params?: ErrorParams;
  errors?: FieldError[];
}

export const HTTP_STATUS_OF: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  BAD_ORIGIN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  alarm_resolved: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
};
