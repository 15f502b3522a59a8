import { useId } from "react";
import { useTranslation } from "react-i18next";
import { EditIcon, TrashIcon } from "./icons.tsx";
import { REFUSED_ICON_BUTTON, RefusalNote } from "./refusal-note.tsx";

/**
 * One controller or sensor card (SPEC §2): name, MAC, type badge, MCU name, edit and delete.
 * The kinds differ only in the badge colour and in whether a blank name is shown as a
 * placeholder (sensors may be unnamed, SPEC §3; controllers always have a name). A role that
 * may not manage the device's farm sees edit and delete off, and why.
 */
export function DeviceCard({
  name,
  mac,
  type,
  mcuName,
  badgeClass,
  unnamed,
  onEdit,
  onDelete,
  refusal = null,
}: {
  name: string;
  mac: string;
  /** The type as the person reads it (the kind's label for its value). */
  type: string;
  mcuName: string | null;
  /** Background and text colour of the type badge, e.g. "bg-sky-50 text-sky-800". */
  badgeClass: string;
  /** Shown instead of a blank name; without it the name is shown as it is. */
  unnamed?: string;
  onEdit: () => void;
  onDelete: () => void;
  /** Why the person's role may not change or remove it (contract/team.ts), or null when it may. */
  refusal?: string | null;
}) {
  const { t } = useTranslation("common");
  const reasonId = useId();
  const describedBy = refusal ? reasonId : undefined;
  const refused = refusal ? ` ${REFUSED_ICON_BUTTON}` : "";
  const blank = unnamed !== undefined && name.trim() === "";
  const shownName = unnamed === undefined ? name : name.trim() || unnamed;
  return (
    <li className="card p-4 4xl:p-6 flex flex-col gap-3">
      <div className="flex items-start gap-2">
        <div className="flex-1 min-w-0">
          <h3 className={`font-semibold truncate 4xl:text-2xl ${blank ? "text-gray-500 italic" : "text-gray-900"}`}>{shownName}</h3>
          <p className="font-mono text-sm 4xl:text-lg text-gray-600 break-all">{mac}</p>
        </div>
        <button type="button" className={`icon-btn 4xl:text-2xl${refused}`} aria-label={t("device.edit", { name: shownName, mac })} onClick={onEdit} disabled={refusal !== null} aria-describedby={describedBy}>
          <EditIcon />
        </button>
        <button
          type="button"
          className={`icon-btn 4xl:text-2xl hover:text-red-700 hover:bg-red-50${refused}`}
          aria-label={t("device.delete", { name: shownName, mac })}
          onClick={onDelete}
          disabled={refusal !== null}
          aria-describedby={describedBy}
        >
          <TrashIcon />
        </button>
      </div>
      <RefusalNote id={reasonId} text={refusal} />
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm 4xl:text-lg">
        <dt className="text-gray-500">{t("device.type")}</dt>
        <dd>
          <span className={`inline-block rounded-full ${badgeClass} px-2 py-0.5 text-xs 4xl:text-base font-medium`}>{type}</span>
        </dd>
        <dt className="text-gray-500">{t("device.mcu")}</dt>
        <dd className={`truncate ${mcuName ? "text-gray-900" : "text-gray-500 italic"}`}>{mcuName ?? t("device.unassigned")}</dd>
      </dl>
    </li>
  );
}
