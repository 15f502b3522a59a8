import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { EditIcon, TrashIcon } from "./icons.tsx";
import { REFUSED_ICON_BUTTON, RefusalNote } from "./refusal-note.tsx";

/**
 * The top of a card the client manages (a farm, a setting profile): the name that labels the
 * card's article, a detail line under it, and the edit and delete icon buttons. The buttons say
 * which item they act on, since a screen reader lists many cards' buttons together. A role that
 * may not change the item has both buttons off, with the reason under them.
 */
export function EditableCardHeader({
  headingId,
  name,
  noun,
  children,
  onEdit,
  onDelete,
  deleting,
  refusal = null,
}: {
  /** The id the card's `aria-labelledby` points at. */
  headingId: string;
  name: string;
  /**
   * What the item is, in the buttons' names, in the person's language as it reads after the verb:
   * "Edit farm North Room", "Modifier la ferme North Room".
   */
  noun: string;
  /** The detail line under the name. */
  children: ReactNode;
  onEdit: () => void;
  onDelete: () => void;
  /** A delete is under way: a second click would ask the server twice. */
  deleting: boolean;
  /** Why the person's role may neither edit nor delete it (contract/team.ts), or null when it may. */
  refusal?: string | null;
}) {
  const { t } = useTranslation("common");
  const reasonId = useId();
  const describedBy = refusal ? reasonId : undefined;
  const refused = refusal ? REFUSED_ICON_BUTTON : "";
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={headingId} className="text-lg 4xl:text-3xl font-semibold text-gray-900 break-words">
            {name}
          </h3>
          {children}
        </div>
        <div className="flex shrink-0 -me-2 -mt-1">
          <button type="button" className={`icon-btn ${refused}`} aria-label={t("card.edit", { noun, name })} onClick={onEdit} disabled={refusal !== null} aria-describedby={describedBy}>
            <EditIcon className="text-lg 4xl:text-3xl" />
          </button>
          <button
            type="button"
            className={`icon-btn hover:text-red-700 hover:bg-red-50 ${refused}`}
            aria-label={t("card.delete", { noun, name })}
            onClick={onDelete}
            disabled={deleting || refusal !== null}
            aria-describedby={describedBy}
          >
            <TrashIcon className="text-lg 4xl:text-3xl" />
          </button>
        </div>
      </div>
      <RefusalNote id={reasonId} text={refusal} className="mt-2" />
    </>
  );
}
