import { Link } from "react-router-dom";
import type { Farm } from "../../../contract/entities.ts";
import { ChipIcon, EditIcon, TrashIcon } from "../../components/icons.tsx";

const dateFormat = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric" });

/** One farm of the Manage Farms grid (SPEC §2): no status is shown here (SPEC §4). */
export function FarmCard({ farm, onEdit, onDelete, deleting }: { farm: Farm; onEdit: () => void; onDelete: () => void; deleting: boolean }) {
  const headingId = `farm-${farm.farm_id}-name`;
  return (
    <article aria-labelledby={headingId} className="card w-full p-5 4xl:p-7 flex flex-col">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={headingId} className="text-lg 4xl:text-3xl font-semibold text-gray-900 break-words">
            {farm.name}
          </h3>
          <p className="text-sm 4xl:text-xl text-gray-600 break-words">{farm.location}</p>
        </div>
        <div className="flex shrink-0 -mr-2 -mt-1">
          <button type="button" className="icon-btn" aria-label={`Edit farm ${farm.name}`} onClick={onEdit}>
            <EditIcon className="text-lg 4xl:text-3xl" />
          </button>
          <button type="button" className="icon-btn hover:text-red-700 hover:bg-red-50" aria-label={`Delete farm ${farm.name}`} onClick={onDelete} disabled={deleting}>
            <TrashIcon className="text-lg 4xl:text-3xl" />
          </button>
        </div>
      </div>

      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm 4xl:text-xl">
        <div className="rounded-lg bg-gray-50 px-3 py-2">
          <dt className="text-gray-500">MCUs</dt>
          <dd className="font-semibold text-gray-900">{farm.mcuCount}</dd>
        </div>
        <div className="rounded-lg bg-gray-50 px-3 py-2">
          <dt className="text-gray-500">Created</dt>
          <dd className="font-semibold text-gray-900">
            <time dateTime={farm.createdAt}>{dateFormat.format(new Date(farm.createdAt))}</time>
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
    </article>
  );
}
