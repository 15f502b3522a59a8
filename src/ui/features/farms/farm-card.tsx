import { Link } from "react-router-dom";
import type { Farm } from "../../../contract/entities.ts";
import { EditableCardHeader } from "../../components/editable-card-header.tsx";
import { formatDate } from "../../components/dates.ts";
import { ChartIcon, farmHistoryPath } from "../../components/history-link.tsx";
import { ChipIcon } from "../../components/icons.tsx";

/** One farm of the Manage Farms grid (SPEC §2): no status is shown here (SPEC §4). */
export function FarmCard({ farm, onEdit, onDelete, deleting }: { farm: Farm; onEdit: () => void; onDelete: () => void; deleting: boolean }) {
  const headingId = `farm-${farm.farm_id}-name`;
  return (
    <article aria-labelledby={headingId} className="card w-full p-5 4xl:p-7 flex flex-col">
      <EditableCardHeader headingId={headingId} name={farm.name} noun="farm" onEdit={onEdit} onDelete={onDelete} deleting={deleting}>
        <p className="text-sm 4xl:text-xl text-gray-600 break-words">{farm.location}</p>
      </EditableCardHeader>

      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm 4xl:text-xl">
        <div className="rounded-lg bg-gray-50 px-3 py-2">
          <dt className="text-gray-500">MCUs</dt>
          <dd className="font-semibold text-gray-900">{farm.mcuCount}</dd>
        </div>
        <div className="rounded-lg bg-gray-50 px-3 py-2">
          <dt className="text-gray-500">Created</dt>
          <dd className="font-semibold text-gray-900">
            <time dateTime={farm.createdAt}>{formatDate(farm.createdAt)}</time>
          </dd>
        </div>
      </dl>

      <div className="mt-4 flex-1">
        <h4 className="text-xs 4xl:text-lg font-semibold uppercase tracking-wide text-gray-500 mb-2">Connected MCUs</h4>
        {farm.mcus.length === 0 ? (
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-dashed border-gray-300 px-3 py-2 text-sm 4xl:text-xl">
            <p className="text-gray-600">No MCUs connected</p>
            <Link to="/mcu" className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
              Add MCU
            </Link>
          </div>
        ) : (
          <ul className="divide-y divide-gray-100 text-sm 4xl:text-xl">
            {farm.mcus.map((mcu) => (
              <li key={mcu.mcu_id} className="flex items-center justify-between gap-3 py-1.5">
                <span className="flex items-center gap-2 min-w-0 text-gray-800">
                  <ChipIcon className="shrink-0 text-gray-400" />
                  <span className="truncate">{mcu.name}</span>
                </span>
                <span className="shrink-0 rounded bg-gray-100 px-2 py-0.5 font-mono text-xs 4xl:text-lg text-gray-600">ID {mcu.mcu_id}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {farm.mcus.length > 0 && (
        <Link
          to={farmHistoryPath(farm.farm_id)}
          aria-label={`History of farm ${farm.name}`}
          className="mt-3 self-start -ml-2 -mb-2 inline-flex min-h-11 items-center gap-1.5 rounded-lg px-2 text-sm 4xl:text-xl font-medium text-brand-700 hover:bg-brand-50 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <ChartIcon /> History
        </Link>
      )}
    </article>
  );
}
