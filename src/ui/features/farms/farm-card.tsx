import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { Farm } from "../../../contract/entities.ts";
import { EditableCardHeader } from "../../components/editable-card-header.tsx";
import { ChartIcon, farmHistoryPath } from "../../components/history-link.tsx";
import { ChipIcon, ClipboardIcon, PhoneIcon, UsersIcon } from "../../components/icons.tsx";
import { useFarmRole, useRefusal } from "../../data/farm-roles.ts";
import { useClient } from "../../data/provider.tsx";
import { dateTimeFormat, formatFixed } from "../../i18n/format.ts";
import { useLocale } from "../../i18n/i18n.ts";

/** The screens of a farm's team: its members, who is on call when, and what was changed by whom. */
const farmMembersPath = (farmId: number) => `/farms/${farmId}/members`;
const farmRotaPath = (farmId: number) => `/farms/${farmId}/rota`;
const farmAuditPath = (farmId: number) => `/farms/${farmId}/audit`;

/** The farm's creation day in the person's language and digits; nothing for a date that does not parse. */
function createdDay(value: string): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? "" : dateTimeFormat({ dateStyle: "medium" }).format(d);
}

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
  const { t } = useTranslation("farms");
  // The MCU count and the date follow a change of digits, which changes no text.
  useLocale();
  const headingId = `farm-${farm.farm_id}-name`;
  const role = useFarmRole(farm.farm_id);
  const shared = farm.client_id !== useClient()?.client_id;
  const editRefusal = useRefusal(farm.farm_id, "editFarm");
  const canAddMcu = useRefusal(farm.farm_id, "manageDevices") === null;
  const auditRefused = useRefusal(farm.farm_id, "readAudit") !== null;
  return (
    <article aria-labelledby={headingId} className="card w-full p-5 4xl:p-7 flex flex-col">
      <EditableCardHeader headingId={headingId} name={farm.name} noun={t("card.noun")} onEdit={onEdit} onDelete={onDelete} deleting={deleting} refusal={editRefusal}>
        <p className="text-sm 4xl:text-xl text-gray-600 break-words">{farm.location}</p>
        {shared && (
          <p className="mt-1.5 inline-block rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs 4xl:text-lg font-medium text-indigo-800 ring-1 ring-inset ring-indigo-200">
            {role ? t("card.sharedAs", { role: t(`roles.${role}`) }) : t("card.shared")}
          </p>
        )}
      </EditableCardHeader>

      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm 4xl:text-xl">
        <div className="rounded-lg bg-gray-50 px-3 py-2">
          <dt className="text-gray-500">{t("card.mcus")}</dt>
          <dd className="font-semibold text-gray-900">{formatFixed(farm.mcuCount, 0)}</dd>
        </div>
        <div className="rounded-lg bg-gray-50 px-3 py-2">
          <dt className="text-gray-500">{t("card.created")}</dt>
          <dd className="font-semibold text-gray-900">
            <time dateTime={farm.createdAt}>{createdDay(farm.createdAt)}</time>
          </dd>
        </div>
      </dl>

      <div className="mt-4 flex-1">
        <h4 className="text-xs 4xl:text-lg font-semibold uppercase tracking-wide text-gray-500 mb-2">{t("card.connectedMcus")}</h4>
        {farm.mcus.length === 0 ? (
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-dashed border-gray-300 px-3 py-2 text-sm 4xl:text-xl">
            <p className="text-gray-600">{t("card.noMcus")}</p>
            {canAddMcu && (
              <Link to="/mcu" className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
                {t("card.addMcu")}
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
                <span className="shrink-0 rounded bg-gray-100 px-2 py-0.5 font-mono text-xs 4xl:text-lg text-gray-600">{t("card.mcuId", { id: mcu.mcu_id })}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {/* Two columns: up to four links stand in a tidy square rather than a ragged wrap. */}
      <div className="mt-3 -ms-2 -mb-2 grid grid-cols-2 justify-items-start">
        {farm.mcus.length > 0 && (
          <FarmLink to={farmHistoryPath(farm.farm_id)} label={t("card.historyOf", { name: farm.name })}>
            <ChartIcon /> {t("card.history")}
          </FarmLink>
        )}
        <FarmLink to={farmMembersPath(farm.farm_id)} label={t("card.membersOf", { name: farm.name })}>
          <UsersIcon /> {t("card.members")}
        </FarmLink>
        <FarmLink to={farmRotaPath(farm.farm_id)} label={t("card.rotaOf", { name: farm.name })}>
          <PhoneIcon /> {t("card.rota")}
        </FarmLink>
        {!auditRefused && (
          <FarmLink to={farmAuditPath(farm.farm_id)} label={t("card.auditOf", { name: farm.name })}>
            <ClipboardIcon /> {t("card.audit")}
          </FarmLink>
        )}
      </div>
    </article>
  );
}
