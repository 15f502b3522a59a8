import { useState } from "react";
import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import type { BatchAction, Batch } from "../../../contract/grow.ts";
import { GROW_LIMITS } from "../../../contract/grow.ts";
import { TextAreaField, TextField } from "../../components/fields.tsx";
import { CancelAndSubmit } from "../../components/form-buttons.tsx";
import { Modal } from "../../components/modal.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useSubmitForm } from "../../components/use-submit-form.ts";
import { useAppData } from "../../data/provider.tsx";
import { batchActionForm } from "./batch-forms.ts";

/** What a dialog for an action says: its title (also its button) and its success toast. */
export function actionWords(action: BatchAction, batch: Batch): { title: string; explain: string; done: (days: number) => string } {
  const phase = batch.phases[batch.phase_index]!;
  const next = batch.phases[batch.phase_index + 1];
  switch (action) {
    case "confirm":
      return {
        title: `Confirm: ${phase.confirm ?? phase.name}`,
        explain: next ? `${phase.name} ends now and ${next.name} starts.` : `${phase.name} ends now, and with it the batch.`,
        done: () => (next ? `${phase.confirm ?? phase.name} confirmed: ${next.name} started` : `${phase.confirm ?? phase.name} confirmed: the batch ended`),
      };
    case "hold":
      return { title: "Hold batch", explain: "The phase's days stop counting until you resume; the rooms keep today's climate.", done: () => `${batch.name} is on hold` };
    case "resume":
      return { title: "Resume batch", explain: "The phase's days count again from where they stopped.", done: () => `${batch.name} resumed` };
    case "extend":
      return { title: `Extend ${phase.name}`, explain: `Adds days to ${phase.name}; the later phases move on by as many.`, done: (days) => `${phase.name} extended by ${days === 1 ? "1 day" : `${days} days`}` };
    case "skip":
      return {
        title: next ? `Skip to ${next.name}` : `Skip ${phase.name}`,
        explain: next ? `${phase.name} ends now and ${next.name} starts.` : `${phase.name} is the last phase: skipping it ends the batch.`,
        done: () => (next ? `Skipped to ${next.name}` : `${batch.name} ended`),
      };
    case "end":
      return { title: "End batch", explain: "The batch stops here: no later phase runs, and its MCUs are free for another batch. Harvests can still be recorded.", done: () => `${batch.name} ended` };
  }
}

/** One action on a running batch, with an optional reason (and the days, to extend). Mount it per opening. */
export function BatchActionDialog({ batch, action, onClose }: { batch: Batch; action: BatchAction | null; onClose: () => void }) {
  const words = action ? actionWords(action, batch) : null;
  return (
    <Modal open={action !== null} onClose={onClose} title={words?.title ?? ""}>
      {action && words && <ActionForm batch={batch} action={action} words={words} onDone={onClose} />}
    </Modal>
  );
}

function ActionForm({ batch, action, words, onDone }: { batch: Batch; action: BatchAction; words: ReturnType<typeof actionWords>; onDone: () => void }) {
  const { core } = useAppData();
  const [schema] = useState(() => batchActionForm(action === "extend"));
  const { form, fields, busy, refusal } = useSubmitForm<typeof schema, { reason: string; days: string }, string>({
    schema,
    async send(v) {
      const reason = v.reason ? { reason: v.reason } : {};
      await core.batchAction(batch.batch_id, action === "extend" ? { action, days: v.days, ...reason } : { action, ...reason });
      notify.success(words.done(v.days ?? 0));
      onDone();
    },
    refused(err) {
      const text = messageOf(err, "The batch could not be changed");
      notify.error(text);
      return text;
    },
  });
  const { key: daysKey, ...daysProps } = getInputProps(fields.days, { type: "number" });
  const { key: reasonKey, ...reasonProps } = getTextareaProps(fields.reason);
  const danger = action === "end" || action === "skip";
  return (
    <form {...getFormProps(form)} aria-busy={busy || undefined}>
      <p className="mb-4 text-gray-700">{words.explain}</p>
      {action === "extend" && <TextField key={daysKey} {...daysProps} label="Days" inputMode="numeric" min={1} max={GROW_LIMITS.extendDays} step={1} autoFocus error={fields.days.errors} />}
      <TextAreaField key={reasonKey} {...reasonProps} label="Reason (optional)" maxLength={GROW_LIMITS.reason} rows={2} error={fields.reason.errors} />
      {refusal && (
        <p role="alert" className="mb-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-inset ring-red-200">
          {refusal}
        </p>
      )}
      <div className={danger ? "[&_button[type=submit]]:bg-red-600 [&_button[type=submit]:hover]:bg-red-700" : undefined}>
        <CancelAndSubmit submit={words.title} busy={busy} onCancel={onDone} />
      </div>
    </form>
  );
}
