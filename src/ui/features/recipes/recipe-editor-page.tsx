import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router-dom";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { useListLoad } from "../../components/use-list-load.ts";
import { useCollection } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { num } from "./whole-number.ts";
import { RecipeEditor } from "./recipe-editor.tsx";

const backLink = "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800";

/** A new recipe (/recipes/new) or a saved one by its id, in the editor. */
export default function RecipeEditorPage() {
  const { t } = useTranslation("recipes");
  const { recipeId } = useParams();
  const isNew = recipeId === "new";
  const id = Number(recipeId);
  const { core } = useAppData();
  const recipe = useCollection("recipes", (list) => (isNew ? undefined : list.find((r) => r.recipe_id === id)));
  const { state, retry } = useListLoad({
    load: useCallback(() => core.loadRecipes(), [core]),
    failure: { kind: "info", fallback: t("page.loadFailed") },
    toastId: "recipes-load",
    hasData: isNew || recipe !== undefined,
  });

  const heading = (
    <div className="mb-5">
      <p className="text-sm 4xl:text-xl">
        <Link to="/recipes" className={backLink}>
          <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
            ←
          </span>{" "}
          {t("editorPage.allRecipes")}
        </Link>
      </p>
      <h2 className="mt-1 text-xl sm:text-2xl 4xl:text-4xl font-semibold text-gray-900 break-words">
        {isNew ? t("editorPage.new") : recipe ? t("editorPage.editNamed", { name: recipe.name }) : t("editorPage.edit")}
        {recipe && <span className="ms-2 align-middle rounded-full bg-gray-100 px-2.5 py-0.5 text-sm 4xl:text-xl font-medium text-gray-700">{t("card.version", { version: num(recipe.version) })}</span>}
      </h2>
      {recipe && recipe.running_batches > 0 && (
        <p className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-sm 4xl:text-xl text-amber-950 ring-1 ring-inset ring-amber-200">
          {t("editorPage.runningNote")}
        </p>
      )}
    </div>
  );

  let body;
  if (isNew || recipe) body = <RecipeEditor key={recipe?.recipe_id ?? "new"} recipe={recipe} />;
  else if (state.status === "error") body = <LoadError text={state.message} onRetry={retry} />;
  else if (state.status === "loading") body = <Loading text={t("editorPage.loading")} />;
  else
    body = (
      <EmptyState title={t("editorPage.notFound")}>
        <p>
          {t("editorPage.mayBeDeleted")}{" "}
          <Link to="/recipes" className={backLink}>
            {t("editorPage.back")}
          </Link>
        </p>
      </EmptyState>
    );

  return (
    <section>
      {heading}
      {body}
    </section>
  );
}
