import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { Batch } from "../../../contract/grow.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { harvestTotalKg } from "./batch-plan.ts";
import { batchPath } from "./batch-path.ts";
import { batchStatus, phaseOfText, progressText } from "./batch-status.ts";
import { num } from "./whole-number.ts";
import { PhaseProgressBar } from "./phase-progress-bar.tsx";
import { formatKg } from "./zone-dates.ts";

/** A running batch at a glance: where it is, what comes next, what it gave so far. */
export function BatchCard({ batch, mcuNames, now }: { batch: Batch; mcuNames: string[]; now: number }) {
  const { t } = useTranslation("batches");
  useLocale();
  const status = batchStatus(batch, now);
  const label = progressText(status.progress);
  const headingId = `batch-${batch.batch_id}-name`;
  const total = harvestTotalKg(batch);
  const flushes = batch.harvests.length;
  return (
    <article aria-labelledby={headingId} className="card w-full p-5 4xl:p-7 flex flex-col gap-3 4xl:gap-5">
      <div>
        <h3 id={headingId} className="text-lg 4xl:text-3xl font-semibold text-gray-900 break-words">
          <Link to={batchPath(batch.batch_id)} className="hover:text-brand-800 hover:underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-brand-600 rounded">
            {batch.name}
          </Link>
        </h3>
        <p className="text-sm 4xl:text-xl text-gray-600">{t("card.recipeVersion", { recipe: batch.recipe_name, version: num(batch.recipe_version) })}</p>
      </div>

      <div>
        <p className={`text-base 4xl:text-2xl font-semibold ${status.progress.held ? "text-amber-800" : status.progress.waiting ? "text-brand-800" : "text-gray-900"}`}>{label}</p>
        <p className="text-sm 4xl:text-xl text-gray-700">{status.nextText}</p>
      </div>

      <PhaseProgressBar phases={status.phases} currentFraction={status.progress.fraction} overall={status.overall} held={status.progress.held} label={t("card.progress", { name: batch.name })} valueText={phaseOfText(status, label)} />

      <dl className="grid grid-cols-2 gap-2 text-sm 4xl:text-xl">
        <div className="rounded-lg bg-gray-50 px-3 py-2 min-w-0">
          <dt className="text-gray-500">{t("card.mcus", { count: mcuNames.length })}</dt>
          <dd className="font-medium text-gray-900 break-words">{mcuNames.join(t("card.listSeparator")) || "—"}</dd>
        </div>
        <div className="rounded-lg bg-gray-50 px-3 py-2">
          <dt className="text-gray-500">{t("card.harvestSoFar")}</dt>
          <dd className="font-medium text-gray-900">
            {formatKg(total)}
            {flushes > 0 && <span className="text-gray-600 font-normal"> · {t("card.flushes", { count: flushes })}</span>}
          </dd>
        </div>
      </dl>

      <Link to={batchPath(batch.batch_id)} aria-label={t("card.openNamed", { name: batch.name })} className="btn-secondary mt-auto min-h-11 4xl:text-xl">
        {t("card.open")}
      </Link>
    </article>
  );
}
