import { useId, useState, type FormEvent } from "react";
import { ALARM_COMMENT_MAX, type Alarm } from "../../../contract/alarms-values.ts";
import { CoreError } from "../../../contract/core-error.ts";
import { TextAreaField } from "../../components/fields.tsx";
import { Modal } from "../../components/modal.tsx";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";

/** The server's reason for a refused acknowledgement, or ours when it gave none. */
const reasonOf = (err: unknown) => (err instanceof CoreError ? (err.serverMessage ?? err.message) : "The alarm could not be acknowledged. Try again.");

/**
 * Acknowledging an alarm: who and when the server records; the farmer may add a
 * comment (what was done about it). A refusal (the alarm was resolved meanwhile, the connection
 * dropped) is shown here with the comment kept, so nothing typed is lost.
 */
export function AcknowledgeDialog({ alarm, onClose, onAcknowledged }: { alarm: Alarm | null; onClose: () => void; onAcknowledged: (alarm: Alarm) => void }) {
  const { core } = useAppData();
  const [comment, setComment] = useState("");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const counterId = useId();
  // Another alarm starts with an empty comment; cancelling and opening the same one again keeps what was typed.
  const [commentFor, setCommentFor] = useState<number | null>(null);
  if (alarm && alarm.alarm_id !== commentFor) {
    setCommentFor(alarm.alarm_id);
    setComment("");
    setError(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!alarm || saving) return;
    setSaving(true);
    setError(null);
    try {
      const acknowledged = await core.acknowledgeAlarm(alarm.alarm_id, comment.trim());
      notify.success(`Acknowledged: ${alarm.title}`);
      setComment("");
      onAcknowledged(acknowledged);
    } catch (err) {
      setError(reasonOf(err));
    } finally {
      setSaving(false);
    }
  }

  const left = ALARM_COMMENT_MAX - comment.length;
  return (
    <Modal open={alarm !== null} onClose={onClose} title="Acknowledge alarm">
      {alarm && (
        <form onSubmit={submit} noValidate>
          <p className="font-medium text-gray-900">{alarm.title}</p>
          <p className="mb-4 text-sm 4xl:text-lg text-gray-600">{alarm.body}</p>
          <p className="mb-4 text-sm 4xl:text-lg text-gray-700">It stays listed, as acknowledged, until its condition clears.</p>
          <TextAreaField
            label="Comment (optional)"
            name="comment"
            value={comment}
            maxLength={ALARM_COMMENT_MAX}
            placeholder="What was done, e.g. Door closed, humidifier checked"
            onChange={(e) => setComment(e.target.value)}
            aria-describedby={counterId}
            autoFocus
          />
          <p id={counterId} className={`-mt-3 mb-4 text-right text-xs 4xl:text-base tabular-nums ${left < 50 ? "text-amber-800" : "text-gray-600"}`}>
            {comment.length} / {ALARM_COMMENT_MAX} characters
          </p>
          {error && (
            <p role="alert" className="mb-4 text-sm text-red-700 bg-red-50 rounded-lg px-3 py-2">
              {error}
            </p>
          )}
          <div className="flex flex-col-reverse sm:flex-row sm:justify-end gap-3">
            <button type="button" className="btn-secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="btn-primary" disabled={saving} aria-busy={saving}>
              {saving ? "Acknowledging…" : "Acknowledge"}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
