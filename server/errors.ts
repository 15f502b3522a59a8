import type { ErrorParams, ErrorReason } from "../src/contract/error-reasons.ts";
import type { ErrorCode, FieldError } from "../src/contract/errors.ts";

/**
 * An error whose message is meant for the user; anything else is reported as INTERNAL. Its
 * `message` stays English (logs, API users, the app in English); `reason` and `params` say the
 * same for the app to translate (a field error's own reason when the first field's is the answer's).
 */
export class AppError extends Error {
  readonly reason?: ErrorReason;
  readonly params?: ErrorParams;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    why?: { reason: ErrorReason; params?: ErrorParams },
  ) {
    super(message);
    this.name = "AppError";
    const reason = why?.reason ?? errors?.[0]?.reason;
    const params = why ? why.params : errors?.[0]?.params;
    if (reason) this.reason = reason;
    if (params) this.params = params;
  }
}

/** A refusal a person sees: its coarse code, its precise reason (with the values its text names), and the English message. */
export const refusal = (code: ErrorCode, reason: ErrorReason, message: string, params?: ErrorParams, errors?: FieldError[]) =>
  new AppError(code, message, errors, params ? { reason, params } : { reason });

/** What a path or body may name that is not there, and the reason of each. */
const NOT_FOUND_REASONS = {
  Farm: "farm_not_found",
  MCU: "mcu_not_found",
  Controller: "controller_not_found",
  Sensor: "sensor_not_found",
  Profile: "profile_not_found",
  Link: "link_not_found",
  Recipe: "recipe_not_found",
  Batch: "batch_not_found",
  Harvest: "harvest_not_found",
  Alarm: "alarm_not_found",
  Member: "member_not_found",
  Invitation: "invitation_not_found",
  Client: "client_not_found",
} as const satisfies Record<string, ErrorReason>;
export type Missing = keyof typeof NOT_FOUND_REASONS;

export const notFound = (what: Missing) => refusal("NOT_FOUND", NOT_FOUND_REASONS[what], `${what} not found`);

/** PostgreSQL's unique_violation, raised by both pg and PGlite. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === "23505" && (constraint === undefined || e.constraint === constraint);
}
