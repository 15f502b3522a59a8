import { useId, useState } from "react";
import { ALARM_COMMENT_MAX, type Alarm } from "../../../contract/alarms-values.ts";
import { Modal } from "../../components/modal.tsx";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { AcknowledgeForm, useAcknowledging } from "./acknowledge-form.tsx";

/**
 * Acknowledging an alarm: who and when the server records; the farmer may add a
 * comment (what was done about it). A refusal (the alarm was resolved meanwhile, the connection
 * dropped) is shown here with the comment kept, so nothing typed is lost.
 */
export function AcknowledgeDialog({ alarm, onClose, onAcknowledged }: { alarm: Alarm | null; onClose: () => void; onAcknowledged: (alarm: Alarm) => void }) {
  const { core } = useAppData();
  const [comment, setComment] = useState("");
  const { saving, error, clearError, submit } = useAcknowledging("The alarm could not be acknowledged. Try again.");
  const counterId = useId();
  // Another alarm starts with an empty comment; cancelling and opening the same one again keeps what was typed.
  const [commentFor, setCommentFor] = useState<number | null>(null);
  if (alarm && alarm.alarm_id !== commentFor) {
    setCommentFor(alarm.alarm_id);
    setComment("");
    clearError();
  }

  const left = ALARM_COMMENT_MAX - comment.length;
  return (
    <Modal open={alarm !== null} onClose={onClose} title="Acknowledge alarm">
      {alarm && (
        <AcknowledgeForm
          comment={comment}
          onComment={setComment}
          commentField={{ label: "Comment (optional)", placeholder: "What was done, e.g. Door closed, humidifier checked", "aria-describedby": counterId, autoFocus: true }}
          afterComment={
            <p id={counterId} className={`-mt-3 mb-4 text-right text-xs 4xl:text-base tabular-nums ${left < 50 ? "text-amber-800" : "text-gray-600"}`}>
              {comment.length} / {ALARM_COMMENT_MAX} characters
            </p>
          }
          saving={saving}
          error={error}
          action="Acknowledge"
          onSubmit={submit(async () => {
            const acknowledged = await core.acknowledgeAlarm(alarm.alarm_id, comment.trim());
            notify.success(`Acknowledged: ${alarm.title}`);
            setComment("");
            onAcknowledged(acknowledged);
          })}
          onCancel={onClose}
        >
          <p className="font-medium text-gray-900">{alarm.title}</p>
          <p className="mb-4 text-sm 4xl:text-lg text-gray-600">{alarm.body}</p>
          <p className="mb-4 text-sm 4xl:text-lg text-gray-700">It stays listed, as acknowledged, until its condition clears.</p>
        </AcknowledgeForm>
      )}
    </Modal>
  );
}
