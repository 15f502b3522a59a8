/**
 * One way to show a date across the app: the user's locale, with the time where it matters.
 * The formatters are made once (Intl.DateTimeFormat is costly to create).
 */
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: "medium" });
const readingDateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

const parse = (value: string | number | Date): Date | null => {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** A day: "Created", "Added" (e.g. "23 Nov 2026"). */
export function formatDate(value: string | number | Date): string {
  const d = parse(value);
  return d ? dateFormat.format(d) : "";
}

/** A moment: notifications, "Updated" (e.g. "23 Nov 2026, 14:05"). */
export function formatDateTime(value: string | number | Date): string {
  const d = parse(value);
  return d ? dateTimeFormat.format(d) : "";
}

/** A reading's time: today's with seconds only, an earlier day's with its date. */
export function formatReadingTime(value: string | number | Date, now: Date = new Date()): string {
  const d = parse(value);
  if (!d) return "";
  return d.toDateString() === now.toDateString() ? timeFormat.format(d) : readingDateTimeFormat.format(d);
}
