import type { ErrorCode, FieldError } from "../src/contract/errors.ts";

/** An error whose message is meant for the user; anything else is reported as INTERNAL. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);

/** PostgreSQL's unique_violation, raised by both pg and PGlite. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === "23505" && (constraint === undefined || e.constraint === constraint);
}
