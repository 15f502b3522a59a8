import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { Link } from "react-router-dom";
import { SENSOR_TYPES, type Mcu, type SensorType } from "../../../contract/entities.ts";
import { sensorForm } from "../../../contract/forms.ts";
import { SelectField, TextField } from "../../components/fields.tsx";
import { Modal } from "../../components/modal.tsx";

/** Read-only values look fixed, not like inputs waiting for text. */
const READ_ONLY_CLASS = "block w-full rounded-lg border border-gray-200 bg-gray-100 px-3 py-2 font-mono text-gray-700 focus:outline-none focus:ring-2 focus:ring-brand-600/30";

/** What the form starts from: a card's sensor, a scan result, or a bare scanned MAC. */
export interface SensorDraft {
  /** null while creating. */
  sensorId: number | null;
  name: string;
  mac: string;
  /** null when the scanned MAC is unknown to the inventory: the user picks it. */
  type: SensorType | null;
  mcuId: number | null;
  /**
   * Why the form opened as it did ("Sensor … Not Found, Or Already Used"). The toast saying so
   * is outside the dialog, which hides the rest of the page from screen readers: the dialog
   * repeats it.
   */
  notice?: string;
}

export interface SensorValues {
  name?: string;
  mac: string;
  type: SensorType;
  mcu_id: number;
}

/**
 * SPEC §2 sensor modal: Name, read-only MAC, a disabled Type select and an MCU select. The type
 * select is enabled only for a MAC the inventory does not know (ARCHITECTURE "Decisions").
 */
export function SensorFormDialog({
  draft,
  mcus,
  onClose,
  onSave,
}: {
  draft: SensorDraft | null;
  mcus: readonly Mcu[];
  onClose: () => void;
  /** Saves; the parent closes the dialog on success and keeps it open (with the values) on failure. */
  onSave: (values: SensorValues) => Promise<void>;
}) {
  // The MCU select is uncontrolled: if the MCU list arrives after the form opened, the form
  // starts again so its default MCU can be selected.
  return (
    <Modal open={draft !== null} onClose={onClose} title={draft?.sensorId === null ? "Add Sensor" : "Edit Sensor"}>
      {draft && <SensorForm key={`${draft.sensorId}-${draft.mac}-${mcus.length > 0}`} draft={draft} mcus={mcus} onCancel={onClose} onSave={onSave} />}
    </Modal>
  );
}

function SensorForm({ draft, mcus, onCancel, onSave }: { draft: SensorDraft; mcus: readonly Mcu[]; onCancel: () => void; onSave: (values: SensorValues) => Promise<void> }) {
  const [saving, setSaving] = useState(false);
  const [form, fields] = useForm({
    defaultValue: { name: draft.name, mac: draft.mac, type: draft.type ?? "", mcu_id: draft.mcuId === null ? "" : String(draft.mcuId) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: sensorForm }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    async onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status !== "success") return;
      setSaving(true);
      try {
        await onSave(submission.value);
      } finally {
        setSaving(false);
      }
    },
  });
  const typeLocked = draft.type !== null;
  const { name: typeName, ...typeSelect } = getSelectProps(fields.type);

  return (
    <form {...getFormProps(form)}>
      {draft.notice && (
        <p role="status" className="mb-4 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900">
          {draft.notice}
        </p>
      )}
      <TextField label="Name" {...getInputProps(fields.name, { type: "text" })} error={fields.name.errors} autoComplete="off" autoFocus />
      <TextField label="MAC" {...getInputProps(fields.mac, { type: "text" })} readOnly className={READ_ONLY_CLASS} />
      {/* A disabled select is not submitted, so the fixed type travels in a hidden input. */}
      <SelectField label="Type" {...typeSelect} name={typeLocked ? undefined : typeName} disabled={typeLocked} error={fields.type.errors}>
        <option value="">Select a type</option>
        {SENSOR_TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </SelectField>
      {typeLocked && <input type="hidden" name={typeName} value={draft.type ?? ""} />}
      <SelectField label="Assign to MCU" {...getSelectProps(fields.mcu_id)} error={fields.mcu_id.errors}>
        <option value="">Select an MCU</option>
        {mcus.map((m) => (
          <option key={m.mcu_id} value={m.mcu_id}>
            {m.name} ({m.mac})
          </option>
        ))}
      </SelectField>
      {mcus.length === 0 && (
        <p className="-mt-2 mb-4 text-sm text-gray-600">
          You have no MCUs yet. <Link to="/mcu" className="text-brand-700 underline">Add an MCU</Link> first.
        </p>
      )}
      <div className="flex justify-end gap-3 mt-2">
        <button type="button" className="btn-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn-primary" disabled={saving}>
          {draft.sensorId === null ? "Create" : "Update"}
        </button>
      </div>
    </form>
  );
}
