import { METRIC_INFO, type HistoryMetric } from "../../../contract/history-values.ts";

/** CO2 in whole ppm, the rest to a tenth, in the farmer's locale; formatters made once. */
const FORMATTERS = [0, 1].map((digits) => new Intl.NumberFormat(undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits }));
const digitsOf = (metric: HistoryMetric) => (metric === "co2" || metric === "battery" ? 0 : 1);

/** "88.2 %", "1,204 ppm"; a dash for no value. */
export function formatMetric(metric: HistoryMetric, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  return `${FORMATTERS[digitsOf(metric)]!.format(value)} ${METRIC_INFO[metric].unit}`;
}
