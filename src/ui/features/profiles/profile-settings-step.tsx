import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState, type ReactNode } from "react";
import type { z } from "zod";
import { AC_BASES, type ProfileConfig } from "../../../contract/entities.ts";
import { profileSettingsForm } from "../../../contract/forms.ts";
import { SelectField, TextField } from "../../components/fields.tsx";
import { AC_BASIS_LABELS, SETTING_LABELS } from "./settings-labels.ts";

const text = <T extends Record<string, number | string>>(group: T) =>
  Object.fromEntries(Object.entries(group).map(([key, value]) => [key, String(value)])) as { [K in keyof T]: string };

/** A saved profile's values as the form's text; a new one starts with SPEC §3's default basis. */
function formDefaults(config: ProfileConfig | undefined) {
  if (!config) return { ac: { based_on: "soil_temp" } };
  return { irrigation: text(config.irrigation), ventilation: text(config.ventilation), ac: text(config.ac), humidifier: text(config.humidifier) };
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="self-start rounded-xl border border-gray-200 px-4 pt-2 pb-0">
      <legend className="px-1 text-sm font-semibold text-gray-900">{legend}</legend>
      {children}
    </fieldset>
  );
}

function NumberField({ label, field }: { label: string; field: FieldMetadata<unknown> }) {
  return <TextField label={label} inputMode="decimal" step="any" {...getInputProps(field, { type: "number" })} error={field.errors} />;
}

/**
 * Step 2 of a profile (SPEC §4): every automation value, grouped by device, each a required
 * number (converted on submit by profileSettingsForm).
 */
export function ProfileSettingsStep({
  formId,
  config,
  hidden,
  failure,
  onSave,
  onBack,
  onCancel,
}: {
  formId: string;
  config: ProfileConfig | undefined;
  hidden: boolean;
  failure: string | null;
  onSave: (config: ProfileConfig) => Promise<void>;
  onBack: () => void;
  onCancel: () => void;
}) {
  const [saving, setSaving] = useState(false);
  const [form, fields] = useForm<z.input<typeof profileSettingsForm>, z.output<typeof profileSettingsForm>>({
    id: formId,
    defaultValue: formDefaults(config),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileSettingsForm }),
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
  const irrigation = fields.irrigation.getFieldset();
  const ventilation = fields.ventilation.getFieldset();
  const ac = fields.ac.getFieldset();
  const humidifier = fields.humidifier.getFieldset();
  const L = SETTING_LABELS;

  return (
    <form {...getFormProps(form)} hidden={hidden}>
      <div className="grid gap-4 sm:grid-cols-2 mb-5">
        <Group legend="Irrigation">
          <NumberField label={L.irrigation.on_cycle_hours} field={irrigation.on_cycle_hours} />
          <NumberField label={L.irrigation.off_cycle_liters} field={irrigation.off_cycle_liters} />
          <NumberField label={L.irrigation.soil_moisture_on} field={irrigation.soil_moisture_on} />
          <NumberField label={L.irrigation.soil_moisture_off} field={irrigation.soil_moisture_off} />
        </Group>
        <div className="grid gap-4 content-start">
          <Group legend="Ventilation">
            <NumberField label={L.ventilation.co2_threshold} field={ventilation.co2_threshold} />
          </Group>
          <Group legend="AC">
            <SelectField label={L.ac.based_on} {...getSelectProps(ac.based_on)} error={ac.based_on.errors}>
              {AC_BASES.map((basis) => (
                <option key={basis} value={basis}>
                  {AC_BASIS_LABELS[basis]}
                </option>
              ))}
            </SelectField>
            <NumberField label={L.ac.target_temp} field={ac.target_temp} />
          </Group>
          <Group legend="Humidifier">
            <NumberField label={L.humidifier.humidity_on_below} field={humidifier.humidity_on_below} />
            <NumberField label={L.humidifier.humidity_off_above} field={humidifier.humidity_off_above} />
          </Group>
        </div>
      </div>
      {failure && (
        <p role="alert" className="mb-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </p>
      )}
      {/* The form is taller than a phone: its actions stay in reach while the panel scrolls. */}
      <div className="sticky -bottom-5 -mx-5 -mb-5 px-5 py-4 bg-white border-t border-gray-100 flex flex-wrap sm:flex-nowrap items-center gap-3">
        <button type="button" className="btn-secondary mr-auto" onClick={onBack}>
          Back
        </button>
        <button type="button" className="btn-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn-primary" disabled={saving}>
          Save Settings
        </button>
      </div>
    </form>
  );
}
