import { metricValue, type AlarmMetric } from "../../src/contract/alarms-values.ts";
import type { LiveReading } from "../../src/contract/entities.ts";
import { CONSTANTS } from "../../src/contract/limits.ts";
import type { SensorCounts } from "../db/sensor-counts-repo.ts";
import type { TitleAndBody, Words } from "../texts.ts";

/**
 * Sensor health: what the readings of an MCU that keeps reporting say about its sensors. A sensor
 * can die quietly while its MCU goes on sending the others' values (the offline alarm does not
 * see it), or freeze and send one value for ever (no profile limit may be crossed). Kept per MCU
 * in typed arrays, so that judging a reading allocates nothing.
 */

/** The sensor groups of a reading, each with the `count` of sensors its values come from (src/contract/reading-groups.ts). */
export const SENSOR_GROUPS = ["DHT", "SOIL_TEMP", "CO2", "MOISTURE"] as const;
export type SensorGroup = (typeof SENSOR_GROUPS)[number];

/** The metrics a stuck sensor shows in (not the battery: it is the MCU's, and it moves a point in hours). */
export const STUCK_METRICS = ["temperature", "humidity", "soilTemperature", "co2", "soilMoisture"] as const satisfies readonly AlarmMetric[];
export type StuckMetric = (typeof STUCK_METRICS)[number];

/**
 * How long a group may report fewer sensors than expected before its alarm opens: a DHT that
 * fails a read (a checksum error) is left out of a reading or two, a dead one of every reading.
 */
export const SENSOR_MISSING_AFTER_MS = 2 * 60_000;

/**
 * How long a metric may read exactly one value before its sensor counts as stuck. A working
 * sensor's last digit moves within minutes (a DHT22's tenths, an NDIR CO2 sensor's ppm) even in
 * a room held steady; an hour of the very same value is a sensor that stopped measuring. A
 * server-side constant: the notification preferences say what is delivered, not what is detected.
 */
export const SENSOR_STUCK_AFTER_MS = 60 * 60_000;

/** One MCU's sensors as its readings show them. Groups and metrics are indexed as SENSOR_GROUPS and STUCK_METRICS. */
export interface SensorHealth {
  /** Sensors of each group in the MCU's sensors list (read with its alarm state). */
  registered: Int32Array;
  /** The most sensors of each group the MCU has reported (kept in the database as it rises). */
  reported: Int32Array;
  /** Since when each group has reported fewer sensors than expected; NaN while it reports them all. */
  missingSince: Float64Array;
  /** Each metric's value in the last reading that had it; NaN when none did since the MCU was last (re)connected. */
  value: Float64Array;
  /** Since when each metric has read exactly `value` (-Infinity: since before this node knew it). */
  sameSince: Float64Array;
  /** When this node last judged a reading of the MCU, epoch ms; NaN: not since it was (re)connected. */
  heardAt: number;
}

export function sensorHealth(): SensorHealth {
  return {
    registered: new Int32Array(SENSOR_GROUPS.length),
    reported: new Int32Array(SENSOR_GROUPS.length),
    missingSince: new Float64Array(SENSOR_GROUPS.length).fill(NaN),
    value: new Float64Array(STUCK_METRICS.length).fill(NaN),
    sameSince: new Float64Array(STUCK_METRICS.length).fill(NaN),
    heardAt: NaN,
  };
}

/** Takes the counts read from the database: the sensors list as it is now, the most reported as the higher of the two copies. */
export function applyCounts(h: SensorHealth, counts: SensorCounts | undefined): void {
  for (let g = 0; g < SENSOR_GROUPS.length; g++) {
    const group = SENSOR_GROUPS[g]!;
    h.registered[g] = counts?.registered[group] ?? 0;
    h.reported[g] = Math.max(h.reported[g]!, counts?.reported[group] ?? 0);
  }
}

/**
 * The MCU went offline or came back: what its readings said before says nothing about what they
 * say after (a sensor may warm up, a value may have moved meanwhile), so the missing debounce and
 * each value's sameness start over.
 */
export function forgetReadings(h: SensorHealth): void {
  h.missingSince.fill(NaN);
  h.value.fill(NaN);
  h.sameSince.fill(NaN);
  h.heardAt = NaN;
}

/**
 * Whether the MCU went quiet before this reading for longer than the app's freshness window: it
 * was offline meanwhile as the app showed it (whether or not its status said so), and two
 * readings either side of a silence are not an hour of one value.
 */
export const wasSilent = (h: SensorHealth, t: number): boolean => t - h.heardAt > CONSTANTS.freshnessWindowMs;


/**
 * How many sensors of a group the MCU should report: as many as its sensors list holds of that
 * type, or when it lists none, the most it has reported. The list decides when it has any, so a
 * grower who takes a sensor out for good says so by removing it from the list.
 */
export const expectedCount = (h: SensorHealth, g: number): number => (h.registered[g]! > 0 ? h.registered[g]! : h.reported[g]!);

/** How many sensors of group `g` a reading reports; 0 when the group is left out. */
export function groupCount(reading: LiveReading, g: number): number {
  switch (g) {
    case 0:
      return reading.DHT?.count ?? 0;
    case 1:
      return reading.SOIL_TEMP?.count ?? 0;
    case 2:
      return reading.CO2?.count ?? 0;
    default:
      return reading.MOISTURE?.count ?? 0;
  }
}

export const stuckValue = (reading: LiveReading, m: number): number | undefined => metricValue(reading, STUCK_METRICS[m]!);

/**
 * The words of a sensor-missing alarm, for each reader's language (server/texts.ts): in English
 * "Room A: humidity sensor missing", "1 of 2 humidity sensors stopped reporting on Room A." A
 * group's sensors are named as the app names the registered type they are (a DHT is a Humidity sensor).
 */
export function missingWords(name: string, group: SensorGroup, reporting: number, expected: number): TitleAndBody {
  const what: Words = { key: `sensorGroups.${group}` };
  const missing = expected - reporting;
  return {
    title: { key: "alarms.sensorMissing.title", values: { name, what }, count: missing },
    body:
      expected === 1
        ? { key: "alarms.sensorMissing.bodySingle", values: { name, what } }
        : { key: "alarms.sensorMissing.bodyOf", values: { name, what, missing }, count: expected },
  };
}

/** A value as the alarm texts write it, with its unit: "1450 ppm", "85.2%", "21.3 °C". */
const metricValueWords = (metric: StuckMetric, value: number): Words => ({
  key: `metrics.${metric}.value`,
  values: { value: { num: metric === "co2" ? Math.round(value) : Math.round(value * 10) / 10, decimals: 1 } },
});

/** The words of a sensor-stuck alarm: in English "Room A: humidity sensor stuck", "Humidity has read exactly 85.2% for 60 minutes: the sensor may have frozen." */
export function stuckWords(name: string, metric: StuckMetric, value: number, afterMs: number): TitleAndBody {
  return {
    title: { key: "alarms.sensorStuck.title", values: { name, what: { key: `metrics.${metric}.sensor` } } },
    body: {
      key: "alarms.sensorStuck.body",
      values: { subject: { key: `metrics.${metric}.subject` }, value: metricValueWords(metric, value), duration: { key: "units.minutes", count: Math.round(afterMs / 60_000) } },
    },
  };
}
