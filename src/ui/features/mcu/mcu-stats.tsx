import type { ComponentType, SVGProps } from "react";
import { useTranslation } from "react-i18next";
import { BatteryIcon, ChipIcon, WifiIcon, WifiOffIcon } from "../../components/icons.tsx";
import { useMcuStats } from "../../data/hooks.ts";
import { numberFormat } from "../../i18n/format.ts";
import { useLocale } from "../../i18n/i18n.ts";

/** Counts in the person's digits, ungrouped as the cards have always shown them ("1988"). */
const COUNT: Intl.NumberFormatOptions = { maximumFractionDigits: 0, useGrouping: false };

/**
 * SPEC §2 stat cards. Online and Offline count the live status the cards' badges show and the
 * status filter matches (`mcuLiveStatus`), so a new MCU that has never reported (Active) and one
 * in Maintenance are in neither. The core counts them over the whole fleet.
 */
export function McuStats() {
  const { t } = useTranslation("mcu");
  useLocale(); // re-renders on a change of digits, which the counts are written in
  const { total, online, offline, lowBattery: low } = useMcuStats();
  return (
    <dl className="grid grid-cols-2 lg:grid-cols-4 gap-3 sm:gap-4 4xl:gap-6">
      <Stat label={t("stats.total")} value={total} Icon={ChipIcon} tone="bg-brand-50 text-brand-700" />
      <Stat label={t("stats.online")} value={online} Icon={WifiIcon} tone="bg-green-50 text-green-700" />
      <Stat label={t("stats.offline")} value={offline} Icon={WifiOffIcon} tone="bg-gray-100 text-gray-700" />
      <Stat label={t("stats.lowBattery")} value={low} Icon={BatteryIcon} tone="bg-red-50 text-red-700" />
    </dl>
  );
}

function Stat({ label, value, Icon, tone }: { label: string; value: number; Icon: ComponentType<SVGProps<SVGSVGElement>>; tone: string }) {
  return (
    <div className="card p-3 sm:p-4 4xl:p-6 flex items-center gap-3 min-w-0">
      <span className={`shrink-0 rounded-xl p-2 sm:p-2.5 4xl:p-4 text-xl 4xl:text-4xl ${tone}`} aria-hidden="true">
        <Icon />
      </span>
      <div className="min-w-0">
        <dt className="text-xs sm:text-sm 4xl:text-2xl text-gray-600 truncate">{label}</dt>
        <dd className="text-2xl 4xl:text-5xl font-semibold text-gray-900 tabular-nums">{numberFormat(COUNT).format(value)}</dd>
      </div>
    </div>
  );
}
