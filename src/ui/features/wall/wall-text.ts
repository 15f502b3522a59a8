import type { Breach, ProfileMetric } from "../../../contract/conditions.ts";
import type { LiveReading } from "../../../contract/entities.ts";
import type { WallCounts } from "../../../contract/live.ts";

/**
 * What the wall's tiles and headings say, as pure functions of what they show (the screen reads
 * them, tests check them without a browser).
 */

interface WallMetric {
  /** Short enough for a tile seen from across a room. */
  label: string;
  metric: ProfileMetric;
  read: (r: LiveReading) => number | undefined;
  unit: string;
  digits: number;
}

/** The four values of a tile: the dashboard card's four readings. */
export const WALL_METRICS: readonly WallMetric[] = [
  { label: "Temperature", metric: "temperature", read: (r) => r.DHT?.temperature, unit: "°C", digits: 1 },
  { label: "Humidity", metric: "humidity", read: (r) => r.DHT?.humidity, unit: "%", digits: 1 },
  { label: "Soil temp.", metric: "soilTemperature", read: (r) => r.SOIL_TEMP?.soil_temperature, unit: "°C", digits: 1 },
  { label: "CO2", metric: "co2", read: (r) => r.CO2?.co2, unit: "ppm", digits: 0 },
];

/** The values a breach may be about: the four of the cells, and soil moisture, which no cell shows. */
const BREACH_METRICS: Record<ProfileMetric, Omit<WallMetric, "metric">> = {
  ...(Object.fromEntries(WALL_METRICS.map(({ metric, ...m }) => [metric, m])) as Record<WallMetric["metric"], Omit<WallMetric, "metric">>),
  soilMoisture: { label: "Soil moisture", read: (r) => r.MOISTURE?.soil_moisture, unit: "%", digits: 1 },
};

// Made once: a formatter per value would be a cost paid at every reading. No thousands separator:
// "1350 ppm" fits a tile's cell at wall size where "1,350 ppm" does not, and reads as the limits do.
const FORMATTERS = [0, 1].map((digits) => new Intl.NumberFormat(undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }));

/** A value with a fixed number of decimals, so it does not jump in width as it changes. */
export const formatValue = (value: number, digits: number) => FORMATTERS[digits]!.format(value);

/** "Humidity 78.0 % — below 85 %": which value (named as its cell is), what it is, the limit it crosses. */
export function breachText(breach: Breach, readings: LiveReading): string {
  const m = BREACH_METRICS[breach.metric];
  const value = m.read(readings);
  return `${m.label}${value === undefined ? "" : ` ${formatValue(value, m.digits)} ${m.unit}`} — ${breach.limit}`;
}

/**
 * The breaches in the order a tile names them: a value its cells do not show (soil moisture)
 * first, since nothing else on the tile tells of it.
 */
export function orderedBreaches(breaches: readonly Breach[]): readonly Breach[] {
  const shown = new Set(WALL_METRICS.map((m) => m.metric));
  return [...breaches].sort((a, b) => Number(shown.has(a.metric)) - Number(shown.has(b.metric)));
}

/**
 * A tile's state line while values are outside the profile, from their texts (breachText, in
 * orderedBreaches' order): one named in full; several counted first, in words, so the count is
 * read even where the line is cut short, then the first named (the others' cells are marked).
 */
export function outOfProfileLine(texts: readonly string[]): string {
  if (texts.length <= 1) return texts[0] ?? "";
  return `${texts.length} values out of profile: ${texts[0]}`;
}

/** A farm's or the fleet's counts in words: "24 MCUs · 2 out of profile · 1 offline"; what is zero is not said. */
export function countsText(c: WallCounts): string {
  const parts = [`${c.mcus} ${c.mcus === 1 ? "MCU" : "MCUs"}`];
  if (c.outOfProfile) parts.push(`${c.outOfProfile} out of profile`);
  if (c.offline) parts.push(`${c.offline} offline`);
  if (c.lowBattery) parts.push(`${c.lowBattery} low battery`);
  return parts.join(" · ");
}

/** How long ago, for a screen read from across a room: "less than a minute ago", "3 min ago", "2 h 5 min ago", "3 days ago". */
export function agoText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "less than a minute ago";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min ago` : `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return days === 1 ? "1 day ago" : `${days} days ago`;
}
