import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ALARM_COMMENT_MAX, type Alarm } from "../../../contract/alarms-values.ts";
import { Modal } from "../../components/modal.tsx";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { formatFixed } from "../../i18n/format.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { AcknowledgeForm, useAcknowledging } from "./acknowledge-form.tsx";
import { alarmBody, alarmTitle } from "./alarm-words.ts";

/**
 * Acknowledging an alarm: who and when the server records; the farmer may add a
 * comment (what was done about it). A refusal (the alarm was resolved meanwhile, the connection
 * dropped) is shown here with the comment kept, so nothing typed is lost.
 */
export function AcknowledgeDialog({ alarm, onClose, onAcknowledged }: { alarm: Alarm | null; onClose: () => void; onAcknowledged: (alarm: Alarm) => void }) {
  const { t } = useTranslation("alarms");
  // The alarm's words are said in the reader's digits too: a change of digits alone re-renders it.
  useLocale();
  const { core } = useAppData();
  const [comment, setComment] = useState("");
  const { saving, error, clearError, submit } = useAcknowledging(t("acknowledge.failed"));
  const counterId = useId();
  // Another alarm starts with an empty comment; cancelling and opening the same one again keeps what was typed.
  const [commentFor, setCommentFor] = useState<number | null>(null);
  if (alarm && alarm.alarm_id !== commentFor) {
    setCommentFor(alarm.alarm_id);
    setComment("");
    clearError();
  }

  const remaining = ALARM_COMMENT_MAX - comment.length;
  const title = alarm ? alarmTitle(t, alarm) : "";
  return (
    <Modal open={alarm !== null} onClose={onClose} title={t("acknowledge.title")}>
      {alarm && (
        <AcknowledgeForm
          comment={comment}
          onComment={setComment}
          commentField={{ label: t("acknowledge.comment"), placeholder: t("acknowledge.commentPlaceholder"), "aria-describedby": counterId, autoFocus: true }}
          afterComment={
            <p id={counterId} className={`-mt-3 mb-4 text-end text-xs 4xl:text-base tabular-nums ${remaining < 50 ? "text-amber-800" : "text-gray-600"}`}>
              {t("acknowledge.counter", { used: formatFixed(comment.length, 0), max: formatFixed(ALARM_COMMENT_MAX, 0) })}
            </p>
          }
          saving={saving}
          error={error}
          action={t("acknowledge.action")}
          onSubmit={submit(async () => {
            const acknowledged = await core.acknowledgeAlarm(alarm.alarm_id, comment.trim());
            notify.success(t("acknowledge.done", { title }));
            setComment("");
            onAcknowledged(acknowledged);
          })}
          onCancel={onClose}
        >
          <p className="font-medium text-gray-900">{title}</p>
          <p className="mb-4 text-sm 4xl:text-lg text-gray-600">{alarmBody(t, alarm)}</p>
          <p className="mb-4 text-sm 4xl:text-lg text-gray-700">{t("acknowledge.staysListed")}</p>
        </AcknowledgeForm>
      )}
    </Modal>
  );
}
