import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { Mcu } from "../../../contract/entities.ts";
import type { Batch, Recipe } from "../../../contract/grow.ts";
import { LIMITS } from "../../../contract/limits.ts";
import { formatDate } from "../../components/dates.ts";
import { SelectField, TextField } from "../../components/fields.tsx";
import { CancelAndSubmit } from "../../components/form-buttons.tsx";
import { Modal } from "../../components/modal.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useSubmitForm } from "../../components/use-submit-form.ts";
import { useAppData } from "../../data/provider.tsx";
import { startBatchForm, startFieldOfRefusal, type StartField } from "./batch-forms.ts";
import { num } from "./whole-number.ts";
import { deviceTimeZone, fromDateTimeLocal, toDateTimeLocal } from "./zone-dates.ts";

interface Refusal {
  field: StartField | null;
  text: string;
}

/** The form's raw values, as Conform holds them. */
interface StartFields {
  name: string;
  recipe_id: string;
  mcu_ids: string[];
  started_at: string;
  time_zone: string;
}

const defaultName = (recipe: Recipe | undefined, now: number) => (recipe ? `${recipe.name} ${formatDate(now)}` : "");

/** Starts a recipe's current version on MCUs free of other running batches. Mount it per opening. */
export function StartBatchDialog({ open, onClose, recipes, mcus, running }: { open: boolean; onClose: () => void; recipes: readonly Recipe[]; mcus: readonly Mcu[]; running: readonly Batch[] }) {
  const { t } = useTranslation("batches");
  return (
    <Modal open={open} onClose={onClose} title={t("page.start")} wide>
      {recipes.length === 0 ? (
        <div>
          <p className="mb-4 text-gray-700">{t("start.noRecipe")}</p>
          <div className="flex flex-col-reverse sm:flex-row sm:justify-end gap-3">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t("start.close")}
            </button>
            <Link to="/recipes" className="btn-primary">
              {t("start.createRecipe")}
            </Link>
          </div>
        </div>
      ) : (
        <StartBatchForm onDone={onClose} recipes={recipes} mcus={mcus} running={running} />
      )}
    </Modal>
  );
}

