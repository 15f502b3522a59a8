import { getFormProps, getInputProps } from "@conform-to/react";
import { useId, useState } from "react";
import { GROW_LIMITS, type Batch } from "../../../contract/grow.ts";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { TextField } from "../../components/fields.tsx";
import { TrashIcon } from "../../components/icons.tsx";
import { REFUSED_ICON_BUTTON, RefusalNote } from "../../components/refusal-note.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useSubmitForm } from "../../components/use-submit-form.ts";
import { useAppData } from "../../data/provider.tsx";
import { harvestForm, substrateForm } from "./batch-forms.ts";
import { biologicalEfficiency, harvestTotalKg, nextFlush } from "./batch-plan.ts";
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
  const { core } = useAppData();
  const flush = nextFlush(batch);
  const { form, fields, busy, refusal } = useSubmitForm<typeof harvestForm, { fresh_kg: string; note: string }, string>({
    schema: harvestForm,
    async send(v) {
      await core.addHarvest(batch.batch_id, v.note ? { fresh_kg: v.fresh_kg, note: v.note } : { fresh_kg: v.fresh_kg });
      notify.success(`Flush ${flush}: ${formatKg(v.fresh_kg)} recorded`);
      form.reset();
    },
    refused(err) {
      const text = messageOf(err, "The harvest was not saved");
      notify.error(text);
      return text;
    },
  });
  const { key: kgKey, ...kgProps } = getInputProps(fields.fresh_kg, { type: "text" });
  const { key: noteKey, ...noteProps } = getInputProps(fields.note, { type: "text" });
  return (
    <form {...getFormProps(form)} aria-busy={busy || undefined} aria-labelledby={`${form.id}-title`} className="rounded-xl bg-brand-50 p-4 4xl:p-6 ring-1 ring-inset ring-brand-100">
      <h4 id={`${form.id}-title`} className="mb-3 font-semibold text-gray-900 4xl:text-2xl">
        Record flush {flush}
      </h4>
      <div className="grid gap-x-3 sm:grid-cols-[minmax(0,12rem)_1fr]">
        <TextField key={kgKey} {...kgProps} label="Fresh weight (kg)" inputMode="decimal" autoComplete="off" className="block w-full rounded-lg border border-gray-300 bg-white px-3 py-3 text-lg text-gray-900 focus:outline-none focus:ring-2 focus:ring-brand-600/30 focus:border-brand-600 aria-[invalid]:border-red-500" error={fields.fresh_kg.errors} />
        <TextField key={noteKey} {...noteProps} label="Note (optional)" autoComplete="off" maxLength={GROW_LIMITS.note} error={fields.note.errors} />
      </div>
      <Refused text={refusal} />
      <button type="submit" className="btn-primary w-full sm:w-auto min-h-12 text-base 4xl:text-xl" disabled={busy}>
        Record flush {flush}
      </button>
    </form>
  );
}

/**
 * The dry weight of the substrate, which the biological efficiency is counted against; empty clears
 * it. It changes the batch: a role that may not shows the weight it has, and why it cannot save.
 */
