import { METRIC_INFO, type HistoryMetric } from "../../../contract/history-values.ts";
import { formatFixed } from "../../i18n/format.ts";

const digitsOf = (metric: HistoryMetric) => (metric === "co2" || metric === "battery" ? 0 : 1);

/** "88.2 %", "1,204 ppm": CO2 and the battery whole, the rest to a tenth, in the person's digits; a dash for no value. */
export function formatMetric(metric: HistoryMetric, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  return `${formatFixed(value, digitsOf(metric))} ${METRIC_INFO[metric].unit}`;
}
