import type { HistoryMetric } from "../../../contract/history-values.ts";
import { formatFixed } from "../../i18n/format.ts";
import { i18n } from "../../i18n/i18n.ts";

const digitsOf = (metric: HistoryMetric) => (metric === "co2" || metric === "battery" ? 0 : 1);

/**
 * "88.2 %", "1,204 ppm": CO2 and the battery whole, the rest to a tenth, in the person's language
 * and digits; a dash for no value. Read at call time (a chart's legend asks as the pointer moves).
 */
export function formatMetric(metric: HistoryMetric, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  return i18n.t(`history:values.${metric}`, { value: formatFixed(value, digitsOf(metric)) });
}
