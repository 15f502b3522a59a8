import type { TFunction } from "i18next";
import type { FieldError } from "../../../contract/errors.ts";
import { ROTA_LIMITS } from "../../../contract/rota-values.ts";
import type { Rota, RotaRequest } from "../../../contract/rota.ts";
import { fieldRefusalText } from "../../components/server-refusal.ts";
import { formatFixed } from "../../i18n/format.ts";

/** A shift as the form edits it: a person not chosen yet is null; `key` keeps its row as it moves. */
export interface ShiftDraft {
  key: number;
  client_id: number | null;
  days: number[];
  start: string;
  end: string;
}

/** The rota as the form edits it: the minutes as typed. */
export interface RotaDraft {
  time_zone: string;
  repeat: string;
  escalate: string;
  shifts: ShiftDraft[];
}

/** The messages of a refused save, by the form's field ("repeat_minutes", "shifts.2.start"; "form" for the rest). */
export type RotaErrors = Record<string, string>;

let nextKey = 1;
export const newShiftKey = (): number => nextKey++;

/** A new shift: the working week's days, in the day. */
export const newShift = (): ShiftDraft => ({ key: newShiftKey(), client_id: null, days: [1, 2, 3, 4, 5], start: "08:00", end: "18:00" });

/**
 * The form's start from the saved rota. A farm without one (no shift, the server's UTC) starts in
 * this browser's time zone: the farmer's own clock, not UTC, is what the shifts are written in.
 */
export function draftOf(rota: Rota, browserZone: string): RotaDraft {
  const unsaved = rota.shifts.length === 0 && rota.time_zone === "UTC";
  return {
    time_zone: unsaved ? browserZone : rota.time_zone,
    repeat: String(rota.repeat_minutes),
    escalate: String(rota.escalate_minutes),
    shifts: rota.shifts.map((s) => ({ key: newShiftKey(), client_id: s.client_id, days: [...s.days].sort((a, b) => a - b), start: s.start, end: s.end })),
  };
}

/** The limits of a minutes field, in the reader's digits. */
const limits = (l: { min: number; max: number }) => ({ min: formatFixed(l.min, 0), max: formatFixed(l.max, 0) });
const wholeMinutes = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : NaN);

/**
 * The request of the draft, or what the form must fix first: what the server cannot be sent (a
 * shift without a person, minutes that are not a number). The other rules are the server's, and
 * its messages come back at their fields (`fieldOfPath`).
 */
export function requestOf(t: TFunction<"team">, draft: RotaDraft): { request: RotaRequest } | { errors: RotaErrors } {
  const errors: RotaErrors = {};
  const repeat = wholeMinutes(draft.repeat);
  const escalate = wholeMinutes(draft.escalate);
  if (Number.isNaN(repeat)) errors.repeat_minutes = t("rota.repeatProblem", limits(ROTA_LIMITS.repeat));
  if (Number.isNaN(escalate)) errors.escalate_minutes = t("rota.escalateProblem", limits(ROTA_LIMITS.escalate));
  draft.shifts.forEach((s, i) => {
    if (s.client_id === null) errors[`shifts.${i}.client_id`] = t("rota.choosePerson");
  });
  if (Object.keys(errors).length > 0) return { errors };
  return {
    request: {
      time_zone: draft.time_zone.trim(),
      repeat_minutes: repeat,
      escalate_minutes: escalate,
      shifts: draft.shifts.map((s) => ({ client_id: s.client_id!, days: s.days, start: s.start, end: s.end })),
    },
  };
}

const FIELDS = /^(time_zone|repeat_minutes|escalate_minutes|shifts\.\d+\.(?:client_id|days|start|end)|shifts)(?:\.|$)/;

/** The form's field a path of the server's answer is about ("shifts.0.days.2" is the first shift's days). */
export function fieldOfPath(path: string): string {
  return FIELDS.exec(path)?.[1] ?? "form";
}

/** The server's refusal as messages by field, the first message of each field; `message` where it names none. */
export function errorsOfRefusal(fieldErrors: readonly FieldError[], message: string): RotaErrors {
  const errors: RotaErrors = {};
  for (const e of fieldErrors) errors[fieldOfPath(e.path)] ??= fieldRefusalText(e);
  // The headline says more than the fields when it is none of theirs ("Only the farm's members who … can be on call").
  if (!fieldErrors.some((e) => fieldRefusalText(e) === message)) errors.form ??= message;
  return errors;
}

/** A shift that ends at or before its start runs past midnight into the next day. */
export const endsNextDay = (start: string, end: string): boolean => end <= start;

/** The draft with the shift at `index` moved by `by` places (-1 up, +1 down); unchanged at an end. */
export function moveShift(draft: RotaDraft, index: number, by: -1 | 1): RotaDraft {
  const to = index + by;
  if (to < 0 || to >= draft.shifts.length) return draft;
  const shifts = [...draft.shifts];
  [shifts[index], shifts[to]] = [shifts[to]!, shifts[index]!];
  return { ...draft, shifts };
}
