import type { Breach, ProfileMetric } from "../../../contract/conditions.ts";
import type { LiveReading } from "../../../contract/entities.ts";
import type { McuGrowPlace, WallCounts } from "../../../contract/live.ts";
import { formatFixedUngrouped, numberFormat } from "../../i18n/format.ts";
import { i18n } from "../../i18n/i18n.ts";

/**
 * What the wall's tiles and headings say, as pure functions of what they show and of the
 * language at the moment they are called (the screen reads them, tests check them without a
 * browser). The texts are the `wall` namespace's; the numbers are in the person's digits.
 */

interface WallMetric {
  metric: ProfileMetric;
  read: (r: LiveReading) => number | undefined;
  unit: string;
  digits: number;
}

/** The four values of a tile: the dashboard card's four readings. */
export const WALL_METRICS: readonly WallMetric[] = [
  { metric: "temperature", read: (r) => r.DHT?.temperature, unit: "°C", digits: 1 },
  { metric: "humidity", read: (r) => r.DHT?.humidity, unit: "%", digits: 1 },
  { metric: "soilTemperature", read: (r) => r.SOIL_TEMP?.soil_temperature, unit: "°C", digits: 1 },
  { metric: "co2", read: (r) => r.CO2?.co2, unit: "ppm", digits: 0 },
];

/** The values a breach may be about: the four of the cells, and soil moisture, which no cell shows. */
const BREACH_METRICS: Record<ProfileMetric, Omit<WallMetric, "metric">> = {
  ...(Object.fromEntries(WALL_METRICS.map(({ metric, ...m }) => [metric, m])) as Record<WallMetric["metric"], Omit<WallMetric, "metric">>),
  soilMoisture: { read: (r) => r.MOISTURE?.soil_moisture, unit: "%", digits: 1 },
};

/** A value's name, short enough for a tile seen from across a room. */
export const metricLabel = (metric: ProfileMetric): string => i18n.t(`wall:metrics.${metric}`);

/**
 * A value with a fixed number of decimals, so it does not jump in width as it changes. No thousands
 * separator: "1350 ppm" fits a tile's cell at wall size where "1,350 ppm" does not, and reads as
 * the limits do.
 */
export const formatValue = formatFixedUngrouped;

/** A profile's value as the profile holds it (85, 18.5, 1200), in the person's digits. */
const formatLimit = (value: number) => numberFormat({ maximumFractionDigits: 2, useGrouping: false }).format(value);

/** The limit a breach crosses, in words: "below 85 %", "above 1200 ppm", "target 18 °C". */
export const limitText = (breach: Breach): string => i18n.t(`wall:limits.${breach.metric}`, { limit: formatLimit(breach.threshold) });

/** "Humidity 78.0 % — below 85 %": which value (named as its cell is), what it is, the limit it crosses. */
export function breachText(breach: Breach, readings: LiveReading): string {
  const m = BREACH_METRICS[breach.metric];
  const value = m.read(readings);
  const label = metricLabel(breach.metric);
  const limit = limitText(breach);
  return value === undefined
    ? i18n.t("wall:breach.withoutValue", { label, limit })
    : i18n.t("wall:breach.withValue", { label, value: formatValue(value, m.digits), unit: m.unit, limit });
}

/**
 * The breaches in the order a tile names them: a value its cells do not show (soil moisture)
 * first, since nothing else on the tile tells of it.
 */
export function orderedBreaches(breaches: readonly Breach[]): readonly Breach[] {
  const shown = new Set(WALL_METRICS.map((m) => m.metric));
  return [...breaches].sort((a, b) => Number(shown.has(a.metric)) - Number(shown.has(b.metric)));
}

/** A count or page number in the person's digits, ungrouped as the wall has always written them ("2000 MCUs"). */
export const formatCount = (n: number): string => formatValue(n, 0);

/**
 * A tile's state line while values are outside the profile, from their texts (breachText, in
 * orderedBreaches' order): one named in full; several counted first, in words, so the count is
 * read even where the line is cut short, then the first named (the others' cells are marked).
 */
export function outOfProfileLine(texts: readonly string[]): string {
  if (texts.length <= 1) return texts[0] ?? "";
  return i18n.t("wall:breach.several", { count: texts.length, first: texts[0] });
}

/** Between the parts of a line: " · ", which Arabic writes with its comma (beside Arabic-Indic digits a middle dot reads as a zero). */
export const separator = (): string => i18n.t("wall:separator");

/** A farm's or the fleet's counts in words: "24 MCUs · 2 out of profile · 1 offline"; what is zero is not said. */
export function countsText(c: WallCounts): string {
  const parts = [i18n.t("wall:counts.mcus", { count: c.mcus })];
  if (c.outOfProfile) parts.push(i18n.t("wall:counts.outOfProfile", { count: c.outOfProfile }));
  if (c.offline) parts.push(i18n.t("wall:counts.offline", { count: c.offline }));
  if (c.lowBattery) parts.push(i18n.t("wall:counts.lowBattery", { count: c.lowBattery }));
  return parts.join(separator());
}

/** How long ago, for a screen read from across a room: "less than a minute ago", "3 min ago", "2 h 5 min ago", "3 days ago". */
export function agoText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return i18n.t("wall:ago.underMinute");
  if (minutes < 60) return i18n.t("wall:ago.minutes", { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    return minutes % 60 ? i18n.t("wall:ago.hoursMinutes", { hours: formatCount(hours), minutes: formatCount(minutes % 60) }) : i18n.t("wall:ago.hours", { count: hours });
  }
  return i18n.t("wall:ago.days", { count: Math.floor(hours / 24) });
}

/** A rotation interval (seconds; 0 is off) as its choice reads: "Off", "20 s", "2 min". */
export function rotateText(sec: number): string {
  if (sec === 0) return i18n.t("wall:rotate.off");
  if (sec < 60) return i18n.t("wall:rotate.seconds", { count: sec });
  // An interval typed into the address may be a part of a minute ("?rotate=90": 1.5 min).
  const minutes = sec / 60;
  return i18n.t("wall:rotate.minutes", { count: minutes });
}

/** Where the batch a room follows is: "Fruiting · day 3 of 7", "Pinning · day 2 · waiting: Pins visible", "Fruiting · on hold". */
export function growText(place: McuGrowPlace): string {
  if (place.state === "held") return i18n.t("wall:grow.held", { phase: place.phase });
  if (place.state === "waiting") return i18n.t("wall:grow.waiting", { phase: place.phase, day: formatCount(place.day), confirm: place.confirm });
  return i18n.t("wall:grow.day", { phase: place.phase, day: formatCount(place.day), days: formatCount(place.days) });
}

/** A percentage as the wall writes it ("27 %"), in the person's digits. */
export const percentText = (level: number): string => i18n.t("wall:tile.percent", { value: formatCount(Math.round(level)) });
