import type { FormEvent, ReactNode, TextareaHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { ALARM_COMMENT_MAX } from "../../../contract/alarms-values.ts";
import { CoreError } from "../../../contract/core-error.ts";
import { TextAreaField } from "../../components/fields.tsx";
import { CancelAndSubmit } from "../../components/form-buttons.tsx";
import { usePendingSend } from "../../components/use-submit-form.ts";
import { refusalText } from "../../components/server-refusal.ts";

/**
 * Sending an acknowledgement, one at a time. A refusal (the alarm was resolved meanwhile, the
 * connection dropped) is the server's reason, or `fallback` when it gave none; it is shown in the
 * form, which keeps the comment, so nothing typed is lost. It stays there while the dialog is
 * closed: the dialog clears it when it starts on something else.
 */
export function useAcknowledging(fallback: string) {
  const { busy, refusal, setRefusal, run } = usePendingSend({
    refused: (err) => (err instanceof CoreError ? (refusalText(err) ?? err.message) : fallback),
  });
  return {
    saving: busy,
    error: refusal,
    clearError: () => setRefusal(null),
    /** The form's submit: sends with `acknowledge`, unless a send is under way. */
    submit: (acknowledge: () => Promise<void>) => (event: FormEvent) => {
      event.preventDefault();
      if (busy) return;
      void run(acknowledge);
    },
  };
}

/**
 * The form of both acknowledgement dialogs (one alarm, or all of a farm's): what will be
 * acknowledged (`children`), the optional comment, the refusal, and the buttons.
 */
export function AcknowledgeForm({
  children,
  comment,
  onComment,
  commentField,
  afterComment,
  saving,
  error,
  action,
  onSubmit,
  onCancel,
}: {
  children: ReactNode;
  comment: string;
  onComment: (comment: string) => void;
  /** The comment field's label and placeholder, and what else this dialog gives it. */
  commentField: { label: string; placeholder: string } & TextareaHTMLAttributes<HTMLTextAreaElement>;
  afterComment?: ReactNode;
  saving: boolean;
  error: string | null;
  /** The submit button's text while nothing is being sent. */
  action: string;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation("alarms");
  return (
    <form onSubmit={onSubmit} noValidate>
      {children}
      <TextAreaField name="comment" value={comment} maxLength={ALARM_COMMENT_MAX} onChange={(e) => onComment(e.target.value)} {...commentField} />
      {afterComment}
      {error && (
        <p role="alert" className="mb-4 text-sm text-red-700 bg-red-50 rounded-lg px-3 py-2">
          {error}
        </p>
      )}
      <CancelAndSubmit submit={action} onCancel={onCancel} busy={saving} busyText={t("acknowledge.busy")} />
    </form>
  );
}
