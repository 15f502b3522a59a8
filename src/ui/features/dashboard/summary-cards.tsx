import type { ComponentType, SVGProps } from "react";
import { useTranslation } from "react-i18next";
import { ChipIcon, FarmIcon, InfoIcon, WifiOffIcon } from "../../components/icons.tsx";
import { useDashboardSummary } from "../../data/hooks.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { formatCount } from "./sensor-totals.ts";

interface SummaryCardProps {
  label: string;
  value: number | null;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  tone: string;
}

function SummaryCard({ label, value, Icon, tone }: SummaryCardProps) {
  return (
    <li className="card p-4 4xl:p-6 flex items-center gap-3 4xl:gap-5">
      <span className={`shrink-0 rounded-xl p-2.5 4xl:p-4 text-2xl 4xl:text-4xl ${tone}`}>
        <Icon />
      </span>
      <div className="min-w-0">
        <p className="text-sm 4xl:text-xl text-gray-600">{label}</p>
        {/* null while the lists are still loading: a 0 there would be a false statement. */}
        <p className="text-2xl 4xl:text-5xl font-semibold text-gray-900 tabular-nums" aria-busy={value === null}>
          {value === null ? "…" : formatCount(value)}
        </p>
      </div>
    </li>
  );
}

/** SPEC §2: Total Farms, Active MCUs (live status online), Warnings (farms), Offline MCUs. */
export function SummaryCards({ farmsReady, mcusReady }: { farmsReady: boolean; mcusReady: boolean }) {
  const { t } = useTranslation("dashboard");
  useLocale(); // re-renders on a change of digits, which the counts are written in
  // Null until the core has computed it over the lists (it shows "…", not a false 0).
  const s = useDashboardSummary();
  return (
    <section aria-labelledby="summary-heading">
      <h2 id="summary-heading" className="sr-only">
        {t("summary.heading")}
      </h2>
      <ul className="grid grid-cols-2 lg:grid-cols-4 gap-3 sm:gap-4 4xl:gap-6">
        <SummaryCard label={t("summary.totalFarms")} value={farmsReady && s ? s.totalFarms : null} Icon={FarmIcon} tone="bg-brand-50 text-brand-700" />
        <SummaryCard label={t("summary.activeMcus")} value={mcusReady && s ? s.activeMcus : null} Icon={ChipIcon} tone="bg-sky-50 text-sky-700" />
        <SummaryCard label={t("summary.warnings")} value={farmsReady && s ? s.warnings : null} Icon={InfoIcon} tone="bg-amber-50 text-amber-700" />
        <SummaryCard label={t("summary.offlineMcus")} value={mcusReady && s ? s.offlineMcus : null} Icon={WifiOffIcon} tone="bg-gray-100 text-gray-700" />
      </ul>
    </section>
  );
}
