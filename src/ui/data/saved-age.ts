import { i18n } from "../i18n/i18n.ts";

/**
 * How long ago the server last gave a list shown from what this device saved, in words ("12 min
 * ago"), in the person's language and digits. Minutes are the finest unit: the screen's clock
 * moves every 30 s.
 */
export function savedAgeText(savedAt: number, now: number): string {
  const minutes = Math.floor(Math.max(0, now - savedAt) / 60_000);
  if (minutes < 1) return i18n.t("common:savedAge.justNow");
  if (minutes < 60) return i18n.t("common:savedAge.minutes", { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return i18n.t("common:savedAge.hours", { count: hours });
  return i18n.t("common:savedAge.days", { count: Math.floor(hours / 24) });
}
