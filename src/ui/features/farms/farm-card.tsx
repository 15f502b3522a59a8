import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import type { Farm } from "../../../contract/entities.ts";
import { ROLE_LABELS } from "../../../contract/team-values.ts";
import { EditableCardHeader } from "../../components/editable-card-header.tsx";
import { formatDate } from "../../components/dates.ts";
import { ChartIcon, farmHistoryPath } from "../../components/history-link.tsx";
import { ChipIcon, ClipboardIcon, PhoneIcon, UsersIcon } from "../../components/icons.tsx";
import { useFarmRole, useRefusal } from "../../data/farm-roles.ts";
import { useClient } from "../../data/provider.tsx";

/** The screens of a farm's team: its members, who is on call when, and what was changed by whom. */
const farmMembersPath = (farmId: number) => `/farms/${farmId}/members`;
const farmRotaPath = (farmId: number) => `/farms/${farmId}/rota`;
const farmAuditPath = (farmId: number) => `/farms/${farmId}/audit`;

/** A link at the foot of a farm card, a wet thumb's size. */
function FarmLink({ to, label, children }: { to: string; label: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      aria-label={label}
      className="inline-flex min-h-12 items-center gap-1.5 rounded-lg px-2 text-sm 4xl:text-xl font-medium text-brand-700 hover:bg-brand-50 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      {children}
    </Link>
  );
}

/**
 * One farm of the Manage Farms grid (SPEC §2): no status is shown here (SPEC §4). A farm of
 * another account says so with the person's role on it, and what that role may not do is off.
 */
export function FarmCard({ farm, onEdit, onDelete, deleting }: { farm: Farm; onEdit: () => void; onDelete: () => void; deleting: boolean }) {
  const headingId = `farm-${farm.farm_id}-name`;
  const role = useFarmRole(farm.farm_id);
  const shared = farm.client_id !== useClient()?.client_id;
  const editRefusal = useRefusal(farm.farm_id, "editFarm");
  const canAddMcu = useRefusal(farm.farm_id, "manageDevices") === null;
  const auditRefused = useRefusal(farm.farm_id, "readAudit") !== null;
  return (
    <article aria-labelledby={headingId} className="card w-full p-5 4xl:p-7 flex flex-col">
      <EditableCardHeader headingId={headingId} name={farm.name} noun="farm" onEdit={onEdit} onDelete={onDelete} deleting={deleting} refusal={editRefusal}>
        <p className="text-sm 4xl:text-xl text-gray-600 break-words">{farm.location}</p>
        {shared && (
          <p className="mt-1.5 inline-block rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs 4xl:text-lg font-medium text-indigo-800 ring-1 ring-inset ring-indigo-200">
            Shared with you{role && ` · ${ROLE_LABELS[role]}`}
          </p>
        )}
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
            {canAddMcu && (
              <Link to="/mcu" className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
                Add MCU
              </Link>
            )}
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
      {/* Two columns: up to four links stand in a tidy square rather than a ragged wrap. */}
      <div className="mt-3 -ml-2 -mb-2 grid grid-cols-2 justify-items-start">
        {farm.mcus.length > 0 && (
          <FarmLink to={farmHistoryPath(farm.farm_id)} label={`History of farm ${farm.name}`}>
            <ChartIcon /> History
          </FarmLink>
        )}
        <FarmLink to={farmMembersPath(farm.farm_id)} label={`Members of farm ${farm.name}`}>
          <UsersIcon /> Members
        </FarmLink>
        <FarmLink to={farmRotaPath(farm.farm_id)} label={`On-call rota of farm ${farm.name}`}>
          <PhoneIcon /> On-call rota
        </FarmLink>
        {!auditRefused && (
          <FarmLink to={farmAuditPath(farm.farm_id)} label={`Audit trail of farm ${farm.name}`}>
            <ClipboardIcon /> Audit trail
          </FarmLink>
        )}
      </div>
    </article>
  );
}
