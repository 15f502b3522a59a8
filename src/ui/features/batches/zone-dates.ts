import { i18n } from "../../i18n/i18n.ts";
import { dateTimeFormat, numberFormat } from "../../i18n/format.ts";

/**
 * A batch's dates in its own time zone (its days are counted there): the room's clock, wherever
 * the grower looks from, written in the person's language and digits (format.ts keeps each
 * formatter, made once per locale, zone and style).
 */
const DAY: Intl.DateTimeFormatOptions = { day: "numeric", month: "short" };
const DAY_TIME: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
const FULL: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short", hourCycle: "h23" };

/** "2 Dec" */
export const formatDay = (ms: number, timeZone: string) => dateTimeFormat({ ...DAY, timeZone }).format(ms);
/** "2 Dec, 08:00" */
export const formatDayTime = (ms: number, timeZone: string) => dateTimeFormat({ ...DAY_TIME, timeZone }).format(ms);
/** "2 Dec 2026, 08:00": the event log and harvests, where the year matters. */
export const formatDateTimeIn = (ms: number, timeZone: string) => dateTimeFormat({ ...FULL, timeZone }).format(ms);

/** The time zone of this device, the default of a new batch. */
export const deviceTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
/** The wall-clock fields of `ms` in `timeZone`, as if they were UTC (ms, to the minute). */
function wallClock(ms: number, timeZone: string): number {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric" });
    partsFormatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(ms)) if (part.type !== "literal") p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!);
}

/** `ms` as a datetime-local input's value ("2026-12-02T08:00"): the wall clock in `timeZone`. */
export function toDateTimeLocal(ms: number, timeZone: string): string {
  return new Date(wallClock(ms, timeZone)).toISOString().slice(0, 16);
}

/**
 * The instant a datetime-local value means in `timeZone` (the batch's start, typed as the room's
 * clock reads), or NaN when it is not one. A time skipped by a daylight-saving change lands after it.
 */
export function fromDateTimeLocal(value: string, timeZone: string): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return NaN;
  const wall = Date.parse(`${value}:00Z`);
  if (!Number.isFinite(wall)) return NaN;
  // Guess with the offset at the wall time, then correct with the offset at the guess.
  let guess = wall - (wallClock(wall, timeZone) - wall);
  guess = wall - (wallClock(guess, timeZone) - guess);
  return guess;
}

/** "12.45 kg" */
export const formatKg = (n: number) => i18n.t("batches:units.kg", { value: numberFormat({ maximumFractionDigits: 2 }).format(n) });
/** "85.3 %" */
export const formatPercent = (n: number) => i18n.t("batches:units.percent", { value: numberFormat({ maximumFractionDigits: 1 }).format(n) });

/** The start of the local day (midnight, or the first moment after a change at midnight) of `ms` in `timeZone`. */
export function startOfLocalDay(ms: number, timeZone: string): number {
  const wall = wallClock(ms, timeZone);
  return fromDateTimeLocal(new Date(wall - (wall % 86_400_000)).toISOString().slice(0, 16), timeZone);
}
