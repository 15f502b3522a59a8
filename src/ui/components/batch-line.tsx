import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { McuGrowPlace, McuGrowView } from "../../contract/live.ts";
import type { TFunction } from "i18next";

/** Where the batch is, in the reader's language (the phase's name and what it waits for are the grower's own words). */
function placeText(t: TFunction<"common">, place: McuGrowPlace): string {
  if (place.state === "held") return t("batchLine.place.held", { phase: place.phase });
  if (place.state === "waiting") return t("batchLine.place.waiting", { phase: place.phase, day: place.day, confirm: place.confirm });
  return t("batchLine.place.day", { phase: place.phase, day: place.day, days: place.days });
}

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
        <span className="block text-brand-800 font-medium">{placeText(t, grow.place)}</span>
      </p>
      {profileName !== null && <p className="text-xs 4xl:text-base text-gray-600">{t("batchLine.profileSetAside", { name: profileName })}</p>}
    </div>
  );
}
