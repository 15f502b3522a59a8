import { CoreError, toCoreError } from "../../contract/core-error.ts";
import type { ErrorParams, ErrorReason } from "../../contract/error-reasons.ts";
import type { FieldError } from "../../contract/errors.ts";
import type { CommandAck } from "../../contract/realtime.ts";
import { ROLES, RIGHTS, type Right, type Role } from "../../contract/team-values.ts";
import { numberFormat } from "../i18n/format.ts";
import { currentLocale, i18n } from "../i18n/i18n.ts";

/**
 * What the server said when it refused a request, for the person: in English its own message, to
 * the letter (SPEC §8); in another language the translation of its precise reason (namespace
 * `errors`), else of its coarse code. The server's messages stay English (logs, API users).
 */

const DEVICE_KINDS = ["mcu", "controller", "sensor"] as const;
const isDeviceKind = (v: unknown): v is (typeof DEVICE_KINDS)[number] => (DEVICE_KINDS as readonly unknown[]).includes(v);
const isRole = (v: unknown): v is Role => (ROLES as readonly unknown[]).includes(v);
const isRight = (v: unknown): v is Right => typeof v === "string" && Object.hasOwn(RIGHTS, v);

/** How long until the person may try again, in words: seconds under a minute, else whole minutes (as the server words it). */
function waitWords(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  return s < 60 ? i18n.t("errors:wait.seconds", { count: s }) : i18n.t("errors:wait.minutes", { count: Math.ceil(s / 60) });
}

/** A reason's text with its values in the person's language and digits (roles, rights and device kinds named in it too). */
export function reasonText(reason: ErrorReason, params: ErrorParams = {}): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === "count" && typeof value === "number") values.count = value;
    else if (name === "retry_seconds" && typeof value === "number") values.wait = waitWords(value);
    else if (name === "role" && isRole(value)) values.role = i18n.t(`errors:roles.${value}`);
    else if (name === "right" && isRight(value)) values.right = i18n.t(`errors:rights.${value}`);
    else if (reason === "mac_other_kind" && (name === "kind" || name === "expected") && isDeviceKind(value)) values[name] = i18n.t(`errors:deviceKinds.${value}`);
    else values[name] = typeof value === "number" ? numberFormat().format(value) : value;
  }
  return i18n.t(`errors:reasons.${reason}`, values);
}

const inEnglish = () => currentLocale().language === "en";

/**
 * The words for a refusal the server answered with (a CoreError whose `serverMessage` it sent);
 * null for any other failure (the network, a timeout: the caller's own words say it).
 */
export function refusalText(err: unknown): string | null {
  if (!(err instanceof CoreError) || !err.serverMessage) return null;
  if (inEnglish()) return err.serverMessage;
  return err.reason ? reasonText(err.reason, err.params) : i18n.t(`errors:codes.${err.code}`);
}

/** The words for a switch or settings refresh the server (or the device) refused: its message in English, its reason's translation otherwise. */
export function ackText(ack: Extract<CommandAck, { ok: false }>): string {
  if (inEnglish()) return ack.message;
  return ack.reason ? reasonText(ack.reason, ack.params) : i18n.t("errors:reasons.command_not_sent");
}

/** The words for one refused field, shown at the field: the server's in English, the translation of its reason otherwise. */
export function fieldRefusalText(e: FieldError): string {
  if (inEnglish()) return e.message;
  return e.reason ? reasonText(e.reason, e.params) : i18n.t("errors:codes.VALIDATION");
}

/**
 * What went wrong with a call, for a sentence such as "The members could not be loaded: …": the
 * server's refusal as refusalText says it, else (no answer, a timeout, a broken answer) the data
 * core's own words in English and their code's translation in another language.
 */
export function failureText(err: unknown): string {
  const refused = refusalText(err);
  if (refused !== null) return refused;
  const e = toCoreError(err);
  return inEnglish() ? e.message : i18n.t(`errors:codes.${e.code}`);
}
