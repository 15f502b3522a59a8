import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { AC_BASES } from "../../../contract/enums.ts";
import { i18n } from "../../i18n/i18n.ts";
import { SelectField, TextField } from "../../components/fields.tsx";
import { ArrowUpIcon, ChevronDownIcon, TrashIcon } from "../../components/icons.tsx";
import { PHASE_TEXT_MAX, type PhaseText, type RampsText } from "./recipe-form.ts";
import { num } from "./whole-number.ts";
import { daysText, upToText } from "./recipe-summary.ts";
import { clearOfActions, RampableSettingNumber, SettingGroup, SettingNumber, type ServerFieldError } from "./setting-field.tsx";

/** The phase's title while collapsed: its number, name and length as typed so far (in the reader's language). */
function phaseTitle(index: number, value: { name?: string; days?: string; waits?: string } | undefined): string {
  const name = value?.name?.trim() || i18n.t("recipes:phase.newPhase");
  const days = Number(value?.days);
  const length = Number.isInteger(days) && days >= 1 ? (value?.waits === "on" ? upToText(days) : daysText(days)) : null;
  const n = num(index + 1);
  return length ? i18n.t("recipes:phase.titleWithLength", { n, name, length }) : i18n.t("recipes:phase.title", { n, name });
}

/** One device's ramps in the form, by setting. */
type RampFields = Record<string, FieldMetadata<{ on?: string; to?: string }>>;

export interface PhaseMoves {
  up: (() => void) | null;
  down: (() => void) | null;
  remove: (() => void) | null;
}

/**
 * One phase of the recipe as an expandable section: its name and days, whether it waits for the
 * grower, and the climate the room keeps (each rampable setting with its ramp). A collapsed
 * section keeps its fields in the form (hidden), so they are sent and checked like the others.
 */
