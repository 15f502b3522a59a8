import { type } from "arktype";
import type { RequestSchema } from "../../src/contract/api.ts";
import { AppError } from "../errors.ts";

/**
 * Validates wire input against a contract schema. Answers the morphed value, or throws a 400
 * whose message is the first problem (what the app shows) and whose `errors` lists them all.
 */
export function parse<S extends RequestSchema>(rs: S, data: unknown): S["schema"]["infer"] {
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new AppError("BAD_REQUEST", "The request body must be a JSON object");
  }
  const out = rs.schema(data);
  if (!(out instanceof type.errors)) return out as S["schema"]["infer"];
  const errors = [...out].map((e) => {
    const path = e.path.map(String).join(".");
    const key = String(e.path.at(-1) ?? "");
    let message = e.message;
    if (e.code === "required") message = rs.missing[path] ?? `${key} is required`;
    else if (/ must be removed$/.test(e.message)) message = `Unknown field: ${path}`;
    return { path, message };
  });
  // Report in form order: the fields SPEC §5 names first (as `missing` lists them), then the body's own order.
  const order = [...Object.keys(rs.missing), ...Object.keys(data)];
  const rank = (path: string) => {
    const i = order.indexOf(path.split(".")[0]!);
    return i === -1 ? order.length : i;
  };
  errors.sort((a, b) => rank(a.path) - rank(b.path));
  throw new AppError("VALIDATION", errors[0]!.message, errors);
}

/** A positive 32-bit id from a path segment. */
export function idParam(value: string | undefined, what: string): number {
  if (!value || !/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) {
    throw new AppError("VALIDATION", `${what} id must be a positive whole number`);
  }
  return Number(value);
}
