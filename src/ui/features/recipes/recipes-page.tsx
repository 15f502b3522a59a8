import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router-dom";
import type { Recipe } from "../../../contract/grow.ts";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { PlusIcon, SproutIcon } from "../../components/icons.tsx";
import { EmptyState, LoadError, Loading, SavedDataNotice } from "../../components/states.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useListLoad } from "../../components/use-list-load.ts";
import { useCollection } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { RecipeCard } from "./recipe-card.tsx";
import { recipePath } from "./recipe-paths.ts";

const RECIPE_LISTS = ["recipes"] as const;

/** Big enough for a wet thumb in a grow room. */
const BUTTON_SIZE = "min-h-11 4xl:text-xl 4xl:px-6 4xl:py-3";

/** Grow recipes: the phases a crop goes through, each with the climate the room keeps. */
export default function RecipesPage() {
  const { t } = useTranslation("recipes");
  const { core } = useAppData();
  const navigate = useNavigate();
  const recipes = useCollection("recipes");
  const { state, retry } = useListLoad({
    load: useCallback(() => core.loadRecipes(), [core]),
    failure: { kind: "info", fallback: t("page.loadFailed") },
    toastId: "recipes-load",
  });
  const confirm = useConfirm();
  const [deleting, setDeleting] = useState<number | null>(null);
  const [addingStarters, setAddingStarters] = useState(false);

  async function remove(recipe: Recipe) {
    if (!(await confirm(t("page.deleteConfirm")))) return;
    setDeleting(recipe.recipe_id);
    try {
      notify.success(await core.deleteRecipe(recipe.recipe_id));
    } catch (err) {
      // A recipe that batches still run is kept; the server says so, and the grower needs that reason.
      notify.error(messageOf(err, t("page.deleteFailed")));
    } finally {
      setDeleting(null);
    }
  }

  async function addStarters() {
    setAddingStarters(true);
    try {
      // The server answers with the whole library: the new ones are what it has beyond the list shown.
      const added = Math.max(0, (await core.addStarterRecipes()) - recipes.length);
      if (added === 0) notify.info(t("page.startersAllThere"));
      else notify.success(t("page.startersAdded", { count: added }));
    } catch (err) {
      notify.error(messageOf(err, t("page.startersFailed")));
    } finally {
      setAddingStarters(false);
    }
  }

  const addStartersButton = (primary: boolean) => (
    <button type="button" className={`${primary ? "btn-primary" : "btn-secondary"} ${BUTTON_SIZE}`} onClick={() => void addStarters()} disabled={addingStarters}>
      <SproutIcon /> {t("page.addStarters")}
    </button>
  );
  const addRecipeLink = (primary: boolean) => (
    <Link to={recipePath("new")} className={`${primary ? "btn-primary" : "btn-secondary"} ${BUTTON_SIZE}`}>
      <PlusIcon /> {t("page.addNew")}
    </Link>
  );

  return (
    <section aria-labelledby="recipes-heading">
      <div className="flex flex-wrap items-center justify-end gap-3 mb-5">
        <h2 id="recipes-heading" className="sr-only">
          {t("page.heading")}
        </h2>
        {recipes.length > 0 && addStartersButton(false)}
        {addRecipeLink(true)}
      </div>

      <div className="empty:hidden mb-5">
        <SavedDataNotice lists={RECIPE_LISTS} />
      </div>

      {state.status === "error" ? (
        <LoadError text={state.message} onRetry={retry} />
      ) : state.status === "loading" && recipes.length === 0 ? (
        <Loading text={t("page.loading")} />
      ) : recipes.length === 0 ? (
        <EmptyState title={t("page.empty")}>
          <p className="max-w-prose mx-auto">{t("page.emptyHelp")}</p>
          <div className="mt-5 flex flex-wrap justify-center gap-3">
            {addStartersButton(true)}
            {addRecipeLink(false)}
          </div>
        </EmptyState>
      ) : (
        <ul className="grid gap-4 4xl:gap-6 md:grid-cols-2 2xl:grid-cols-3 4xl:grid-cols-4" aria-label={t("page.heading")}>
          {recipes.map((recipe) => (
            <li key={recipe.recipe_id} className="flex">
              <RecipeCard
                recipe={recipe}
                deleting={deleting === recipe.recipe_id}
                onEdit={() => navigate(recipePath(recipe.recipe_id))}
                onDelete={() => void remove(recipe)}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
