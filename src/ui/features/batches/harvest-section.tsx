import { getFormProps, getInputProps } from "@conform-to/react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { GROW_LIMITS } from "../../../contract/grow-values.ts";
import type { Batch } from "../../../contract/grow.ts";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { TextField } from "../../components/fields.tsx";
import { TrashIcon } from "../../components/icons.tsx";
import { REFUSED_ICON_BUTTON, RefusalNote } from "../../components/refusal-note.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useSubmitForm } from "../../components/use-submit-form.ts";
import { useAppData } from "../../data/provider.tsx";
import { useLocale } from "../../i18n/i18n.ts";
import { harvestForm, substrateForm } from "./batch-forms.ts";
import { biologicalEfficiency, harvestTotalKg, nextFlush } from "./batch-plan.ts";
import { num } from "./whole-number.ts";
import { useBatchRefusal } from "./use-batch-refusal.ts";
import { formatDateTimeIn, formatKg, formatPercent } from "./zone-dates.ts";

/** A refusal shown under the form that was refused (the toast may be gone by the time it is read). */
function Refused({ text }: { text: string | null }) {
  return text ? (
    <p role="alert" className="mb-3 rounded-lg bg-red-50 px-3 py-2 text-sm 4xl:text-lg text-red-800 ring-1 ring-inset ring-red-200">
      {text}
    </p>
  ) : null;
}

/** A flush's weight as it is picked: the next flush number, fresh kg, an optional note. */
function HarvestEntry({ batch }: { batch: Batch }) {
  const { t } = useTranslation("batches");
  const { core } = useAppData();
  const flush = nextFlush(batch);
  const { form, fields, busy, refusal } = useSubmitForm<typeof harvestForm, { fresh_kg: string; note: string }, string>({
    schema: harvestForm,
    async send(v) {
      await core.addHarvest(batch.batch_id, v.note ? { fresh_kg: v.fresh_kg, note: v.note } : { fresh_kg: v.fresh_kg });
      notify.success(t("harvests.recorded", { flush: num(flush), kg: formatKg(v.fresh_kg) }));
      form.reset();
    },
    refused(err) {
      const text = messageOf(err, t("harvests.notSaved"));
      notify.error(text);
      return text;
    },
  });
  const { key: kgKey, ...kgProps } = getInputProps(fields.fresh_kg, { type: "text" });
  const { key: noteKey, ...noteProps } = getInputProps(fields.note, { type: "text" });
  return (
    <form {...getFormProps(form)} aria-busy={busy || undefined} aria-labelledby={`${form.id}-title`} className="rounded-xl bg-brand-50 p-4 4xl:p-6 ring-1 ring-inset ring-brand-100">
      <h4 id={`${form.id}-title`} className="mb-3 font-semibold text-gray-900 4xl:text-2xl">
        {t("harvests.recordFlush", { flush: num(flush) })}
      </h4>
      <div className="grid gap-x-3 sm:grid-cols-[minmax(0,12rem)_1fr]">
        <TextField key={kgKey} {...kgProps} label={t("form.labels.freshKg")} inputMode="decimal" autoComplete="off" className="block w-full rounded-lg border border-gray-300 bg-white px-3 py-3 text-lg text-gray-900 focus:outline-none focus:ring-2 focus:ring-brand-600/30 focus:border-brand-600 aria-[invalid]:border-red-500" error={fields.fresh_kg.errors} />
        <TextField key={noteKey} {...noteProps} label={t("harvests.noteOptional")} autoComplete="off" maxLength={GROW_LIMITS.note} error={fields.note.errors} />
      </div>
      <Refused text={refusal} />
      <button type="submit" className="btn-primary w-full sm:w-auto min-h-12 text-base 4xl:text-xl" disabled={busy}>
        {t("harvests.recordFlush", { flush: num(flush) })}
      </button>
    </form>
  );
}

/**
 * The dry weight of the substrate, which the biological efficiency is counted against; empty clears
 * it. It changes the batch: a role that may not shows the weight it has, and why it cannot save.
 */
function SubstrateEntry({ batch, roleRefusal }: { batch: Batch; roleRefusal: string | null }) {
  const { t } = useTranslation("batches");
  const { core } = useAppData();
  const reasonId = useId();
  const { form, fields, busy, refusal } = useSubmitForm<typeof substrateForm, { substrate_dry_kg: string }, string>({
    schema: substrateForm,
    defaultValue: { substrate_dry_kg: batch.substrate_dry_kg === null ? "" : String(batch.substrate_dry_kg) },
    async send(v) {
      await core.updateBatch(batch.batch_id, { substrate_dry_kg: v.substrate_dry_kg });
      notify.success(v.substrate_dry_kg === null ? t("harvests.dryCleared") : t("harvests.drySaved", { kg: formatKg(v.substrate_dry_kg) }));
    },
    refused(err) {
      const text = messageOf(err, t("harvests.dryNotSaved"));
      notify.error(text);
      return text;
    },
  });
  const { key, ...props } = getInputProps(fields.substrate_dry_kg, { type: "text" });
  return (
    <form {...getFormProps(form)} aria-busy={busy || undefined} className="flex flex-wrap items-start gap-x-3">
      <div className="flex-1 min-w-40">
        <TextField
          key={key}
          {...props}
          label={t("form.labels.dryKg")}
          inputMode="decimal"
          autoComplete="off"
          disabled={roleRefusal !== null}
          // Only when refused: an explicit undefined would take the place of the field's own error description.
          {...(roleRefusal ? { "aria-describedby": reasonId } : {})}
          error={fields.substrate_dry_kg.errors ?? refusal ?? undefined}
        />
      </div>
      <button type="submit" className="btn-secondary mt-6 min-h-11" disabled={busy || roleRefusal !== null} aria-describedby={roleRefusal ? reasonId : undefined}>
        {t("harvests.saveDry")}
      </button>
      <RefusalNote id={reasonId} text={roleRefusal} className="basis-full -mt-2" />
    </form>
  );
}

