import { memo } from "react";
import type { Farm } from "../../../contract/entities.ts";
import { formatDateTime } from "../../components/dates.ts";
import { useFarmStatus } from "../../data/hooks.ts";
import { i18n, useLocale } from "../../i18n/i18n.ts";
import { formatCount } from "./sensor-totals.ts";

/** The card's words, looked up at each render: it re-renders on a change of language or digits through `useLocale()`. */
const t = i18n.getFixedT(null, "dashboard");

const STATUS_LOOK: Record<string, string> = {
  active: "bg-brand-100 text-brand-800",
  warning: "bg-amber-100 text-amber-800",
  offline: "bg-gray-200 text-gray-700",
};

/**
 * One farm of the "Your Farms" grid (SPEC §2): name, status badge, location, MCU count, updated
 * time. The badge follows the farm's live status (SPEC §3), derived from its MCUs.
 */
export const FarmCard = memo(function FarmCard({ farm }: { farm: Farm }) {
  const status = useFarmStatus(farm);
  useLocale();
  return (
    <li className="card p-4 4xl:p-6">
      <div className="flex items-start justify-between gap-3">
        <h3 className="font-semibold text-gray-900 4xl:text-2xl break-words min-w-0">
          {farm.name}
        </h3>
        <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs 4xl:text-lg font-medium ${STATUS_LOOK[status] ?? "bg-gray-100 text-gray-700"}`}>
          {t(`farmCard.status.${status}`)}
        </span>
      </div>
      <p className="mt-1 text-sm 4xl:text-xl text-gray-600 break-words">{farm.location}</p>
      <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm 4xl:text-xl">
        <div className="flex gap-1">
          <dt className="text-gray-500">{t("farmCard.mcus")}</dt>
          <dd className="font-medium text-gray-900 tabular-nums">{formatCount(farm.mcuCount)}</dd>
        </div>
        <div className="flex gap-1">
          <dt className="text-gray-500">{t("farmCard.updated")}</dt>
          <dd className="text-gray-900">
            <time dateTime={farm.updatedAt}>{formatDateTime(farm.updatedAt)}</time>
          </dd>
        </div>
      </dl>
    </li>
  );
});
