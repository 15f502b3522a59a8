import { Link } from "react-router-dom";
import { progressLabel, type Batch } from "../../../contract/grow.ts";
import { harvestTotalKg } from "./batch-plan.ts";
import { batchPath } from "./batch-path.ts";
import { batchStatus, phaseOfText } from "./batch-status.ts";
import { PhaseProgressBar } from "./phase-progress-bar.tsx";
import { formatKg } from "./zone-dates.ts";

/** A running batch at a glance: where it is, what comes next, what it gave so far. */
export function BatchCard({ batch, mcuNames, now }: { batch: Batch; mcuNames: string[]; now: number }) {
  const status = batchStatus(batch, now);
  const label = progressLabel(status.progress);
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
        <p className="text-sm 4xl:text-xl text-gray-600">
          {batch.recipe_name} · version {batch.recipe_version}
        </p>
      </div>

      <div>
        <p className={`text-base 4xl:text-2xl font-semibold ${status.progress.held ? "text-amber-800" : status.progress.waiting ? "text-brand-800" : "text-gray-900"}`}>{label}</p>
        <p className="text-sm 4xl:text-xl text-gray-700">{status.nextText}</p>
      </div>

      <PhaseProgressBar phases={status.phases} currentFraction={status.progress.fraction} overall={status.overall} held={status.progress.held} label={`Progress of ${batch.name}`} valueText={phaseOfText(status, label)} />

      <dl className="grid grid-cols-2 gap-2 text-sm 4xl:text-xl">
        <div className="rounded-lg bg-gray-50 px-3 py-2 min-w-0">
          <dt className="text-gray-500">{mcuNames.length === 1 ? "MCU" : "MCUs"}</dt>
          <dd className="font-medium text-gray-900 break-words">{mcuNames.join(", ") || "—"}</dd>
        </div>
        <div className="rounded-lg bg-gray-50 px-3 py-2">
          <dt className="text-gray-500">Harvest so far</dt>
          <dd className="font-medium text-gray-900">
            {formatKg(total)}
            {flushes > 0 && <span className="text-gray-600 font-normal"> · {flushes === 1 ? "1 flush" : `${flushes} flushes`}</span>}
          </dd>
        </div>
      </dl>

      <Link to={batchPath(batch.batch_id)} aria-label={`Open batch ${batch.name}`} className="btn-secondary mt-auto min-h-11 4xl:text-xl">
        Open batch
      </Link>
    </article>
  );
}
