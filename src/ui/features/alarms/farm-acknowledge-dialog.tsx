import type { TFunction } from "i18next";
import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Alarm } from "../../../contract/alarms-values.ts";
import { Modal } from "../../components/modal.tsx";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { useLocale } from "../../i18n/i18n.ts";
import { AcknowledgeForm, useAcknowledging } from "./acknowledge-form.tsx";

/** A farm with open alarms, as the dialog offers it. */
export interface FarmWithOpenAlarms {
  farmId: number;
  name: string;
  open: number;
}

/** The farms of the open alarms, with how many each has, most first (then by name). */
export function farmsWithOpenAlarms(t: TFunction<"alarms">, active: readonly Alarm[]): FarmWithOpenAlarms[] {
  const byFarm = new Map<number, FarmWithOpenAlarms>();
  for (const a of active) {
    if (a.state !== "open" || a.farm_id === null) continue;
    const farm = byFarm.get(a.farm_id) ?? { farmId: a.farm_id, name: a.farm_name ?? t("farmAcknowledge.farmNumbered", { id: a.farm_id }), open: 0 };
    farm.open++;
    byFarm.set(a.farm_id, farm);
  }
  return [...byFarm.values()].sort((x, y) => y.open - x.open || x.name.localeCompare(y.name));
}

const alarmsWord = (t: TFunction<"alarms">, count: number) => t("farmAcknowledge.openAlarms", { count });

/**
 * Acknowledging every open alarm of a farm at once (after a visit that dealt with them all): the
 * farmer picks the farm (the one filtered on, else the one with most open alarms), sees how many
 * it will acknowledge, may add one comment for all, and confirms. Each alarm keeps its own record.
 */
export function FarmAcknowledgeDialog({ open, farms, initialFarmId, onClose }: { open: boolean; farms: readonly FarmWithOpenAlarms[]; initialFarmId: number | null; onClose: () => void }) {
  const { t } = useTranslation("alarms");
  useLocale();
  const { core } = useAppData();
  const [farmId, setFarmId] = useState<number | null>(null);
  const [comment, setComment] = useState("");
  const { saving, error, clearError, submit } = useAcknowledging(t("farmAcknowledge.failed"));
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
    <Modal open={open} onClose={onClose} title={t("farmAcknowledge.title")}>
      {chosen === null ? (
        <p className="text-gray-700">{t("farmAcknowledge.noneLeft")}</p>
      ) : (
        <AcknowledgeForm
          comment={comment}
          onComment={setComment}
          commentField={{ label: t("farmAcknowledge.comment"), placeholder: t("farmAcknowledge.commentPlaceholder") }}
          saving={saving}
          error={error}
          action={t("farmAcknowledge.action", { count: chosen.open })}
          onSubmit={submit(async () => {
            const acknowledged = await core.acknowledgeFarmAlarms(chosen.farmId, comment.trim());
            notify.success(t("farmAcknowledge.done", { count: acknowledged.length, farm: chosen.name }));
            onClose();
          })}
          onCancel={onClose}
        >
          <label htmlFor={selectId} className="block text-sm 4xl:text-xl font-medium text-gray-700 mb-1">
            {t("farmAcknowledge.farm")}
          </label>
          <select
            id={selectId}
            className="mb-3 block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm 4xl:text-xl text-gray-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
            value={chosen.farmId}
            onChange={(e) => setFarmId(Number(e.target.value))}
          >
            {farms.map((f) => (
              <option key={f.farmId} value={f.farmId}>
                {t("farmAcknowledge.option", { farm: f.name, alarms: alarmsWord(t, f.open) })}
              </option>
            ))}
          </select>
          <p className="mb-4 text-sm 4xl:text-lg text-gray-700" data-confirm-text>
            {t("farmAcknowledge.confirm", { farm: chosen.name, alarms: alarmsWord(t, chosen.open) })}
          </p>
        </AcknowledgeForm>
      )}
    </Modal>
  );
}
