import { getFormProps, getInputProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import type { Farm } from "../../../contract/entities.ts";
import { farmForm } from "../../../contract/forms.ts";
import { LIMITS } from "../../../contract/limits.ts";
import { TextField } from "../../components/fields.tsx";
import { CancelAndSubmit } from "../../components/form-buttons.tsx";
import { Modal } from "../../components/modal.tsx";
import { notify } from "../../components/toasts.ts";
import { useSubmitForm } from "../../components/use-submit-form.ts";
import { useAppData } from "../../data/provider.tsx";
import { refusalText } from "../../components/server-refusal.ts";

/** Create (farm null) or update a farm: SPEC §2's modal with Farm Name and Location. */
export function FarmFormDialog({ open, farm, onClose }: { open: boolean; farm: Farm | null; onClose: () => void }) {
  const { t } = useTranslation("farms");
  return (
    <Modal open={open} onClose={onClose} title={farm ? t("form.updateTitle") : t("form.createTitle")}>
      <FarmForm key={farm?.farm_id ?? "new"} farm={farm} onDone={onClose} />
    </Modal>
  );
}

function FarmForm({ farm, onDone }: { farm: Farm | null; onDone: () => void }) {
  const { t } = useTranslation("farms");
  const { core } = useAppData();
  // SPEC §8's toasts are fixed texts, and while the dialog is open everything outside it (the
  // toasts too) is inert: the failure, with the server's reason when it gave one, shows here too.
  const { form, fields, busy: saving, refusal: failure } = useSubmitForm({
    id: farm ? `farm-form-${farm.farm_id}` : "farm-form-new",
    schema: farmForm,
    defaultValue: farm ? { name: farm.name, location: farm.location } : undefined,
    async send(value) {
      if (farm) {
        const saved = await core.updateFarm(farm.farm_id, value);
        notify.success(t("form.updated", { name: saved.name }));
      } else {
        const saved = await core.createFarm(value);
        notify.success(t("form.created", { name: saved.name }));
      }
      onDone();
    },
    refused(err) {
      notify.error(farm ? t("form.updateFailed") : t("form.createFailed"));
      const reason = refusalText(err);
      if (!reason) return farm ? t("form.updateFailed") : t("form.createFailed");
      return farm ? t("form.updateFailedBecause", { reason }) : t("form.createFailedBecause", { reason });
    },
    busyAfterSuccess: true,
  });

  return (
    <form {...getFormProps(form)}>
      <TextField
        label={t("form.name")}
        placeholder={t("form.namePlaceholder")}
        autoComplete="off"
        maxLength={LIMITS.name}
        autoFocus
        {...getInputProps(fields.name, { type: "text" })}
        error={fields.name.errors}
      />
      <TextField
        label={t("form.location")}
        placeholder={t("form.locationPlaceholder")}
        autoComplete="off"
        maxLength={LIMITS.location}
        {...getInputProps(fields.location, { type: "text" })}
        error={fields.location.errors}
      />
      {failure && (
        <p role="alert" className="mb-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </p>
      )}
      <CancelAndSubmit submit={farm ? t("form.updateTitle") : t("form.createTitle")} onCancel={onDone} busy={saving} />
    </form>
  );
}
