import type { TFunction } from "i18next";
import { useId, useState, type FormEvent } from "react";
import { Trans, useTranslation } from "react-i18next";
import { CoreError } from "../../../contract/core-error.ts";
import { INVITATION_DAYS, ROLES } from "../../../contract/team-values.ts";
import type { CreatedInvitation, Role } from "../../../contract/team.ts";
import { SelectField, TextAreaField, TextField } from "../../components/fields.tsx";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { formatDate } from "../../components/dates.ts";
import { Modal } from "../../components/modal.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { roleLabel } from "../../data/farm-roles.ts";
import { useAppData } from "../../data/provider.tsx";
import { formatFixed } from "../../i18n/format.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { controlClass, touch } from "./controls.tsx";
import { copyText, groupedCode, joinLink } from "./invitation-code.ts";
import { roleSummary } from "./role-summary.ts";
import { fieldRefusalText } from "../../components/server-refusal.ts";

const NOTE_MAX = 200;

interface InviteForm {
  role: Role;
  note: string;
  days: string;
}

/** The form's own check of the days; the server checks the rest and says so at the field. */
const daysProblem = (t: TFunction<"team">, days: string): string | null => {
  const n = Number(days);
  return /^\s*\d+\s*$/.test(days) && n >= INVITATION_DAYS.min && n <= INVITATION_DAYS.max
    ? null
    : t("invite.daysProblem", { min: formatFixed(INVITATION_DAYS.min, 0), max: formatFixed(INVITATION_DAYS.max, 0) });
};

/**
 * Invite someone to a farm: a role (with what it may do), a note for whoever manages the farm, and
 * how many days the invitation can be used. The new code is shown once, here: the server keeps only
 * its hash, so closing the dialog loses it for good (a new invitation is the way back).
 */
export function InviteDialog({ farmId, farmName, open, onClose, onCreated }: { farmId: number; farmName: string; open: boolean; onClose: () => void; onCreated: (created: CreatedInvitation) => void }) {
  const { t } = useTranslation("team");
  const { core } = useAppData();
  const [form, setForm] = useState<InviteForm>({ role: "grower", note: "", days: String(INVITATION_DAYS.default) });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const [copied, setCopied] = useState(false);
  const summaryId = useId();
  const confirm = useConfirm();

  const close = () => {
    setCopied(false);
    onClose();
    // The form starts again next time; the code is forgotten with the dialog.
    setCreated(null);
    setErrors({});
    setForm({ role: "grower", note: "", days: String(INVITATION_DAYS.default) });
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = daysProblem(t, form.days);
    if (problem) return setErrors({ days: problem });
    setBusy(true);
    setErrors({});
    try {
      const answer = await core.invite(farmId, { role: form.role, days: Number(form.days), ...(form.note.trim() ? { note: form.note.trim() } : {}) });
      setCreated(answer);
      onCreated(answer);
    } catch (err) {
      const fields: Record<string, string> = {};
      if (err instanceof CoreError) for (const e of err.fieldErrors) fields[e.path.split(".")[0]!] ??= fieldRefusalText(e);
      if (Object.keys(fields).length === 0) fields.form = messageOf(err, t("invite.failed"));
      setErrors(fields);
    } finally {
      setBusy(false);
    }
  }

  // A tap outside or Escape would lose a code nobody copied yet: that needs a yes.
  async function dismiss() {
    if (created && !copied && !(await confirm(t("invite.confirmClose")))) return;
    close();
  }

  return (
    <Modal open={open} onClose={() => void dismiss()} title={created ? t("created.title") : t("invite.title", { farm: farmName })}>
      {created ? (
        <CreatedCode created={created} onCopied={() => setCopied(true)} onDone={() => void dismiss()} />
      ) : (
        <form onSubmit={submit} noValidate aria-label={t("invite.formLabel")}>
          <SelectField
            label={t("invite.role")}
            value={form.role}
            onChange={(e) => setForm((f) => ({ ...f, role: e.target.value as Role }))}
            error={errors.role}
            aria-describedby={summaryId}
            className={controlClass(Boolean(errors.role))}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {roleLabel(t, r)}
              </option>
            ))}
          </SelectField>
          <p id={summaryId} className="-mt-2 mb-4 text-sm 4xl:text-lg text-gray-600" aria-live="polite">
            {roleSummary(t, form.role)}
          </p>
          <TextAreaField
            label={t("invite.note")}
            rows={2}
            maxLength={NOTE_MAX}
            value={form.note}
            onChange={(e) => setForm((f) => ({ ...f, note: e.target.value }))}
            error={errors.note}
            className={controlClass(Boolean(errors.note))}
            placeholder={t("invite.notePlaceholder")}
          />
          <TextField
            label={t("invite.days")}
            type="number"
            inputMode="numeric"
            min={INVITATION_DAYS.min}
            max={INVITATION_DAYS.max}
            value={form.days}
            onChange={(e) => setForm((f) => ({ ...f, days: e.target.value }))}
            error={errors.days}
            className={controlClass(Boolean(errors.days))}
          />
          {errors.form && (
            <p role="alert" className="mb-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
              {errors.form}
            </p>
          )}
          <div className="flex flex-col-reverse sm:flex-row sm:justify-end gap-3">
            <button type="button" className={`btn-secondary ${touch}`} onClick={close}>
              {t("invite.cancel")}
            </button>
            <button type="submit" className={`btn-primary ${touch}`} disabled={busy} aria-busy={busy}>
              {busy ? t("invite.creating") : t("invite.create")}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}

