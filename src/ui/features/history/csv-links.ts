/** The API base of SPEC §7 ({host}) as the app was built with it; "" is the page's own origin. */
const API_BASE = (import.meta.env.VITE_API_BASE ?? "").replace(/\/$/, "");

/**
 * The address of a CSV export with the parameters that are set, and this browser's time zone (the
 * file then has each row's local time beside UTC). A plain link: the browser sends the session
 * cookie with it and saves the streamed file itself, so a year of rows never passes through the
 * page's memory.
 */
export function csvUrl(path: string, params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...params, tz: Intl.DateTimeFormat().resolvedOptions().timeZone })) if (value !== undefined && value !== "") q.set(name, value);
  const text = q.toString();
  return `${API_BASE}${path}${text ? `?${text}` : ""}`;
}
