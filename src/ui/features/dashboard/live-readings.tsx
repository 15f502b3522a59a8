import type { LiveReading, SensorType } from "../../../contract/entities.ts";

interface Metric {
  label: string;
  /** The sensor type whose count is the "total" of the label (SPEC §2). */
  sensorType: SensorType;
  read: (r: LiveReading) => { value: number; count: number } | undefined;
  unit: string;
  digits: number;
}

/** DHT readings come from Humidity sensors, so both of its values count those. */
const METRICS: Metric[] = [
  { label: "Temperature", sensorType: "Humidity", read: (r) => r.DHT && { value: r.DHT.temperature, count: r.DHT.count }, unit: "°C", digits: 1 },
  { label: "Humidity", sensorType: "Humidity", read: (r) => r.DHT && { value: r.DHT.humidity, count: r.DHT.count }, unit: "%", digits: 1 },
  { label: "Soil Temperature", sensorType: "Soil_temp", read: (r) => r.SOIL_TEMP && { value: r.SOIL_TEMP.soil_temperature, count: r.SOIL_TEMP.count }, unit: "°C", digits: 1 },
  { label: "CO2", sensorType: "CO2", read: (r) => r.CO2 && { value: r.CO2.co2, count: r.CO2.count }, unit: "ppm", digits: 0 },
];

// A fixed number of decimals keeps the numbers from jumping in width as readings change.
const format = (value: number, digits: number) => value.toLocaleString(undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits });

/**
 * The environmental readings of an online MCU, each labelled reporting / total sensors of its
 * type. A value the reading lacks shows as a dash with 0 reporting, not as a stale number.
 */
export function LiveReadings({ readings, totals }: { readings: LiveReading; totals: Record<SensorType, number> }) {
  return (
    <dl className="grid grid-cols-2 gap-2 4xl:gap-3">
      {METRICS.map((m) => {
        const r = m.read(readings);
        const total = totals[m.sensorType];
        return (
          <div key={m.label} className="rounded-xl bg-brand-50/60 px-3 py-2 4xl:px-4 4xl:py-3 min-w-0">
            <dt className="text-xs 4xl:text-lg text-gray-600">{m.label}</dt>
            <dd className="text-lg 4xl:text-3xl font-semibold text-gray-900 tabular-nums">{r ? `${format(r.value, m.digits)} ${m.unit}` : "—"}</dd>
            <dd className="text-xs 4xl:text-base text-gray-500 tabular-nums">
              {r?.count ?? 0}/{total} sensors
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