function StartBatchForm({ onDone, recipes, mcus, running }: { onDone: () => void; recipes: readonly Recipe[]; mcus: readonly Mcu[]; running: readonly Batch[] }) {
  const { t } = useTranslation("batches");
  const { core } = useAppData();
  const ids = useId();
  const [openedAt] = useState(() => Date.now());
  const zone = useMemo(deviceTimeZone, []);
  const first = recipes[0];
  const proposed = useRef(defaultName(first, openedAt));
  const { form, fields, busy, refusal, setRefusal } = useSubmitForm<typeof startBatchForm, StartFields, Refusal>({
    schema: startBatchForm,
    defaultValue: { name: defaultName(first, openedAt), recipe_id: first ? String(first.recipe_id) : "", mcu_ids: [], started_at: toDateTimeLocal(openedAt, zone), time_zone: zone },
    async send(v) {
      const saved = await core.startBatch({ name: v.name, recipe_id: v.recipe_id, mcu_ids: v.mcu_ids, time_zone: v.time_zone, started_at: new Date(fromDateTimeLocal(v.started_at, v.time_zone)).toISOString() });
      notify.success(t("start.started", { name: saved.name }));
      onDone();
    },
    refused(err) {
      const text = messageOf(err, t("start.failed"));
      notify.error(text);
      return { field: startFieldOfRefusal(err), text };
    },
  });
  const errorOf = (field: StartField, own: string[] | undefined) => own ?? (refusal?.field === field ? refusal.text : undefined);

  // Which running batch holds each MCU: it cannot join a second one.
  const busyIn = useMemo(() => {
    const m = new Map<number, string>();
    for (const b of running) for (const id of b.mcu_ids) m.set(id, b.name);
    return m;
  }, [running]);
  const farms = useMemo(() => {
    const groups = new Map<number, { name: string; mcus: Mcu[] }>();
    for (const mcu of mcus) {
      const g = groups.get(mcu.farm_id) ?? { name: mcu.farm.name, mcus: [] };
      g.mcus.push(mcu);
      groups.set(mcu.farm_id, g);
    }
    return [...groups.entries()];
  }, [mcus]);

  const { key: nameKey, ...nameProps } = getInputProps(fields.name, { type: "text" });
  const { key: recipeKey, ...recipeProps } = getSelectProps(fields.recipe_id);
  const { key: startKey, ...startProps } = getInputProps(fields.started_at, { type: "datetime-local" });
  const { key: zoneKey, ...zoneProps } = getInputProps(fields.time_zone, { type: "text" });
  const mcuError = errorOf("mcu_ids", fields.mcu_ids.errors);
  const mcuErrorText = Array.isArray(mcuError) ? mcuError[0] : mcuError;
  const mcuErrorId = `${ids}-mcus-error`;
  const zones = useMemo(() => (Intl as { supportedValuesOf?: (key: "timeZone") => string[] }).supportedValuesOf?.("timeZone") ?? [], []);
  const zoneListId = `${ids}-zones`;

  return (
    <form
      {...getFormProps(form)}
      aria-busy={busy || undefined}
      onInput={(event) => {
        const changed = (event.target as HTMLInputElement).name;
        if (refusal && (refusal.field === null || changed === refusal.field)) setRefusal(null);
      }}
    >
      <SelectField
        key={recipeKey}
        {...recipeProps}
        label={t("start.recipe")}
        error={errorOf("recipe_id", fields.recipe_id.errors)}
        onChange={(event) => {
          // A name still as it was proposed follows the recipe chosen.
          const name = fields.name.value ?? "";
          if (name !== "" && name !== proposed.current) return;
          proposed.current = defaultName(recipes.find((r) => String(r.recipe_id) === event.target.value), openedAt);
          form.update({ name: "name", value: proposed.current });
        }}
      >
        {recipes.map((r) => (
          <option key={r.recipe_id} value={String(r.recipe_id)}>
            {t("start.recipeOption", { name: r.name, version: num(r.version), count: r.phases.length })}
          </option>
        ))}
      </SelectField>
      <TextField key={nameKey} {...nameProps} label={t("start.name")} autoComplete="off" maxLength={LIMITS.name} error={errorOf("name", fields.name.errors)} />

      <fieldset className="mb-4" aria-describedby={mcuErrorText ? mcuErrorId : undefined} aria-invalid={mcuErrorText ? true : undefined}>
        <legend className="block text-sm font-medium text-gray-700 mb-1">{t("start.mcus")}</legend>
        {farms.length === 0 ? (
          <p className="text-sm text-gray-600">
            {t("start.noMcus")}{" "}
            <Link to="/mcu" className="font-medium text-brand-700 underline underline-offset-2">
              {t("start.addMcu")}
            </Link>
          </p>
        ) : (
          <div className="max-h-72 overflow-y-auto rounded-lg border border-gray-300 divide-y divide-gray-100">
            {farms.map(([farmId, farm]) => (
              <fieldset key={farmId} className="px-3 py-2">
                <legend className="sr-only">{farm.name}</legend>
                <p aria-hidden="true" className="text-xs 4xl:text-lg font-semibold uppercase tracking-wide text-gray-500 pt-1">
                  {farm.name}
                </p>
                {farm.mcus.map((mcu) => {
                  const inBatch = busyIn.get(mcu.mcu_id);
                  return (
                    <label key={mcu.mcu_id} className={`flex min-h-11 items-center gap-3 ${inBatch ? "text-gray-400" : "text-gray-900 cursor-pointer"}`}>
                      <input type="checkbox" name={fields.mcu_ids.name} value={String(mcu.mcu_id)} disabled={inBatch !== undefined} className="h-5 w-5 4xl:h-7 4xl:w-7 accent-brand-700" />
                      <span className="flex-1 min-w-0 break-words">{mcu.name}</span>
                      {inBatch && <span className="shrink-0 text-xs 4xl:text-lg text-gray-500">{t("start.inBatch", { name: inBatch })}</span>}
                    </label>
                  );
                })}
              </fieldset>
            ))}
          </div>
        )}
        {mcuErrorText && (
          <p id={mcuErrorId} role="alert" className="mt-1 text-sm text-red-600">
            {mcuErrorText}
          </p>
        )}
      </fieldset>

      <div className="grid gap-x-3 sm:grid-cols-2">
        <TextField key={startKey} {...startProps} label={t("start.start")} error={errorOf("started_at", fields.started_at.errors)} />
        <TextField key={zoneKey} {...zoneProps} label={t("form.labels.timeZone")} list={zoneListId} autoComplete="off" spellCheck={false} error={errorOf("time_zone", fields.time_zone.errors)} />
        <datalist id={zoneListId}>
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </div>
      <p className="-mt-2 mb-4 text-xs 4xl:text-lg text-gray-500">{t("start.startHelp")}</p>

      {refusal && refusal.field === null && (
        <p role="alert" className="mb-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-inset ring-red-200">
          {refusal.text}
        </p>
      )}
      <CancelAndSubmit submit={t("start.submit")} busy={busy} busyText={t("start.busy")} onCancel={onDone} />
    </form>
  );
}
