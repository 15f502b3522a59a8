import { useState } from "react";
import { useTranslation } from "react-i18next";
import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import type { BatchAction, Batch } from "../../../contract/grow.ts";
import { GROW_LIMITS } from "../../../contract/grow-values.ts";
import { TextAreaField, TextField } from "../../components/fields.tsx";
import { CancelAndSubmit } from "../../components/form-buttons.tsx";
import { Modal } from "../../components/modal.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useSubmitForm } from "../../components/use-submit-form.ts";
import { useAppData } from "../../data/provider.tsx";
import { i18n } from "../../i18n/i18n.ts";
import { batchActionForm } from "./batch-forms.ts";

/** What a dialog for an action says: its title (also its button) and its success toast, in the reader's language. */
export function actionWords(action: BatchAction, batch: Batch): { title: string; explain: string; done: (days: number) => string } {
  const phase = batch.phases[batch.phase_index]!;
  const next = batch.phases[batch.phase_index + 1];
  const t = i18n.getFixedT(null, "batches");
  const endsNow = () => (next ? t("actions.endsNowNext", { phase: phase.name, next: next.name }) : "");
  switch (action) {
    case "confirm": {
      const confirm = phase.confirm ?? phase.name;
      return {
        title: t("actions.confirm.title", { confirm }),
        explain: next ? endsNow() : t("actions.confirm.explainLast", { phase: phase.name }),
        done: () => (next ? t("actions.confirm.doneNext", { confirm, next: next.name }) : t("actions.confirm.doneLast", { confirm })),
      };
    }
    case "hold":
      return { title: t("actions.hold.title"), explain: t("actions.hold.explain"), done: () => t("actions.hold.done", { name: batch.name }) };
    case "resume":
      return { title: t("actions.resume.title"), explain: t("actions.resume.explain"), done: () => t("actions.resume.done", { name: batch.name }) };
    case "extend":
      return {
        title: t("actions.extend.title", { phase: phase.name }),
        explain: t("actions.extend.explain", { phase: phase.name }),
        done: (days) => t("actions.extend.done", { phase: phase.name, count: days }),
      };
    case "skip":
      return {
        title: next ? t("actions.skip.titleNext", { next: next.name }) : t("actions.skip.titleLast", { phase: phase.name }),
        explain: next ? endsNow() : t("actions.skip.explainLast", { phase: phase.name }),
        done: () => (next ? t("actions.skip.doneNext", { next: next.name }) : t("actions.ended", { name: batch.name })),
      };
    case "end":
      return { title: t("actions.end.title"), explain: t("actions.end.explain"), done: () => t("actions.ended", { name: batch.name }) };
  }
}

/** One action on a running batch, with an optional reason (and the days, to extend). Mount it per opening. */
export function BatchActionDialog({ batch, action, onClose }: { batch: Batch; action: BatchAction | null; onClose: () => void }) {
  // Its words follow the language.
  useTranslation("batches");
  const words = action ? actionWords(action, batch) : null;
  return (
    <Modal open={action !== null} onClose={onClose} title={words?.title ?? ""}>
      {action && words && <ActionForm batch={batch} action={action} words={words} onDone={onClose} />}
    </Modal>
  );
}

function ActionForm({ batch, action, words, onDone }: { batch: Batch; action: BatchAction; words: ReturnType<typeof actionWords>; onDone: () => void }) {
  const { t } = useTranslation("batches");
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
      const text = messageOf(err, t("actions.refused"));
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
      {action === "extend" && <TextField key={daysKey} {...daysProps} label={t("actions.days")} inputMode="numeric" min={1} max={GROW_LIMITS.extendDays} step={1} autoFocus error={fields.days.errors} />}
      <TextAreaField key={reasonKey} {...reasonProps} label={t("actions.reason")} maxLength={GROW_LIMITS.reason} rows={2} error={fields.reason.errors} />
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
