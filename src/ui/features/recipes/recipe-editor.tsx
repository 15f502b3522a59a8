import { getFormProps, getInputProps } from "@conform-to/react";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router-dom";
import type { RecipeRequest } from "../../../contract/api.ts";
import { CoreError } from "../../../contract/core-error.ts";
import { GROW_LIMITS } from "../../../contract/grow-values.ts";
import type { Recipe } from "../../../contract/grow.ts";
import { LIMITS } from "../../../contract/limits.ts";
import { TextField } from "../../components/fields.tsx";
import { PlusIcon } from "../../components/icons.tsx";
import { RefusalNote } from "../../components/refusal-note.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useSubmitForm } from "../../components/use-submit-form.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { num } from "./whole-number.ts";
import { PhaseSection } from "./phase-section.tsx";
import { fieldOfRefusal, nextPhaseText, previewPhasesOf, recipeForm, recipeText, type PhaseText, type RecipeText } from "./recipe-form.ts";
import { RecipePreviewChart } from "./recipe-preview-chart.tsx";
import { clearOfActions } from "./setting-field.tsx";
import { useAccountRefusal } from "../../data/farm-roles.ts";
import { useAppData } from "../../data/provider.tsx";

const hasErrors = (errors: Record<string, string[]> | undefined) => errors !== undefined && Object.keys(errors).length > 0;

interface Refusal {
  text: string;
  /** The form field it is about, or null: said above the buttons. */
  field: string | null;
}

/**
 * A recipe's editor: its name and crop, its phases in order (each expandable, added, removed and
 * moved), and a preview of the plan as typed. Checked with the server's rules before sending; a
 * refusal of the server stays in the form, under the field it is about, with everything typed.
 * A recipe of another account opened by a role that may not change recipes there cannot be saved,
 * and says why beside Save. (A new recipe goes to the person's own account.)
 */
