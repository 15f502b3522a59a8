const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * SPEC §2 Last Seen: "Just now" under a minute, then whole minutes, hours or days ago (rounded
 * down, so "1h ago" lasts until the second hour is complete). A time in the future (the
 * device's or the server's clock ahead of ours) still reads "Just now".
 */
export function formatLastSeen(lastSeenMs: number | null, now: number): string {
  if (lastSeenMs === null || Number.isNaN(lastSeenMs)) return "Never";
  const ago = now - lastSeenMs;
  if (ago < MINUTE_MS) return "Just now";
  if (ago < HOUR_MS) return `${Math.floor(ago / MINUTE_MS)}m ago`;
  if (ago < DAY_MS) return `${Math.floor(ago / HOUR_MS)}h ago`;
  return `${Math.floor(ago / DAY_MS)}d ago`;
}
