import { memo, type SVGProps } from "react";
import type { Breach, ProfileMetric } from "../../../contract/conditions.ts";
import type { LiveReading, SensorType } from "../../../contract/entities.ts";
import { formatFixed, numberFormat } from "../../i18n/format.ts";
import { currentLocale, i18n } from "../../i18n/i18n.ts";
import { sensorCountLabel } from "./sensor-totals.ts";

/** The readings' words, looked up at each render: the card that shows them re-renders on a change of language or digits (`useLocale()`). */
const t = i18n.getFixedT(null, "dashboard");

interface Metric {
  /** The profile metric of conditions.ts this value is judged as (and its name's key). */
  metric: "temperature" | "humidity" | "soilTemperature" | "co2";
  /** The sensor type whose count is the "total" of the label (SPEC §2). */
  sensorType: SensorType;
  read: (r: LiveReading) => { value: number; count: number } | undefined;
  unit: string;
  digits: number;
}

/** DHT readings come from Humidity sensors, so both of its values count those. */
const METRICS: Metric[] = [
  { metric: "temperature", sensorType: "Humidity", read: (r) => r.DHT && { value: r.DHT.temperature, count: r.DHT.count }, unit: "°C", digits: 1 },
  { metric: "humidity", sensorType: "Humidity", read: (r) => r.DHT && { value: r.DHT.humidity, count: r.DHT.count }, unit: "%", digits: 1 },
  { metric: "soilTemperature", sensorType: "Soil_temp", read: (r) => r.SOIL_TEMP && { value: r.SOIL_TEMP.soil_temperature, count: r.SOIL_TEMP.count }, unit: "°C", digits: 1 },
  { metric: "co2", sensorType: "CO2", read: (r) => r.CO2 && { value: r.CO2.co2, count: r.CO2.count }, unit: "ppm", digits: 0 },
];

/** The profile metrics the readings grid shows; a breach of another one is listed under it. */
export const SHOWN_METRICS: ReadonlySet<ProfileMetric> = new Set(METRICS.map((m) => m.metric));

/** A profile's value as the profile holds it (85, 18.5, 1200), in the person's digits. */
const formatLimit = (value: number) => numberFormat({ maximumFractionDigits: 2, useGrouping: false }).format(value);

/** The limit a breach crosses, in words: "Above 800 ppm", "Below 85 %", "Target 18 °C". */
export const limitText = (breach: Breach): string => t(`limits.${breach.metric}`, { limit: formatLimit(breach.threshold) });

/** A warning triangle: with the text beside it, never the only sign. */
export function AlertIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" {...props}>
      <path d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0zM12 9v4M12 17h.01" />
    </svg>
  );
}

/**
 * The environmental readings of an online MCU, each labelled reporting / total sensors of its
 * type (sensors that report without being registered are said once for the card). A value the reading lacks shows as a dash with 0 reporting, not as a stale number. A
 * value outside the linked profile is marked in amber with the limit it crosses in words
 * ("Above 800 ppm"), so the mark does not rest on colour and a screen reader says it.
 *
 * Each value is a memoized cell taking primitives, so a reading re-renders only the values it
 * changed.
 */
export function LiveReadings({ readings, totals, breaches }: { readings: LiveReading; totals: Readonly<Record<SensorType, number>>; breaches: readonly Breach[] }) {
  return (
    <dl className="grid grid-cols-2 gap-2 4xl:gap-3">
      {METRICS.map((m) => {
        const r = m.read(readings);
        const breach = r ? breaches.find((b) => b.metric === m.metric) : undefined;
        return (
          <MetricCell
            key={m.metric}
            // A fixed number of decimals keeps the numbers from jumping in width as readings change
            // (formatFixed keeps one formatter per locale: none is made per reading).
            value={r ? formatFixed(r.value, m.digits) : null}
            unit={m.unit}
            metric={m.metric}
            count={r?.count ?? 0}
            total={totals[m.sensorType]}
            limit={breach ? limitText(breach) : null}
            tag={currentLocale().tag}
          />
        );
      })}
    </dl>
  );
}

/**
 * One value of the readings grid; `limit` is the crossed profile limit in words, or null. Memoized
 * on primitives, the locale (`tag`) among them: its name and sensor count are worded here, again
 * only when they or the language change.
 */
const MetricCell = memo(function MetricCell({
  metric,
  value,
  unit,
  count,
  total,
  limit,
}: {
  metric: Metric["metric"];
  /** The value in the person's digits, null when the reading lacks it. */
  value: string | null;
  unit: string;
  count: number;
  total: number;
  limit: string | null;
  tag: string;
}) {
  return (
    <div
      data-out-of-profile={limit !== null ? "" : undefined}
      className={`rounded-xl px-3 py-2 4xl:px-4 4xl:py-3 min-w-0 ${limit !== null ? "bg-amber-50 ring-1 ring-inset ring-amber-400" : "bg-brand-50/60"}`}
    >
      <dt className="text-xs 4xl:text-lg text-gray-600">{t(`metrics.${metric}`)}</dt>
      <dd className={`live-line h-7 4xl:h-9 text-lg 4xl:text-3xl font-semibold tabular-nums ${limit !== null ? "text-amber-900" : "text-gray-900"}`}>
        {/* The unit reads left to right in Arabic too ("°C", not "C°"), after its number. */}
        {value === null ? (
          "—"
        ) : (
          <>
            {value} <bdi dir="ltr">{unit}</bdi>
          </>
        )}
      </dd>
      {limit !== null && (
        <dd className="flex items-center gap-1 text-xs 4xl:text-base font-medium text-amber-900">
          <AlertIcon className="shrink-0" />
          <span>
            <span className="sr-only">{t("outsideProfile")} </span>
            {limit}
          </span>
        </dd>
      )}
      <dd className="text-xs 4xl:text-base text-gray-500 tabular-nums">{sensorCountLabel(count, total)}</dd>
    </div>
  );
});
