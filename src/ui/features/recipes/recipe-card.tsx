import { useTranslation } from "react-i18next";
import type { Recipe } from "../../../contract/grow.ts";
import { EditableCardHeader } from "../../components/editable-card-header.tsx";
import { useAccountRefusal } from "../../data/farm-roles.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { num } from "./whole-number.ts";
import { phaseLengthText, runningBatchesText, totalDaysText } from "./recipe-summary.ts";

/**
 * One recipe: its crop and version, its phases in order with their lengths, and what runs it. A
 * recipe of another account is changed only by a role there that may change recipes.
 */
export function RecipeCard({ recipe, onEdit, onDelete, deleting }: { recipe: Recipe; onEdit: () => void; onDelete: () => void; deleting: boolean }) {
  const { t } = useTranslation("recipes");
  useLocale();
  const headingId = `recipe-${recipe.recipe_id}-name`;
  const running = recipe.running_batches;
  const refusal = useAccountRefusal(recipe.client_id, "manageRecipes");
  return (
    <article aria-labelledby={headingId} className="card w-full p-5 4xl:p-7 flex flex-col">
      <EditableCardHeader headingId={headingId} name={recipe.name} noun={t("card.noun")} onEdit={onEdit} onDelete={onDelete} deleting={deleting} refusal={refusal}>
        <p className="mt-0.5 text-sm 4xl:text-xl text-gray-600">
          {recipe.species || <span className="italic">{t("card.noSpecies")}</span>}
          <span aria-hidden="true"> · </span>
          <span className="font-medium text-gray-800">{t("card.version", { version: num(recipe.version) })}</span>
        </p>
      </EditableCardHeader>

      <ol className="mt-4 flex flex-wrap gap-2 text-sm 4xl:text-xl" aria-label={t("card.phases")}>
        {recipe.phases.map((phase, i) => (
          <li key={i} className="rounded-lg bg-gray-50 ring-1 ring-inset ring-gray-200 px-2.5 py-1 4xl:px-4 4xl:py-2">
            <span className="font-medium text-gray-900">{phase.name}</span> <span className="text-gray-600">{phaseLengthText(phase)}</span>
          </li>
        ))}
      </ol>

      <dl className="mt-auto pt-4 flex flex-wrap gap-x-5 gap-y-1 text-sm 4xl:text-xl text-gray-700">
        <div className="flex gap-1.5">
          <dt className="text-gray-500">{t("card.total")}</dt>
          <dd className="font-medium text-gray-900">{totalDaysText(recipe.phases)}</dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="sr-only">{t("card.batches")}</dt>
          <dd>
            <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs 4xl:text-lg font-medium ${running ? "bg-brand-50 text-brand-800" : "bg-gray-100 text-gray-600"}`}>
              {runningBatchesText(running)}
            </span>
          </dd>
        </div>
      </dl>
    </article>
  );
}
