/**
 * How long ago the server last gave a list shown from what this device saved, in words ("12 min
 * ago"). Minutes are the finest unit: the screen's clock moves every 30 s.
 */
export function savedAgeText(savedAt: number, now: number): string {
  const minutes = Math.floor(Math.max(0, now - savedAt) / 60_000);
  if (minutes < 1) return "less than a minute ago";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} days ago`;
}
