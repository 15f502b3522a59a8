import { useTranslation } from "react-i18next";

/**
 * A dialog form's Cancel and submit buttons: side by side at the end of the line, the submit on
 * top on a phone. `busy` disables the submit while a send runs; with `busyText` the button also
 * says so (and announces it with aria-busy).
 */
export function CancelAndSubmit({ submit, onCancel, busy = false, busyText }: { submit: string; onCancel: () => void; busy?: boolean; busyText?: string }) {
  const { t } = useTranslation("common");
  const says = busyText !== undefined;
  return (
    <div className="flex flex-col-reverse sm:flex-row sm:justify-end gap-3">
      <button type="button" className="btn-secondary" onClick={onCancel}>
        {t("actions.cancel")}
      </button>
      <button type="submit" className="btn-primary" disabled={busy} aria-busy={says ? busy : undefined}>
        {says && busy ? busyText : submit}
      </button>
    </div>
  );
}