/** The new code, large and grouped for reading aloud, its join link, and copy buttons. */
function CreatedCode({ created, onCopied, onDone }: { created: CreatedInvitation; onCopied: () => void; onDone: () => void }) {
  const { t } = useTranslation("team");
  // Numbers and dates in the reader's digits: rendered again when only the digits change.
  useLocale();
  const link = joinLink(window.location.origin, created.code);
  const expires = formatDate(created.invitation.expires_at);

  async function copy(text: string, what: "link" | "code") {
    if (await copyText(text)) {
      onCopied();
      notify.success(what === "link" ? t("created.linkCopied") : t("created.codeCopied"));
    } else notify.error(what === "link" ? t("created.linkNotCopied") : t("created.codeNotCopied"));
  }

  return (
    <div className="space-y-4">
      <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm 4xl:text-lg font-medium text-amber-950">
        {t("created.warning")}
      </p>
      <p className="text-sm 4xl:text-lg text-gray-700">
        <Trans t={t} i18nKey="created.forRole" values={{ role: roleLabel(t, created.invitation.role), date: expires }} components={{ strong: <strong /> }} />
      </p>
      <div>
        <p className="text-sm 4xl:text-lg font-medium text-gray-700 mb-1">{t("created.code")}</p>
        <p data-invitation-code className="select-all rounded-xl bg-gray-100 px-3 py-3 text-center font-mono text-2xl sm:text-3xl 4xl:text-4xl font-semibold tracking-wider text-gray-900 break-words [text-wrap:balance]">
          {groupedCode(created.code)}
        </p>
      </div>
      <div>
        <p className="text-sm 4xl:text-lg font-medium text-gray-700 mb-1">{t("created.link")}</p>
        <p data-join-link className="select-all rounded-lg border border-gray-200 px-3 py-2 font-mono text-sm 4xl:text-lg text-gray-800 break-all">
          {link}
        </p>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <button type="button" className={`btn-primary ${touch}`} onClick={() => void copy(link, "link")}>
          {t("created.copyLink")}
        </button>
        <button type="button" className={`btn-secondary ${touch}`} onClick={() => void copy(created.code, "code")}>
          {t("created.copyCode")}
        </button>
      </div>
      <div className="flex justify-end">
        <button type="button" className={`btn-secondary ${touch}`} onClick={onDone}>
          {t("created.done")}
        </button>
      </div>
    </div>
  );
}
