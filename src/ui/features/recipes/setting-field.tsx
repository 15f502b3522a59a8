import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { TextField } from "../../components/fields.tsx";
import type { RampText } from "./recipe-form.ts";
import { settingLabel, settingName, settingOf, settingUnit, type SettingPath } from "./setting-texts.ts";

/**
 * Room below a field scrolled into view (by focus, or the focus on the first error) for its
 * message and the sticky actions, which would otherwise cover both on a phone.
 */
export const clearOfActions = { scrollMarginBottom: "8rem" } as const;

/** A message the server sent about this field (by its name in the form), when the field has none of its own. */
export type ServerFieldError = (name: string) => string | undefined;

/** A device's settings in a phase, under the device's name. */
export function SettingGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="self-start min-w-0 rounded-xl border border-gray-200 px-4 pt-2 pb-0">
      <legend className="px-1 text-sm 4xl:text-xl font-semibold text-gray-900">{legend}</legend>
      {children}
    </fieldset>
  );
}

/**
 * A setting's number at the phase's start, its range (the contract's) given to the spin buttons;
 * the form is noValidate, so the range is judged with the other rules, each message under its field.
 */
export function SettingNumber({ path, field, serverError }: { path: SettingPath; field: FieldMetadata<unknown>; serverError: ServerFieldError }) {
  useTranslation("recipes");
  const setting = settingOf(path);
  return (
    <TextField
      label={settingLabel(path)}
      inputMode="decimal"
      step="any"
      min={setting.min}
      max={setting.max}
      style={clearOfActions}
      {...getInputProps(field, { type: "number" })}
      error={field.errors ?? serverError(field.name)}
    />
  );
}

/**
 * A setting that may ramp: its start value, and a "Ramp" toggle revealing the value it reaches at
 * the phase's end. The toggle and the end value are fields of the form (`ramp.<group>.<key>`), so
 * they move with their phase and are checked with the rest.
 */
export function RampableSettingNumber({
  path,
  field,
  ramp,
  serverError,
}: {
  path: SettingPath;
  field: FieldMetadata<unknown>;
  ramp: FieldMetadata<RampText | undefined>;
  serverError: ServerFieldError;
}) {
  const { t } = useTranslation("recipes");
  const setting = settingOf(path);
  const unit = settingUnit(path);
  const { on, to } = ramp.getFieldset();
  const ramping = on.value === "on";
  return (
    <div className="mb-4">
      <div className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-x-3">
        <div className="[&>div]:mb-0">
          <SettingNumber path={path} field={field} serverError={serverError} />
        </div>
        <label className="mt-6 4xl:mt-9 inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-2 text-sm 4xl:text-lg font-medium text-gray-700 hover:bg-gray-50">
          <input {...getInputProps(on, { type: "checkbox", value: "on" })} className="h-5 w-5 4xl:h-7 4xl:w-7 rounded accent-brand-700" />
          {t("setting.ramp")}
          <span className="sr-only"> {settingName(path)}</span>
        </label>
      </div>
      {ramping && (
        <div className="mt-2 ms-4 border-s-2 border-brand-200 ps-3 [&>div]:mb-0">
          <TextField
            label={t("setting.rampsTo", { unit })}
            aria-label={t("setting.rampsToNamed", { name: settingName(path), unit })}
            inputMode="decimal"
            step="any"
            min={setting.min}
            max={setting.max}
            style={clearOfActions}
            {...getInputProps(to, { type: "number" })}
            error={to.errors ?? serverError(to.name)}
            hint={<p className="mt-1 text-xs 4xl:text-base text-gray-500">{t("setting.rampHint")}</p>}
          />
        </div>
      )}
    </div>
  );
}