function SubstrateEntry({ batch, roleRefusal }: { batch: Batch; roleRefusal: string | null }) {
  const { core } = useAppData();
  const reasonId = useId();
  const { form, fields, busy, refusal } = useSubmitForm<typeof substrateForm, { substrate_dry_kg: string }, string>({
    schema: substrateForm,
    defaultValue: { substrate_dry_kg: batch.substrate_dry_kg === null ? "" : String(batch.substrate_dry_kg) },
    async send(v) {
      await core.updateBatch(batch.batch_id, { substrate_dry_kg: v.substrate_dry_kg });
      notify.success(v.substrate_dry_kg === null ? "Substrate dry weight cleared" : `Substrate dry weight saved: ${formatKg(v.substrate_dry_kg)}`);
    },
    refused(err) {
      const text = messageOf(err, "The dry weight was not saved");
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
          label="Substrate dry weight (kg)"
          inputMode="decimal"
          autoComplete="off"
          disabled={roleRefusal !== null}
          // Only when refused: an explicit undefined would take the place of the field's own error description.
          {...(roleRefusal ? { "aria-describedby": reasonId } : {})}
          error={fields.substrate_dry_kg.errors ?? refusal ?? undefined}
        />
      </div>
      <button type="submit" className="btn-secondary mt-6 min-h-11" disabled={busy || roleRefusal !== null} aria-describedby={roleRefusal ? reasonId : undefined}>
        Save dry weight
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
  const { core } = useAppData();
  const harvestRefusal = useBatchRefusal(batch.mcu_ids, "recordHarvests");
  const harvestReasonId = useId();
  const confirm = useConfirm();
  const [deleting, setDeleting] = useState<number | null>(null);
  const total = harvestTotalKg(batch);
  const efficiency = biologicalEfficiency(total, batch.substrate_dry_kg);
  const flushes = [...batch.harvests].sort((a, b) => a.flush - b.flush || Date.parse(a.at) - Date.parse(b.at));

  async function remove(harvestId: number, flush: number) {
    if (!(await confirm(`Are you sure you want to delete the harvest of flush ${flush}?`))) return;
    setDeleting(harvestId);
    try {
      await core.deleteHarvest(batch.batch_id, harvestId);
      notify.success(`Harvest of flush ${flush} deleted`);
    } catch (err) {
      notify.error(messageOf(err, "Delete failed"));
    } finally {
      setDeleting(null);
    }
  }

  return (
    <section aria-labelledby="harvests-heading" className="card p-4 sm:p-5 4xl:p-8 space-y-4">
      <h3 id="harvests-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
        Harvests
      </h3>

      <dl className="grid grid-cols-2 gap-3" aria-label="Yield">
        <div className="rounded-lg bg-gray-50 px-3 py-2">
          <dt className="text-sm 4xl:text-xl text-gray-500">Yield</dt>
          <dd className="text-2xl 4xl:text-4xl font-semibold text-gray-900">{formatKg(total)}</dd>
        </div>
        <div className="rounded-lg bg-gray-50 px-3 py-2">
          <dt className="text-sm 4xl:text-xl text-gray-500">Biological efficiency</dt>
          <dd className={efficiency === null ? "text-sm 4xl:text-xl text-gray-600 pt-1" : "text-2xl 4xl:text-4xl font-semibold text-gray-900"}>
            {efficiency === null ? "Needs the substrate's dry weight" : formatPercent(efficiency)}
          </dd>
        </div>
      </dl>

      {harvestRefusal === null && <HarvestEntry batch={batch} />}
      <RefusalNote id={harvestReasonId} text={harvestRefusal} className="text-sm 4xl:text-xl" />

      {flushes.length === 0 ? (
        <p className="text-gray-600">No harvest recorded yet.</p>
      ) : (
        <table className="w-full text-left text-sm 4xl:text-xl">
          <caption className="sr-only">Harvests by flush</caption>
          <thead className="text-gray-500">
            <tr>
              <th scope="col" className="py-2 pr-2 font-medium">Flush</th>
              <th scope="col" className="py-2 pr-2 font-medium">Date</th>
              <th scope="col" className="py-2 pr-2 font-medium text-right">Fresh</th>
              <th scope="col" className="py-2 pr-2 font-medium">Note</th>
              <th scope="col" className="py-2 w-11">
                <span className="sr-only">Delete</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100 border-t border-gray-200">
            {flushes.map((h) => (
              <tr key={h.harvest_id}>
                <td className="py-2 pr-2 font-medium text-gray-900">{h.flush}</td>
                <td className="py-2 pr-2 text-gray-700">
                  <time dateTime={h.at}>{formatDateTimeIn(Date.parse(h.at), batch.time_zone)}</time>
                </td>
                <td className="py-2 pr-2 text-right font-medium text-gray-900 whitespace-nowrap">{formatKg(h.fresh_kg)}</td>
                <td className="py-2 pr-2 text-gray-700 break-words">{h.note}</td>
                <td className="py-1 text-right">
                  <button
                    type="button"
                    className={`icon-btn min-h-11 min-w-11 hover:text-red-700 hover:bg-red-50${harvestRefusal ? ` ${REFUSED_ICON_BUTTON}` : ""}`}
                    aria-label={`Delete the harvest of flush ${h.flush}`}
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
