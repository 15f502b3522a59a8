/**
 * One way to show a date across the app: the user's locale, with the time where it matters.
 * Each formatter is made once, when first used (Intl.DateTimeFormat is costly to create: made at
 * load, the four cost the page's start ~100 ms before any date is shown).
 */
function once(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let made: Intl.DateTimeFormat | undefined;
  return () => (made ??= new Intl.DateTimeFormat(undefined, options));
}
const dateFormat = once({ dateStyle: "medium" });
const dateTimeFormat = once({ dateStyle: "medium", timeStyle: "short" });
const timeFormat = once({ timeStyle: "medium" });
const readingDateTimeFormat = once({ dateStyle: "medium", timeStyle: "medium" });

const parse = (value: string | number | Date): Date | null => {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** A day: "Created", "Added" (e.g. "23 Nov 2026"). */
export function formatDate(value: string | number | Date): string {
  const d = parse(value);
  return d ? dateFormat().format(d) : "";
}

/** A moment: notifications, "Updated" (e.g. "23 Nov 2026, 14:05"). */
export function formatDateTime(value: string | number | Date): string {
  const d = parse(value);
  return d ? dateTimeFormat().format(d) : "";
}

/** A reading's time: today's with seconds only, an earlier day's with its date. */
export function formatReadingTime(value: string | number | Date, now: Date = new Date()): string {
  const d = parse(value);
  if (!d) return "";
  return d.toDateString() === now.toDateString() ? timeFormat().format(d) : readingDateTimeFormat().format(d);
}
