import { CLAIM_CODE_FORMAT, CLAIM_CODE_REQUIRED, formatClaimCode, isClaimCode } from "./claim-code.ts";
import { type } from "arktype";
import { EMAIL_PATTERN, MOBILE_PATTERN } from "./enums.ts";
import { MAC_PATTERN, normalizeMac } from "./mac.ts";

export { EMAIL_PATTERN, MOBILE_PATTERN };

/**
 * Field builders shared by the request schemas. Each one carries the exact message of
 * SPEC §5 where SPEC gives one, so the server answers with the text the app shows.
 */

/** NUL cannot be stored in PostgreSQL text, and no form has a reason to send one. */
const NUL = /\u0000/;

/** A required, trimmed string of at most `max` characters. Empty or blank gives `requiredMessage`. */
export function requiredText(label: string, requiredMessage: string, max: number) {
  return type("string")
    .pipe((s) => s.trim())
    .narrow((s, ctx) =>
      s.length === 0
        ? ctx.reject({ message: requiredMessage })
        : s.length > max
          ? ctx.reject({ message: `${label} must be at most ${max} characters` })
          : !NUL.test(s) || ctx.reject({ message: `${label} contains a character that is not allowed` }),
    );
}

/** An optional free text (may be empty), trimmed, at most `max` characters. */
export function optionalText(label: string, max: number) {
  return type("string")
    .pipe((s) => s.trim())
    .narrow((s, ctx) =>
      s.length > max
        ? ctx.reject({ message: `${label} must be at most ${max} characters` })
        : !NUL.test(s) || ctx.reject({ message: `${label} contains a character that is not allowed` }),
    );
}


export function emailField(requiredMessage: string) {
  return requiredText("Email", requiredMessage, 254).narrow(
    (s, ctx) => EMAIL_PATTERN.test(s) || ctx.reject({ message: "Invalid email address" }),
  );
}

/** Digits, spaces, dashes and parentheses with an optional leading plus (SPEC §5). */

/** A MAC in either separator style, normalised to `AA:BB:CC:DD:EE:FF`. */
export function macField() {
  return type("string")
    .narrow((s, ctx) =>
      s.trim().length === 0
        ? ctx.reject({ message: "MAC address is required" })
        : MAC_PATTERN.test(s.trim()) || ctx.reject({ message: "Invalid MAC address format" }),
    )
    .pipe((s) => normalizeMac(s));
}

/** An MCU's claim code as printed on its label, in its canonical form (`7K2M-9QXD-4TWA`). */
export function claimCodeField() {
  return type("string")
    .narrow((s, ctx) =>
      s.trim().length === 0 ? ctx.reject({ message: CLAIM_CODE_REQUIRED }) : (s.length <= 64 && isClaimCode(s)) || ctx.reject({ message: CLAIM_CODE_FORMAT }),
    )
    .pipe((s) => formatClaimCode(s));
}

/** A database id: a positive 32-bit integer, given as a number or as a string of digits. */
export function idField(label: string, requiredMessage?: string) {
  return type("unknown").pipe((v, ctx) => {
    if (v === null || v === undefined || v === "") {
      return ctx.error({ message: requiredMessage ?? `${label} is required` });
    }
    const n = typeof v === "number" ? v : typeof v === "string" && /^\d{1,10}$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > 2_147_483_647) {
      return ctx.error({ message: `${label} must be a positive whole number` });
    }
    return n;
  });
}

/** A finite number within [min, max]; numeric strings are converted (SPEC §5: converted on submit). */
export function numberIn(label: string, min: number, max: number) {
  return type("unknown").pipe((v, ctx) => {
    const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
    if (!Number.isFinite(n)) return ctx.error({ message: `${label} must be a number` });
    if (n < min || n > max) return ctx.error({ message: `${label} must be between ${min} and ${max}` });
    return n;
  });
}
