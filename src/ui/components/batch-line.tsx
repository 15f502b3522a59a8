import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { McuGrowView } from "../../contract/live.ts";

/**
 * The batch an MCU follows, on its cards: which one (a link to it) and where it is ("Fruiting · day
 * 3 of 7", as the card's view writes it). While a batch runs, the device's config is the batch's
 * plan: a linked profile is set aside, and the card says so rather than leaving the profile's name
 * as if it were in force.
 */
export function BatchLine({ grow, profileName, className = "", prefix = true }: { grow: McuGrowView; profileName: string | null; className?: string; prefix?: boolean }) {
  const { t } = useTranslation("common");
  return (
    <div className={className}>
      <p className="text-gray-700">
        {/* Where a "Batch" term already names it (the MCU Manager's list), no prefix. */}
        {prefix && <span className="text-gray-500">{t("batchLine.batch")} </span>}
        <Link to={`/batches/${grow.batchId}`} className="font-medium text-brand-700 hover:underline">
          {grow.batchName}
        </Link>
        <span className="block text-brand-800 font-medium">{grow.label}</span>
      </p>
      {profileName !== null && <p className="text-xs 4xl:text-base text-gray-600">{t("batchLine.profileSetAside", { name: profileName })}</p>}
    </div>
  );
}
