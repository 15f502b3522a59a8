import { getFormProps, getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ProfileConfig } from "../../../contract/entities.ts";
import { AC_BASES } from "../../../contract/enums.ts";
import { profileSettingsForm } from "../../../contract/forms.ts";
import { PROFILE_SETTINGS, type ProfileSetting } from "../../../contract/profile-settings.ts";
import { SelectField, TextField } from "../../components/fields.tsx";
import { useSubmitForm } from "../../components/use-submit-form.ts";

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

/**
 * Room below a field scrolled into view (by focus, or Conform focusing the first error) for its
 * message and the sticky actions, which would otherwise cover both on a phone.
 */
const clearOfActions = { scrollMarginBottom: "8rem" } as const;

type Settings = typeof PROFILE_SETTINGS;
type SettingGroup = keyof Settings;
/** "irrigation.on_cycle_hours": a setting by the contract's group and name, as the catalogue keys its label. */
type SettingKey = { [G in SettingGroup]: `${G}.${keyof Settings[G] & string}` }[SettingGroup];

/**
 * A setting's number, its plausible range (the contract's, the server's too) given to the spin
 * buttons. The form is noValidate: the range is judged with the other rules, each message under
 * its field. Its label is the catalogue's, by the contract's group and setting names.
 */
function NumberField<G extends SettingGroup>({ group, name, field }: { group: G; name: keyof Settings[G] & string; field: FieldMetadata<unknown> }) {
  const { t } = useTranslation("profiles");
  const setting = (PROFILE_SETTINGS[group] as Record<string, ProfileSetting>)[name]!;
  return (
    <TextField
      label={t(`settingLabels.${group}.${name}` as `settingLabels.${SettingKey}`)}
      inputMode="decimal"
      step="any"
      min={setting.min}
      max={setting.max}
      style={clearOfActions}
      {...getInputProps(field, { type: "number" })}
      error={field.errors}
    />
  );
}

/**
 * Step 2 of a profile (SPEC §4): every automation value, grouped by device, each a required
 * number in its range with each "on" below its "off" (profileSettingsForm, which also converts
 * them on submit). Every mistake shows under its field at once; Conform focuses the first.
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
  const { t } = useTranslation("profiles");
  const { form, fields, busy: saving } = useSubmitForm({ id: formId, schema: profileSettingsForm, defaultValue: formDefaults(config), send: onSave });
  const irrigation = fields.irrigation.getFieldset();
  const ventilation = fields.ventilation.getFieldset();
  const ac = fields.ac.getFieldset();
  const humidifier = fields.humidifier.getFieldset();

  return (
    <form {...getFormProps(form)} hidden={hidden}>
      <div className="grid gap-4 sm:grid-cols-2 mb-5">
        <Group legend={t("groups.irrigation")}>
          <NumberField group="irrigation" name="on_cycle_hours" field={irrigation.on_cycle_hours} />
          <NumberField group="irrigation" name="off_cycle_liters" field={irrigation.off_cycle_liters} />
          <NumberField group="irrigation" name="soil_moisture_on" field={irrigation.soil_moisture_on} />
          <NumberField group="irrigation" name="soil_moisture_off" field={irrigation.soil_moisture_off} />
        </Group>
        <div className="grid gap-4 content-start">
          <Group legend={t("groups.ventilation")}>
            <NumberField group="ventilation" name="co2_threshold" field={ventilation.co2_threshold} />
          </Group>
          <Group legend={t("groups.ac")}>
            <SelectField label={t("settingsStep.basedOn")} style={clearOfActions} {...getSelectProps(ac.based_on)} error={ac.based_on.errors}>
              {AC_BASES.map((basis) => (
                <option key={basis} value={basis}>
                  {t(`basis.${basis}`)}
                </option>
              ))}
            </SelectField>
            <NumberField group="ac" name="target_temp" field={ac.target_temp} />
          </Group>
          <Group legend={t("groups.humidifier")}>
            <NumberField group="humidifier" name="humidity_on_below" field={humidifier.humidity_on_below} />
            <NumberField group="humidifier" name="humidity_off_above" field={humidifier.humidity_off_above} />
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
        <button type="button" className="btn-secondary me-auto" onClick={onBack}>
          {t("settingsStep.back")}
        </button>
        <button type="button" className="btn-secondary" onClick={onCancel}>
          {t("settingsStep.cancel")}
        </button>
        <button type="submit" className="btn-primary" disabled={saving}>
          {t("settingsStep.save")}
        </button>
      </div>
    </form>
  );
}