/**
 * The batch's harvests: the entry form, each flush, the dry weight and the totals. A role that may
 * not record harvests sees them without the entry form, its delete buttons off, and why.
 */
export function HarvestSection({ batch, manageRefusal }: { batch: Batch; manageRefusal: string | null }) {
  const { t } = useTranslation("batches");
  useLocale();
  const { core } = useAppData();
  const harvestRefusal = useBatchRefusal(batch.mcu_ids, "recordHarvests");
  const harvestReasonId = useId();
  const confirm = useConfirm();
  const [deleting, setDeleting] = useState<number | null>(null);
  const total = harvestTotalKg(batch);
  const efficiency = biologicalEfficiency(total, batch.substrate_dry_kg);
  const flushes = [...batch.harvests].sort((a, b) => a.flush - b.flush || Date.parse(a.at) - Date.parse(b.at));

  async function remove(harvestId: number, flush: number) {
    if (!(await confirm(t("harvests.deleteConfirm", { flush: num(flush) })))) return;
    setDeleting(harvestId);
    try {
      await core.deleteHarvest(batch.batch_id, harvestId);
      notify.success(t("harvests.deleted", { flush: num(flush) }));
    } catch (err) {
      notify.error(messageOf(err, t("harvests.deleteFailed")));
    } finally {
      setDeleting(null);
    }
  }

  return (
    <section aria-labelledby="harvests-heading" className="card p-4 sm:p-5 4xl:p-8 space-y-4">
      <h3 id="harvests-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
        {t("harvests.heading")}
      </h3>

      <dl className="grid grid-cols-2 gap-3" aria-label={t("harvests.yield")}>
        <div className="rounded-lg bg-gray-50 px-3 py-2">
          <dt className="text-sm 4xl:text-xl text-gray-500">{t("harvests.yield")}</dt>
          <dd className="text-2xl 4xl:text-4xl font-semibold text-gray-900">{formatKg(total)}</dd>
        </div>
        <div className="rounded-lg bg-gray-50 px-3 py-2">
          <dt className="text-sm 4xl:text-xl text-gray-500">{t("harvests.efficiency")}</dt>
          <dd className={efficiency === null ? "text-sm 4xl:text-xl text-gray-600 pt-1" : "text-2xl 4xl:text-4xl font-semibold text-gray-900"}>
            {efficiency === null ? t("harvests.needsDry") : formatPercent(efficiency)}
          </dd>
        </div>
      </dl>

      {harvestRefusal === null && <HarvestEntry batch={batch} />}
      <RefusalNote id={harvestReasonId} text={harvestRefusal} className="text-sm 4xl:text-xl" />

      {flushes.length === 0 ? (
        <p className="text-gray-600">{t("harvests.none")}</p>
      ) : (
        <table className="w-full text-start text-sm 4xl:text-xl">
          <caption className="sr-only">{t("harvests.caption")}</caption>
          <thead className="text-gray-500">
            <tr>
              <th scope="col" className="py-2 pe-2 font-medium">{t("harvests.flush")}</th>
              <th scope="col" className="py-2 pe-2 font-medium">{t("harvests.date")}</th>
              <th scope="col" className="py-2 pe-2 font-medium text-end">{t("harvests.fresh")}</th>
              <th scope="col" className="py-2 pe-2 font-medium">{t("harvests.note")}</th>
              <th scope="col" className="py-2 w-11">
                <span className="sr-only">{t("harvests.delete")}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100 border-t border-gray-200">
            {flushes.map((h) => (
              <tr key={h.harvest_id}>
                <td className="py-2 pe-2 font-medium text-gray-900">{num(h.flush)}</td>
                <td className="py-2 pe-2 text-gray-700">
                  <time dateTime={h.at}>{formatDateTimeIn(Date.parse(h.at), batch.time_zone)}</time>
                </td>
                <td className="py-2 pe-2 text-end font-medium text-gray-900 whitespace-nowrap">{formatKg(h.fresh_kg)}</td>
                <td className="py-2 pe-2 text-gray-700 break-words">{h.note}</td>
                <td className="py-1 text-end">
                  <button
                    type="button"
                    className={`icon-btn min-h-11 min-w-11 hover:text-red-700 hover:bg-red-50${harvestRefusal ? ` ${REFUSED_ICON_BUTTON}` : ""}`}
                    aria-label={t("harvests.deleteFlush", { flush: num(h.flush) })}
                    disabled={deleting === h.harvest_id || harvestRefusal !== null}
                    aria-describedby={harvestRefusal ? harvestReasonId : undefined}
                    onClick={() => void remove(h.harvest_id, h.flush)}
                  >
                    <TrashIcon className="text-lg 4xl:text-3xl" />
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <SubstrateEntry key={batch.substrate_dry_kg ?? "none"} batch={batch} roleRefusal={manageRefusal} />
    </section>
  );
}
