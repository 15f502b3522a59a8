import type { TFunction } from "i18next";
import { formatFixed } from "../../i18n/format.ts";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const n = (value: number) => formatFixed(value, 0);

/**
 * How long an alarm lasted, or has lasted so far, in the two largest units a farmer reads at a
 * glance ("45 min", "3 h 20 min", "2 d 5 h"); under a minute it is "under a minute". Minutes are
 * the finest unit: the page's clock ticks every 30 s.
 */
export function formatDuration(t: TFunction<"alarms">, ms: number): string {
  if (!Number.isFinite(ms) || ms < MINUTE_MS) return t("times.underAMinute");
  const days = Math.floor(ms / DAY_MS);
  const hours = Math.floor((ms % DAY_MS) / HOUR_MS);
  const minutes = Math.floor((ms % HOUR_MS) / MINUTE_MS);
  if (days > 0) return hours > 0 ? t("times.daysHours", { days: n(days), hours: n(hours) }) : t("times.days", { days: n(days) });
  if (hours > 0) return minutes > 0 ? t("times.hoursMinutes", { hours: n(hours), minutes: n(minutes) }) : t("times.hours", { hours: n(hours) });
  return t("times.minutes", { minutes: n(minutes) });
}

/** How long ago a moment was: "just now", then the duration ("12 min ago"). A moment ahead of our clock is "just now". */
export function formatAgo(t: TFunction<"alarms">, at: string, now: number): string {
  const ago = now - Date.parse(at);
  return ago < MINUTE_MS ? t("times.justNow") : t("times.ago", { duration: formatDuration(t, ago) });
}

/** An alarm's duration: until it was resolved, or until now while it is active. */
export function alarmDurationMs(alarm: { opened_at: string; resolved_at: string | null }, now: number): number {
  return (alarm.resolved_at === null ? now : Date.parse(alarm.resolved_at)) - Date.parse(alarm.opened_at);
}
