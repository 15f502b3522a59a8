import type { ErrorParams, ErrorReason } from "../src/contract/error-reasons.ts";
import type { ErrorCode, FieldError } from "../src/contract/errors.ts";
import type { CommandAck } from "../src/contract/realtime.ts";

/** Why a request was refused, precisely: what every error answer names beside its coarse code. */
export interface Why {
  reason: ErrorReason;
  params?: ErrorParams;
}

/** A field error as the server writes it: always with its reason (the contract's type lets an app meet one without, from an older server). */
export type ReasonedFieldError = FieldError & { reason: ErrorReason };

/**
 * An error whose message is meant for the user; anything else is reported as INTERNAL. Its
 * `message` stays English (logs, API users, the app in English); `reason` and `params` say the
 * same for the app to translate. Every answer names its reason: without one the app can only say
 * the coarse code's text in another language.
 */
export class AppError extends Error {
  readonly reason: ErrorReason;
  readonly params?: ErrorParams;
  readonly errors?: ReasonedFieldError[];
  constructor(
    readonly code: ErrorCode,
    message: string,
    why: Why,
    errors?: ReasonedFieldError[],
  ) {
    super(message);
    this.name = "AppError";
    this.reason = why.reason;
    if (why.params) this.params = why.params;
    if (errors) this.errors = errors;
  }
}

/** A socket acknowledgement as the server sends it: a refusal always with its reason (the contract's type lets an app meet one without, from an older server). */
export type ServerAck = { ok: true } | (Extract<CommandAck, { ok: false }> & { reason: ErrorReason });

/** A refusal a person sees: its coarse code, its precise reason (with the values its text names), and the English message. */
export const refusal = (code: ErrorCode, reason: ErrorReason, message: string, params?: ErrorParams, errors?: ReasonedFieldError[]) =>
  new AppError(code, message, params ? { reason, params } : { reason }, errors);

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
