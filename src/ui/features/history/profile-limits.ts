import type { TFunction } from "i18next";
import { LOW_BATTERY_BELOW, TEMPERATURE_TOLERANCE } from "../../../contract/conditions.ts";
import type { ProfileConfig } from "../../../contract/entities.ts";
import type { HistoryMetric } from "../../../contract/history.ts";
import { plainNumber } from "./history-words.ts";

/**
 * What a chart draws of the limits a metric is kept within: a band (where the automation keeps
 * the value) and/or a line (a target or a threshold), and the words for them. The limits are the
 * linked profile's, the same numbers conditions.ts judges "outside the profile" by; the battery's
 * low mark is SPEC §9's.
 */
export interface MetricLimits {
  /** The shaded band, or null. */
  band: { low: number; high: number } | null;
  /** A dashed line (target or threshold), or null. */
  line: number | null;
  /** The caption's words: "Profile: humidifier on below 85 %, off above 93 %". */
  text: string;
  /** From the linked profile (false: a fixed mark, as the battery's). */
  fromProfile: boolean;
  /**
   * A batch's planned limits over time (plan-limits.ts): drawn over their spans in place of `band`
   * and `line`, which then hold only where no batch ran.
   */
  plan?: readonly { from: number; to: number; band: { low: number; high: number } | null; line: number | null }[];
}

export function limitsFor(t: TFunction<"history">, metric: HistoryMetric, config: ProfileConfig | null): MetricLimits | null {
  const n = (v: number) => plainNumber(v);
  if (metric === "battery") return { band: null, line: LOW_BATTERY_BELOW, text: t("limits.battery", { limit: n(LOW_BATTERY_BELOW) }), fromProfile: false };
  if (!config) return null;
  switch (metric) {
    case "humidity": {
      const { humidity_on_below: low, humidity_off_above: high } = config.humidifier;
      return { band: ordered(low, high), line: null, text: t("limits.humidity", { low: n(low), high: n(high) }), fromProfile: true };
    }
    case "soil_moisture": {
      const { soil_moisture_on: low, soil_moisture_off: high } = config.irrigation;
      return { band: ordered(low, high), line: null, text: t("limits.soilMoisture", { low: n(low), high: n(high) }), fromProfile: true };
    }
    case "co2":
      return { band: null, line: config.ventilation.co2_threshold, text: t("limits.co2", { limit: n(config.ventilation.co2_threshold) }), fromProfile: true };
    case "temperature":
    case "soil_temperature": {
      // The AC holds one temperature, the one its profile is based on; the other is only watched.
      const basis = config.ac.based_on === "room_temp" ? "temperature" : "soil_temperature";
      if (metric !== basis) return null;
      const target = config.ac.target_temp;
      return {
        band: { low: target - TEMPERATURE_TOLERANCE, high: target + TEMPERATURE_TOLERANCE },
        line: target,
        text: t("limits.temperature", { target: n(target), tolerance: n(TEMPERATURE_TOLERANCE) }),
        fromProfile: true,
      };
    }
  }
}

/** A band whose limits a profile gave the wrong way round is still drawn between them. */
const ordered = (a: number, b: number) => ({ low: Math.min(a, b), high: Math.max(a, b) });
