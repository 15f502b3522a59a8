import type { McuStatus } from "../../../contract/entities.ts";
import { i18n } from "../../i18n/i18n.ts";

const STYLES: Record<McuStatus, string> = {
  active: "bg-blue-50 text-blue-800 ring-blue-200",
  online: "bg-green-50 text-green-800 ring-green-200",
  offline: "bg-gray-100 text-gray-700 ring-gray-300",
  maintenance: "bg-amber-50 text-amber-800 ring-amber-200",
};
const DOTS: Record<McuStatus, string> = { active: "bg-blue-500", online: "bg-green-500", offline: "bg-gray-400", maintenance: "bg-amber-500" };

/**
 * The MCU's status field (SPEC §4) as a labelled pill; the word carries the meaning, the colour helps.
 * Part of a card, which re-renders it on a change of language (`useLocale()`), so it reads its word
 * without a subscription of its own.
 */
export function StatusBadge({ status }: { status: McuStatus }) {
  return (
    <span className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs 4xl:text-base font-medium ring-1 ring-inset whitespace-nowrap ${STYLES[status]}`}>
      <span className={`w-1.5 h-1.5 rounded-full ${DOTS[status]}`} aria-hidden="true" />
      {i18n.t(`mcu:status.${status}`)}
    </span>
  );
}