export function PhaseSection({
  index,
  field,
  expanded,
  onToggle,
  moves,
  serverError,
}: {
  index: number;
  field: FieldMetadata<PhaseText>;
  expanded: boolean;
  onToggle: () => void;
  moves: PhaseMoves;
  serverError: ServerFieldError;
}) {
  const { t } = useTranslation("recipes");
  const phase = field.getFieldset();
  const config = phase.config.getFieldset();
  const irrigation = config.irrigation.getFieldset();
  const ventilation = config.ventilation.getFieldset();
  const ac = config.ac.getFieldset();
  const humidifier = config.humidifier.getFieldset();
  const ramp = phase.ramp.getFieldset() as unknown as Record<string, FieldMetadata<NonNullable<RampsText[string]>>>;
  const rampOf = (group: string, key: string) => (ramp[group]!.getFieldset() as RampFields)[key]!;
  const waits = phase.waits.value === "on";
  const title = phaseTitle(index, field.value);
  const bodyId = `${field.id}-body`;
  const invalid = Boolean(field.allErrors && Object.keys(field.allErrors).length > 0);
  const name = field.value?.name?.trim() || t("phase.fallbackName", { n: num(index + 1) });

  return (
    <li className={`card ${invalid ? "border-red-300" : ""}`}>
      <div className="flex items-center gap-1 p-2 ps-1 sm:ps-2">
        <button
          type="button"
          id={`${field.id}-toggle`}
          className="flex min-h-11 min-w-0 flex-1 items-center gap-2 rounded-lg px-2 text-start text-base 4xl:text-2xl font-semibold text-gray-900 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-brand-600"
          aria-expanded={expanded}
          aria-controls={bodyId}
          onClick={onToggle}
        >
          <ChevronDownIcon className={`shrink-0 text-gray-500 transition-transform ${expanded ? "rotate-180" : ""}`} />
          <span className="min-w-0 break-words">{title}</span>
          {invalid && <span className="ms-auto shrink-0 rounded-full bg-red-50 px-2 py-0.5 text-xs 4xl:text-base font-medium text-red-700">{t("phase.needsAttention")}</span>}
        </button>
        <button type="button" id={`${field.id}-up`} className="icon-btn min-h-11 min-w-11" aria-label={t("phase.moveUp", { name })} onClick={moves.up ?? undefined} disabled={!moves.up}>
          <ArrowUpIcon className="text-lg 4xl:text-3xl" />
        </button>
        <button type="button" id={`${field.id}-down`} className="icon-btn min-h-11 min-w-11" aria-label={t("phase.moveDown", { name })} onClick={moves.down ?? undefined} disabled={!moves.down}>
          <ArrowUpIcon className="rotate-180 text-lg 4xl:text-3xl" />
        </button>
        <button
          type="button"
          className="icon-btn min-h-11 min-w-11 hover:text-red-700 hover:bg-red-50"
          aria-label={t("phase.remove", { name })}
          onClick={moves.remove ?? undefined}
          disabled={!moves.remove}
        >
          <TrashIcon className="text-lg 4xl:text-3xl" />
        </button>
      </div>

      <div id={bodyId} hidden={!expanded} className="border-t border-gray-100 px-4 pt-4 pb-1 sm:px-5 4xl:px-7">
        <div className="grid gap-x-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <TextField
            label={t("form.labels.phaseName")}
            placeholder={t("phase.namePlaceholder")}
            autoComplete="off"
            maxLength={PHASE_TEXT_MAX}
            style={clearOfActions}
            {...getInputProps(phase.name, { type: "text" })}
            error={phase.name.errors ?? serverError(phase.name.name)}
          />
          <TextField
            label={waits ? t("phase.maxDays") : t("phase.days")}
            inputMode="numeric"
            step={1}
            min={1}
            max={365}
            style={clearOfActions}
            {...getInputProps(phase.days, { type: "number" })}
            error={phase.days.errors ?? serverError(phase.days.name)}
          />
        </div>

        <div className="mb-4 rounded-xl bg-gray-50 px-3 py-2">
          <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm 4xl:text-xl font-medium text-gray-800">
            <input {...getInputProps(phase.waits, { type: "checkbox", value: "on" })} className="h-5 w-5 4xl:h-7 4xl:w-7 rounded accent-brand-700" />
            {t("phase.waits")}
          </label>
          <p className="text-xs 4xl:text-base text-gray-600 -mt-1 mb-2">
            {waits ? t("phase.waitsHelp") : t("phase.endsByItself")}
          </p>
          {waits && (
            <TextField
              label={t("form.labels.confirm")}
              placeholder={t("phase.confirmPlaceholder")}
              autoComplete="off"
              maxLength={PHASE_TEXT_MAX}
              style={clearOfActions}
              {...getInputProps(phase.confirm, { type: "text" })}
              error={phase.confirm.errors ?? serverError(phase.confirm.name)}
            />
          )}
        </div>

        <div className="grid gap-4 mb-4 lg:grid-cols-2 4xl:grid-cols-3">
          <SettingGroup legend={t("phase.groups.humidifier")}>
            <RampableSettingNumber path="humidifier.humidity_on_below" field={humidifier.humidity_on_below} ramp={rampOf("humidifier", "humidity_on_below")} serverError={serverError} />
            <RampableSettingNumber path="humidifier.humidity_off_above" field={humidifier.humidity_off_above} ramp={rampOf("humidifier", "humidity_off_above")} serverError={serverError} />
          </SettingGroup>
          <div className="grid gap-4 content-start">
            <SettingGroup legend={t("phase.groups.ventilation")}>
              <RampableSettingNumber path="ventilation.co2_threshold" field={ventilation.co2_threshold} ramp={rampOf("ventilation", "co2_threshold")} serverError={serverError} />
            </SettingGroup>
            <SettingGroup legend={t("phase.groups.ac")}>
              <RampableSettingNumber path="ac.target_temp" field={ac.target_temp} ramp={rampOf("ac", "target_temp")} serverError={serverError} />
              <SelectField label={t("phase.basedOn")} style={clearOfActions} {...getSelectProps(ac.based_on)} error={ac.based_on.errors}>
                {AC_BASES.map((basis) => (
                  <option key={basis} value={basis}>
                    {t(`phase.bases.${basis}`)}
                  </option>
                ))}
              </SelectField>
            </SettingGroup>
          </div>
          <SettingGroup legend={t("phase.groups.irrigation")}>
            <RampableSettingNumber path="irrigation.on_cycle_hours" field={irrigation.on_cycle_hours} ramp={rampOf("irrigation", "on_cycle_hours")} serverError={serverError} />
            <SettingNumber path="irrigation.off_cycle_liters" field={irrigation.off_cycle_liters} serverError={serverError} />
            <RampableSettingNumber path="irrigation.soil_moisture_on" field={irrigation.soil_moisture_on} ramp={rampOf("irrigation", "soil_moisture_on")} serverError={serverError} />
            <RampableSettingNumber path="irrigation.soil_moisture_off" field={irrigation.soil_moisture_off} ramp={rampOf("irrigation", "soil_moisture_off")} serverError={serverError} />
          </SettingGroup>
        </div>
      </div>
    </li>
  );
}
