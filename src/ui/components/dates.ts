import { dateTimeFormat } from "../i18n/format.ts";

/**
 * One way to show a date across the app: the person's language and digits, with the time where it
 * matters. The formatters are made once per locale (format.ts keeps them: Intl.DateTimeFormat is
 * costly to create), when first used; a component that shows a date re-renders on a change of
 * language or digits (it reads `t` or `useLocale()`).
 */
const DATE: Intl.DateTimeFormatOptions = { dateStyle: "medium" };
const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };
const TIME: Intl.DateTimeFormatOptions = { timeStyle: "medium" };
const READING_DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "medium" };

const parse = (value: string | number | Date): Date | null => {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** A day: "Created", "Added" (e.g. "23 Nov 2026"). */
export function formatDate(value: string | number | Date): string {
  const d = parse(value);
  return d ? dateTimeFormat(DATE).format(d) : "";
}

/** A moment: notifications, "Updated" (e.g. "23 Nov 2026, 14:05"). */
export function formatDateTime(value: string | number | Date): string {
  const d = parse(value);
  return d ? dateTimeFormat(DATE_TIME).format(d) : "";
}

/** A reading's time: today's with seconds only, an earlier day's with its date. */
export function formatReadingTime(value: string | number | Date, now: Date = new Date()): string {
  const d = parse(value);
  if (!d) return "";
  return d.toDateString() === now.toDateString() ? dateTimeFormat(TIME).format(d) : dateTimeFormat(READING_DATE_TIME).format(d);
}
