import type { Controller } from "../../../contract/entities.ts";
import { EditIcon, TrashIcon } from "../../components/icons.tsx";

/** One controller (SPEC §2): name, MAC, type, MCU name, edit and delete. */
export function ControllerCard({ controller, mcuName, onEdit, onDelete }: { controller: Controller; mcuName: string | null; onEdit: () => void; onDelete: () => void }) {
  return (
    <li className="card p-4 4xl:p-6 flex flex-col gap-3">
      <div className="flex items-start gap-2">
        <div className="flex-1 min-w-0">
          <h3 className="font-semibold text-gray-900 truncate 4xl:text-2xl">{controller.name}</h3>
          <p className="font-mono text-sm 4xl:text-lg text-gray-600 break-all">{controller.mac}</p>
        </div>
        <button type="button" className="icon-btn 4xl:text-2xl" aria-label={`Edit ${controller.name} (${controller.mac})`} onClick={onEdit}>
          <EditIcon />
        </button>
        <button type="button" className="icon-btn 4xl:text-2xl hover:text-red-700 hover:bg-red-50" aria-label={`Delete ${controller.name} (${controller.mac})`} onClick={onDelete}>
          <TrashIcon />
        </button>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm 4xl:text-lg">
        <dt className="text-gray-500">Type</dt>
        <dd>
          <span className="inline-block rounded-full bg-brand-50 text-brand-800 px-2 py-0.5 text-xs 4xl:text-base font-medium">{controller.type}</span>
        </dd>
        <dt className="text-gray-500">MCU</dt>
        <dd className={`truncate ${mcuName ? "text-gray-900" : "text-gray-500 italic"}`}>{mcuName ?? "Unassigned"}</dd>
      </dl>
    </li>
  );
}
