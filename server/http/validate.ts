import { type } from "arktype";
import type { RequestSchema } from "../../src/contract/api.ts";
import type { ErrorParams, ErrorReason } from "../../src/contract/error-reasons.ts";
import type { FieldError } from "../../src/contract/errors.ts";
import { refusal, type ReasonedFieldError } from "../errors.ts";

/**
 * A field error's reason, read from the words the contract's schemas give it (one place for every
 * schema's messages, rather than a code beside each): the app translates the reason, English keeps
 * the words. A message none of these fit (a type the schema words itself, "must be a string (was
 * number)") is `invalid_value`.
 */
const FIELD_REASONS: readonly [RegExp, ErrorReason, ((m: RegExpExecArray) => ErrorParams)?][] = [
  [/^Claim code is required$/, "claim_code_required"],
  [/^Please confirm your password$/, "confirm_password"],
  [/ is required$|^Type required$/, "required"],
  [/ must be at least (\d+) characters$/, "too_short", (m) => ({ min: Number(m[1]) })],
  [/ must be at most (\d+) characters$/, "too_long", (m) => ({ max: Number(m[1]) })],
  [/ contains a character that is not allowed$/, "bad_character"],
  [/^Invalid email address$/, "invalid_email"],
  [/^Invalid mobile number$/, "invalid_mobile"],
  [/^Please select your country$/, "choose_country"],
  [/^Passwords do not match$/, "passwords_differ"],
  [/^Invalid MAC address format$/, "invalid_mac"],
  [/^Claim code has /, "claim_code_format"],
  [/ must be a positive whole number$| must be a whole number$/, "whole_number"],
  [/ must be a number$/, "not_a_number"],
  [/ must be between (-?[\d.]+) and (-?[\d.]+)$| must be a whole number (?:of minutes )?from (-?\d+) to (-?\d+)$/, "out_of_range", (m) => ({ min: Number(m[1] ?? m[3]), max: Number(m[2] ?? m[4]) })],
  [/ must be an IANA time zone/, "invalid_time_zone"],
  [/^Unknown field: /, "unknown_field"],
  [/^language must be one of /, "invalid_language"],
  [/^digits must be one of /, "invalid_digits"],
  [/^(\S+) must be one of (.+)$/, "not_one_of", (m) => ({ field: m[1]!, choices: m[2]! })],
];

/** The field error with the reason of the first pattern its message fits. */
function withReason(error: FieldError): ReasonedFieldError {
  for (const [pattern, reason, params] of FIELD_REASONS) {
    const m = pattern.exec(error.message);
    if (m) return params ? { ...error, reason, params: params(m) } : { ...error, reason };
  }
  return { ...error, reason: "invalid_value" };
}

/**
 * Validates wire input against a contract schema. Answers the morphed value, or throws a 400
 * whose message is the first problem (what the app shows) and whose `errors` lists them all.
 */
export function parse<S extends RequestSchema>(rs: S, data: unknown): S["schema"]["infer"] {
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw refusal("BAD_REQUEST", "body_not_object", "The request body must be a JSON object");
  }
  const out = rs.schema(data);
  if (!(out instanceof type.errors)) return out as S["schema"]["infer"];
  const errors = [...out].map((e) => {
    const path = e.path.map(String).join(".");
    const key = String(e.path.at(-1) ?? "");
    let message = e.message;
    if (e.code === "required") message = rs.missing[path] ?? `${key} is required`;
    else if (/ must be removed$/.test(e.message)) message = `Unknown field: ${path}`;
    return withReason({ path, message });
  });
  // Report in form order: the fields SPEC §5 names first (as `missing` lists them), then the body's own order.
  const order = [...Object.keys(rs.missing), ...Object.keys(data)];
  const rank = (path: string) => {
    const i = order.indexOf(path.split(".")[0]!);
    return i === -1 ? order.length : i;
  };
  errors.sort((a, b) => rank(a.path) - rank(b.path));
  const first = errors[0]!;
  throw refusal("VALIDATION", first.reason, first.message, first.params, errors);
}

/** A positive 32-bit id from a path segment. */
export function idParam(value: string | undefined, what: string): number {
  if (!value || !/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) {
    throw refusal("VALIDATION", "whole_number", `${what} id must be a positive whole number`);
  }
  return Number(value);
}