export function RecipeEditor({ recipe }: { recipe: Recipe | undefined }) {
  const { t } = useTranslation("recipes");
  const locale = useLocale();
  const { core } = useAppData();
  const navigate = useNavigate();
  const formId = `recipe-${useId()}`;
  const sentRef = useRef<RecipeRequest | null>(null);
  const saveRefusal = useAccountRefusal(recipe?.client_id, "manageRecipes");
  const saveReasonId = `${formId}-refused`;
  const { form, fields, busy, refusal } = useSubmitForm<typeof recipeForm, RecipeText, Refusal>({
    id: formId,
    schema: recipeForm,
    defaultValue: recipeText(recipe),
    busyAfterSuccess: true,
    send: async (value) => {
      sentRef.current = value;
      await core.saveRecipe(recipe?.recipe_id ?? null, value);
      notify.success(t("editor.saved"));
      navigate("/recipes");
    },
    refused: (err) => {
      const text = messageOf(err, t("editor.saveFailed"));
      notify.error(text);
      return { text, field: sentRef.current && err instanceof CoreError ? fieldOfRefusal(sentRef.current, err.fieldErrors) : null };
    },
  });

  const phases = fields.phases.getFieldList();
  // An edited recipe opens with its phases folded (its plan shows on the preview); a new one and
  // every added phase open, ready to fill in. Kept by position, moved with the phases below.
  const [folded, setFolded] = useState<readonly boolean[]>(() => phases.map(() => recipe !== undefined));
  const isFolded = (index: number) => folded[index] ?? false;
  const toggle = (index: number) => setFolded((f) => phases.map((_, i) => (i === index ? !(f[i] ?? false) : (f[i] ?? false))));
  const swapFolded = (a: number, b: number) =>
    setFolded((f) => {
      const next = phases.map((_, i) => f[i] ?? false);
      [next[a], next[b]] = [next[b]!, next[a]!];
      return next;
    });

  const serverError = (name: string) => (refusal?.field === name ? refusal.text : undefined);

  // After a move or a removal, the focus goes back where the grower was acting (React moves or
  // drops the focused button), and a screen reader hears what changed.
  const [announcement, setAnnouncement] = useState("");
  const focusAfter = useRef<string | null>(null);
  useEffect(() => {
    if (!focusAfter.current) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = null;
  });

  // A save that finds mistakes (the form's own, or the server's about one field) opens the folded
  // phases that hold them, then puts the focus on the first: Conform tries as the submit is judged,
  // before a folded phase has opened, and the server answers later still.
  const focusPending = useRef(false);
  const wrongFolded = phases.flatMap((p, i) => (isFolded(i) && (hasErrors(p.allErrors) || Boolean(refusal?.field?.startsWith(`${p.name}.`))) ? [i] : []));
  useEffect(() => {
    if (!focusPending.current) return;
    if (wrongFolded.length > 0) {
      setFolded((f) => phases.map((_, i) => (f[i] ?? false) && !wrongFolded.includes(i)));
      return;
    }
    if (form.status !== "error" && !refusal) return;
    focusPending.current = false;
    if (refusal?.field) {
      document.getElementsByName(refusal.field)[0]?.focus();
      return;
    }
    const active = document.activeElement;
    if (active instanceof HTMLElement && active.getAttribute("aria-invalid") === "true") return;
    document.getElementById(formId)?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });

  const nameOf = (value: { name?: string } | undefined, index: number) => value?.name?.trim() || t("phase.fallbackName", { n: num(index + 1) });
  const movesOf = (index: number) => {
    const field = phases[index]!;
    const name = nameOf(field.value, index);
    return {
      up:
        index > 0
          ? () => {
              form.reorder({ name: fields.phases.name, from: index, to: index - 1 });
              swapFolded(index, index - 1);
              focusAfter.current = `${phases[index - 1]!.id}-up`;
              setAnnouncement(t("editor.movedUp", { name, n: num(index) }));
            }
          : null,
      down:
        index < phases.length - 1
          ? () => {
              form.reorder({ name: fields.phases.name, from: index, to: index + 1 });
              swapFolded(index, index + 1);
              focusAfter.current = `${phases[index + 1]!.id}-down`;
              setAnnouncement(t("editor.movedDown", { name, n: num(index + 2) }));
            }
          : null,
      // A recipe needs a phase: the last one stays.
      remove:
        phases.length > 1
          ? () => {
              form.remove({ name: fields.phases.name, index });
              setFolded((f) => phases.map((_, i) => f[i] ?? false).filter((_, i) => i !== index));
              focusAfter.current = `${phases[Math.max(0, index - 1)]!.id}-toggle`;
              setAnnouncement(t("editor.removed", { name }));
            }
          : null,
    };
  };

  function addPhase() {
    const last = phases.at(-1)?.value as PhaseText | undefined;
    form.insert({ name: fields.phases.name, defaultValue: nextPhaseText(last) });
    setFolded((f) => [...phases.map((_, i) => f[i] ?? false), false]);
    // Conform names a list item by its index: the new one's name field is the next index.
    focusAfter.current = `${formId}-phases[${phases.length}].name`;
    setAnnouncement(t("editor.added", { n: num(phases.length + 1) }));
  }

  // An unnamed phase is named in the reader's language: a new language names it again.
  const preview = useMemo(() => previewPhasesOf(form.value), [form.value, locale]);
  const formAlert = refusal && refusal.field === null ? refusal.text : null;

  return (
    <form
      {...getFormProps(form)}
      // The shared fields are sized for arm's length; on a wall screen the whole form reads from across the room.
      className="grid gap-5 4xl:gap-8 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] xl:items-start 4xl:[&_label]:text-xl 4xl:[&_input]:text-xl 4xl:[&_select]:text-xl"
    >
      <div className="grid gap-5 min-w-0">
        <section aria-labelledby={`${formId}-about`} className="card p-4 sm:p-5 4xl:p-7 pb-0 sm:pb-1">
          <h3 id={`${formId}-about`} className="sr-only">
            {t("editor.about")}
          </h3>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <TextField
              label={t("form.labels.name")}
              placeholder={t("editor.namePlaceholder")}
              autoComplete="off"
              maxLength={LIMITS.name}
              style={clearOfActions}
              {...getInputProps(fields.name, { type: "text" })}
              error={fields.name.errors ?? serverError(fields.name.name)}
            />
            <TextField
              label={t("form.labels.species")}
              placeholder={t("editor.speciesPlaceholder")}
              autoComplete="off"
              maxLength={60}
              style={clearOfActions}
              {...getInputProps(fields.species, { type: "text" })}
              error={fields.species.errors ?? serverError(fields.species.name)}
            />
          </div>
        </section>

        <section aria-labelledby={`${formId}-phases`}>
          <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
            <h3 id={`${formId}-phases`} className="text-lg 4xl:text-3xl font-semibold text-gray-900">
              {t("editor.phases")}
            </h3>
            <p className="text-sm 4xl:text-xl text-gray-600">{t("editor.phasesHelp")}</p>
          </div>
          {fields.phases.errors && (
            <p role="alert" className="mb-3 text-sm text-red-600">
              {fields.phases.errors[0]}
            </p>
          )}
          <ol className="grid gap-3 4xl:gap-5">
            {phases.map((phase, index) => (
              <PhaseSection
                key={phase.key}
                index={index}
                field={phase}
                expanded={!isFolded(index)}
                onToggle={() => toggle(index)}
                moves={movesOf(index)}
                serverError={serverError}
              />
            ))}
          </ol>
          <button type="button" className="btn-secondary mt-3 min-h-11 w-full sm:w-auto 4xl:text-xl 4xl:px-6 4xl:py-3" onClick={addPhase} disabled={phases.length >= GROW_LIMITS.phases}>
            <PlusIcon /> {t("editor.addPhase")}
          </button>
          <p role="status" className="sr-only">
            {announcement}
          </p>
        </section>
      </div>

      <section aria-label={t("preview.heading")} className="card p-4 sm:p-5 4xl:p-7 min-w-0 xl:sticky xl:top-20">
        <RecipePreviewChart phases={preview} />
      </section>

      <div className="xl:col-span-2 sticky bottom-0 z-10 -mx-4 sm:mx-0 border-t border-gray-200 bg-white/95 px-4 py-3 sm:rounded-xl sm:border sm:shadow-sm backdrop-blur">
        {formAlert && (
          <p role="alert" className="mb-3 rounded-lg bg-red-50 px-3 py-2 text-sm 4xl:text-lg text-red-800 ring-1 ring-inset ring-red-200">
            {formAlert}
          </p>
        )}
        <div className="flex flex-wrap items-center justify-end gap-3">
          <RefusalNote id={saveReasonId} text={saveRefusal} className="me-auto" />
          <Link to="/recipes" className="btn-secondary min-h-11 4xl:text-xl 4xl:px-6 4xl:py-3">
            {t("editor.cancel")}
          </Link>
          {/* A click, not the form's submit event: Conform's list actions submit the form too. Enter
              in a field clicks this default button as well. */}
          <button
            type="submit"
            className="btn-primary min-h-11 4xl:text-xl 4xl:px-6 4xl:py-3"
            disabled={busy || saveRefusal !== null}
            aria-describedby={saveRefusal ? saveReasonId : undefined}
            onClick={() => {
              focusPending.current = true;
            }}
          >
            {busy ? t("editor.saving") : t("editor.save")}
          </button>
        </div>
      </div>
    </form>
  );
}
