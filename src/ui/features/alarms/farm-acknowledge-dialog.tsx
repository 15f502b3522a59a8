import { useId, useMemo, useState } from "react";
import type { Alarm } from "../../../contract/alarms-values.ts";
import { Modal } from "../../components/modal.tsx";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { AcknowledgeForm, useAcknowledging } from "./acknowledge-form.tsx";

/** A farm with open alarms, as the dialog offers it. */
export interface FarmWithOpenAlarms {
  farmId: number;
  name: string;
  open: number;
}

/** The farms of the open alarms, with how many each has, most first (then by name). */
export function farmsWithOpenAlarms(active: readonly Alarm[]): FarmWithOpenAlarms[] {
  const byFarm = new Map<number, FarmWithOpenAlarms>();
  for (const a of active) {
    if (a.state !== "open" || a.farm_id === null) continue;
    const farm = byFarm.get(a.farm_id) ?? { farmId: a.farm_id, name: a.farm_name ?? `Farm ${a.farm_id}`, open: 0 };
    farm.open++;
    byFarm.set(a.farm_id, farm);
  }
  return [...byFarm.values()].sort((x, y) => y.open - x.open || x.name.localeCompare(y.name));
}

const alarmsWord = (n: number) => (n === 1 ? "1 open alarm" : `${n} open alarms`);

/**
 * Acknowledging every open alarm of a farm at once (after a visit that dealt with them all): the
 * farmer picks the farm (the one filtered on, else the one with most open alarms), sees how many
 * it will acknowledge, may add one comment for all, and confirms. Each alarm keeps its own record.
 */
export function FarmAcknowledgeDialog({ open, farms, initialFarmId, onClose }: { open: boolean; farms: readonly FarmWithOpenAlarms[]; initialFarmId: number | null; onClose: () => void }) {
  const { core } = useAppData();
  const [farmId, setFarmId] = useState<number | null>(null);
  const [comment, setComment] = useState("");
  const { saving, error, clearError, submit } = useAcknowledging("The alarms could not be acknowledged. Try again.");
  const selectId = useId();
  // Opening starts from the page's farm; a farm whose alarms were all acknowledged meanwhile falls back to the next.
  const [wasOpen, setWasOpen] = useState(false);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setFarmId(initialFarmId);
      setComment("");
      clearError();
    }
  }
  const chosen = useMemo(() => farms.find((f) => f.farmId === farmId) ?? farms[0] ?? null, [farms, farmId]);

  return (
    <Modal open={open} onClose={onClose} title="Acknowledge all alarms of a farm">
      {chosen === null ? (
        <p className="text-gray-700">No open alarms are left to acknowledge.</p>
      ) : (
        <AcknowledgeForm
          comment={comment}
          onComment={setComment}
          commentField={{ label: "Comment for all (optional)", placeholder: "What was done, e.g. Closed the tunnel door" }}
          saving={saving}
          error={error}
          action={`Acknowledge ${chosen.open === 1 ? "1 alarm" : `${chosen.open} alarms`}`}
          onSubmit={submit(async () => {
            const acknowledged = await core.acknowledgeFarmAlarms(chosen.farmId, comment.trim());
            notify.success(acknowledged.length === 1 ? `Acknowledged 1 alarm in ${chosen.name}` : `Acknowledged ${acknowledged.length} alarms in ${chosen.name}`);
            onClose();
          })}
          onCancel={onClose}
        >
          <label htmlFor={selectId} className="block text-sm 4xl:text-xl font-medium text-gray-700 mb-1">
            Farm
          </label>
          <select
            id={selectId}
            className="mb-3 block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm 4xl:text-xl text-gray-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
            value={chosen.farmId}
            onChange={(e) => setFarmId(Number(e.target.value))}
          >
            {farms.map((f) => (
              <option key={f.farmId} value={f.farmId}>
                {f.name} ({alarmsWord(f.open)})
              </option>
            ))}
          </select>
          <p className="mb-4 text-sm 4xl:text-lg text-gray-700" data-confirm-text>
            Every open alarm of {chosen.name} ({alarmsWord(chosen.open)}) will be marked acknowledged by you. Each stays listed until its condition clears.
          </p>
        </AcknowledgeForm>
      )}
    </Modal>
  );
}
