import type { TFunction } from "i18next";
import { MAX_SPAN_MS } from "../../../contract/history-values.ts";
import { formatFixed } from "../../i18n/format.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The ranges a farmer picks with one tap, each ending now: `amount` hours or days (their words: `range.presets.<key>`). */
export const RANGE_PRESETS = [
  { key: "1h", amount: 1, spanMs: HOUR },
  { key: "24h", amount: 24, spanMs: DAY },
  { key: "7d", amount: 7, spanMs: 7 * DAY },
  { key: "30d", amount: 30, spanMs: 30 * DAY },
] as const;
export type PresetKey = (typeof RANGE_PRESETS)[number]["key"];

/** What the range picker holds: a preset (ending now), or a custom span between two moments (ms). */
export type RangeChoice = { kind: "preset"; preset: PresetKey } | { kind: "custom"; from: number; to: number };

export const DEFAULT_RANGE: RangeChoice = { kind: "preset", preset: "24h" };

/** A choice at a moment: the span to show, and whether live readings extend it (it reaches now). */
export interface ResolvedRange {
  from: number;
  to: number;
  /** A preset slides with the clock; a custom range that ends in the future fills up to its end. */
  live: boolean;
  sliding: boolean;
}

const presetOf = (key: string) => RANGE_PRESETS.find((p) => p.key === key);

export function resolveRange(choice: RangeChoice, now: number): ResolvedRange {
  if (choice.kind === "preset") {
    const span = presetOf(choice.preset)!.spanMs;
    return { from: now - span, to: now, live: true, sliding: true };
  }
  return { from: choice.from, to: choice.to, live: choice.to > now, sliding: false };
}

/** The range as it stands in the page's address, so a reload or a shared link shows the same. */
export function rangeToParams(choice: RangeChoice): Record<string, string> {
  return choice.kind === "preset" ? { range: choice.preset } : { from: new Date(choice.from).toISOString(), to: new Date(choice.to).toISOString() };
}

/** The range the address names; the default when it names none or one that cannot be. */
export function rangeFromParams(params: URLSearchParams): RangeChoice {
  const preset = presetOf(params.get("range") ?? "");
  if (preset) return { kind: "preset", preset: preset.key };
  const from = Date.parse(params.get("from") ?? "");
  const to = Date.parse(params.get("to") ?? "");
  if (Number.isFinite(from) && Number.isFinite(to) && from < to && to - from <= MAX_SPAN_MS) return { kind: "custom", from, to };
  return DEFAULT_RANGE;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A moment as a datetime-local input shows it (local time, to the minute). */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (local time) as epoch ms, or null when it is not one. */
export function fromLocalInput(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, s);
  // new Date rolls 31 Feb over into March; such a value is not a date.
  if (date.getMonth() !== mo - 1 || date.getDate() !== d) return null;
  return date.getTime();
}

/** Why a custom range's field cannot be taken (its words: `range.errors.<why>`). */
export type RangeFieldError = "startMissing" | "endMissing" | "invalid" | "startNotPast" | "endBeforeStart" | "tooLong";
export type CustomRangeErrors = { from?: RangeFieldError; to?: RangeFieldError };
export type CustomRangeCheck = { ok: true; from: number; to: number } | { ok: false; errors: CustomRangeErrors };

export const MAX_SPAN_DAYS = Math.floor(MAX_SPAN_MS / DAY);

/** The custom range's two fields judged together, with why on the field to correct. */
export function checkCustomRange(fromText: string, toText: string, now: number): CustomRangeCheck {
  const errors: CustomRangeErrors = {};
  const from = fromText ? fromLocalInput(fromText) : null;
  const to = toText ? fromLocalInput(toText) : null;
  if (!fromText) errors.from = "startMissing";
  else if (from === null) errors.from = "invalid";
  else if (from >= now) errors.from = "startNotPast";
  if (!toText) errors.to = "endMissing";
  else if (to === null) errors.to = "invalid";
  if (from !== null && to !== null && !errors.from && !errors.to) {
    if (to <= from) errors.to = "endBeforeStart";
    else if (to - from > MAX_SPAN_MS) errors.to = "tooLong";
  }
  if (errors.from || errors.to || from === null || to === null) return { ok: false, errors };
  return { ok: true, from, to };
}

/** A preset's words (`label`: "24 h", `name`: "Last 24 hours", `inSentence`: "the last 24 hours"), its number in the person's digits. */
export function presetWords(t: TFunction<"history">, key: PresetKey, form: "label" | "name" | "inSentence"): string {
  return t(`range.presets.${key}.${form}`, { n: formatFixed(presetOf(key)!.amount, 0) });
}

/** A custom range's field error in words ("The end must be after the start"). */
export const rangeErrorText = (t: TFunction<"history">, why: RangeFieldError): string => t(`range.errors.${why}`, { days: formatFixed(MAX_SPAN_DAYS, 0) });

/** The range in words, within a sentence ("over the last 24 hours", "over 3 Mar 2026, 10:00 – 4 Mar 2026, 10:00"). */
export function describeRange(t: TFunction<"history">, choice: RangeChoice, format: (ms: number) => string): string {
  if (choice.kind === "preset") return presetWords(t, choice.preset, "inSentence");
  return t("range.span", { from: format(choice.from), to: format(choice.to) });
}

/** The range in words as a heading's line ("Last 24 hours"). */
export function rangeTitle(t: TFunction<"history">, choice: RangeChoice, format: (ms: number) => string): string {
  return choice.kind === "preset" ? presetWords(t, choice.preset, "name") : describeRange(t, choice, format);
}
