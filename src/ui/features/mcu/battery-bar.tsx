import { BatteryIcon } from "../../components/icons.tsx";
import { i18n } from "../../i18n/i18n.ts";
import { numberFormat } from "../../i18n/format.ts";
import { shownBattery, type BatteryColor } from "./battery.ts";

const FILL: Record<BatteryColor, string> = { green: "bg-green-500", yellow: "bg-yellow-400", red: "bg-red-500" };
const TEXT: Record<BatteryColor, string> = { green: "text-green-700", yellow: "text-yellow-800", red: "text-red-700" };
const PERCENT: Intl.NumberFormatOptions = { style: "percent", maximumFractionDigits: 0 };

/**
 * The battery level as a coloured bar with its percentage (the colour is never the only cue).
 * A meter to assistive technology, named by `label`. Its card re-renders it on a change of
 * language or digits (`useLocale()`); the percentage is written in them ("64%", "64 %", "٦٤٪").
 */
export function BatteryBar({ level, label }: { level: number | null; label?: string }) {
  if (level === null) {
    return <span className="text-sm text-gray-500">{i18n.t("mcu:battery.noData")}</span>;
  }
  const { clamped, color } = shownBattery(level);
  const shown = numberFormat(PERCENT).format(Math.round(clamped) / 100);
  return (
    <div className="flex items-center gap-2 min-w-0">
      <BatteryIcon className={`shrink-0 ${TEXT[color]}`} />
      <div
        role="meter"
        aria-label={label ?? i18n.t("mcu:battery.label")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={clamped}
        aria-valuetext={shown}
        data-color={color}
        className="flex-1 h-2.5 4xl:h-4 rounded-full bg-gray-200 overflow-hidden"
      >
        <div className={`h-full rounded-full ${FILL[color]}`} style={{ width: `${clamped}%` }} />
      </div>
      <span className={`w-11 4xl:w-16 text-end text-sm 4xl:text-xl font-medium tabular-nums whitespace-nowrap ${TEXT[color]}`} aria-hidden="true">
        {shown}
      </span>
    </div>
  );
}
