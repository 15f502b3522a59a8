import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { CoreError } from "../../../contract/core-error.ts";
import type { Farm } from "../../../contract/entities.ts";
import { farmForm } from "../../../contract/forms.ts";
import { LIMITS } from "../../../contract/limits.ts";
import { TextField } from "../../components/fields.tsx";
import { Modal } from "../../components/modal.tsx";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";

/** Create (farm null) or update a farm: SPEC §2's modal with Farm Name and Location. */
export function FarmFormDialog({ open, farm, onClose }: { open: boolean; farm: Farm | null; onClose: () => void }) {
  return (
    <Modal open={open} onClose={onClose} title={farm ? "Update Farm" : "Create Farm"}>
      <FarmForm key={farm?.farm_id ?? "new"} farm={farm} onDone={onClose} />
    </Modal>
  );
}

function FarmForm({ farm, onDone }: { farm: Farm | null; onDone: () => void }) {
  const { core } = useAppData();
  const [saving, setSaving] = useState(false);
  // SPEC §8's toasts are fixed texts, and while the dialog is open everything outside it (the
  // toasts too) is inert: the failure, with the server's reason when it gave one, shows here too.
  const [failure, setFailure] = useState<string | null>(null);

  const [form, fields] = useForm({
    id: farm ? `farm-form-${farm.farm_id}` : "farm-form-new",
    defaultValue: farm ? { name: farm.name, location: farm.location } : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: farmForm }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    async onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status !== "success") return;
      setSaving(true);
      setFailure(null);
      try {
        if (farm) {
          const saved = await core.updateFarm(farm.farm_id, submission.value);
          notify.success(`${saved.name} Farm updated successfully`);
        } else {
          const saved = await core.createFarm(submission.value);
          notify.success(`${saved.name} Farm added successfully`);
        }
        onDone();
      } catch (err) {
        const text = farm ? "Update failed" : "Creation failed";
        notify.error(text);
        setFailure(err instanceof CoreError && err.serverMessage ? `${text}: ${err.serverMessage}` : text);
        setSaving(false);
      }
    },
  });

  return (
    <form {...getFormProps(form)}>
      <TextField
        label="Farm Name"
        placeholder="e.g. Oyster House"
        autoComplete="off"
        maxLength={LIMITS.name}
        autoFocus
        {...getInputProps(fields.name, { type: "text" })}
        error={fields.name.errors}
      />
      <TextField
        label="Location"
        placeholder="e.g. Byblos, Mount Lebanon"
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
      <div className="flex flex-col-reverse sm:flex-row sm:justify-end gap-3">
        <button type="button" className="btn-secondary" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn-primary" disabled={saving}>
          {farm ? "Update Farm" : "Create Farm"}
        </button>
      </div>
    </form>
  );
}
