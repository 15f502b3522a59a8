import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { API_PATHS } from "../../../src/contract/api-paths.ts";
import { recipeRequest, type MessageResponse } from "../../../src/contract/api.ts";
import type { Recipe } from "../../../src/contract/grow.ts";
import { notFound, refusal } from "../../errors.ts";
import { STARTER_RECIPES } from "../../grow/starter-recipes.ts";
import { bodyId, needs, OWN } from "../farm-access.ts";
import { audited } from "../audit-trail.ts";
import { visibleList } from "../visible.ts";
import { idParam, parse } from "../validate.ts";

const recipeOf = (req: FastifyRequest) => ({ recipe: idParam((req.params as { recipe_id: string }).recipe_id, "Recipe") });

/** Grow recipes, in the signed-in scope: each save is a new version; running batches keep theirs. */
export const recipeRoutes: FastifyPluginAsync = async (app) => {
  const { recipes } = app.repos;

  app.get(API_PATHS.recipes, OWN, async (req): Promise<Recipe[]> => visibleList(app, req.signedIn.clientId, (tenant) => recipes.list(tenant), () => null));

  // A member adds a recipe to the account of a farm they manage by naming it (client_id); else it is their own.
  app.post(API_PATHS.recipes, audited(needs("manageRecipes", (req) => ({ tenant: bodyId(req, "client_id") ?? req.signedIn.clientId })), { kind: "recipe", action: "created", created: (a) => (a as Recipe).recipe_id }), async (req, reply): Promise<Recipe> => {
    const clientId = req.acting.tenant;
    const body = parse(recipeRequest, req.body);
    const recipe = await app.repos.transaction((tx) => tx.recipes.create(clientId, body, app.now()));
    reply.status(201);
    return recipe;
  });

  /** Adds the starter recipes the client does not have yet (by name); answers the client's whole list. */
  // Several recipes at once: recorded as one entry, whose after is none (the list shows them).
  app.post(API_PATHS.recipeStarters, audited(OWN, { kind: "recipe", action: "starter recipes added", created: () => null }), async (req): Promise<Recipe[]> => {
    const { clientId } = req.signedIn;
    await app.repos.transaction(async (tx) => {
      const have = await tx.recipes.names(clientId);
      for (const starter of STARTER_RECIPES) {
        if (!have.has(starter.name)) await tx.recipes.create(clientId, parse(recipeRequest, starter), app.now());
      }
    });
    return recipes.list(clientId);
  });

  app.put<{ Params: { recipe_id: string } }>(API_PATHS.recipe.pattern, audited(needs("manageRecipes", recipeOf), { kind: "recipe", action: "changed", key: (req) => recipeOf(req).recipe }), async (req): Promise<Recipe> => {
    const clientId = req.acting.tenant;
    const recipeId = idParam(req.params.recipe_id, "Recipe");
    const body = parse(recipeRequest, req.body);
    const recipe = await app.repos.transaction((tx) => tx.recipes.update(clientId, recipeId, body, app.now()));
    if (!recipe) throw notFound("Recipe");
    return recipe;
  });

  app.delete<{ Params: { recipe_id: string } }>(API_PATHS.recipe.pattern, audited(needs("manageRecipes", recipeOf), { kind: "recipe", action: "deleted", key: (req) => recipeOf(req).recipe }), async (req): Promise<MessageResponse> => {
    const clientId = req.acting.tenant;
    const recipeId = idParam(req.params.recipe_id, "Recipe");
    const hasBatches = refusal("CONFLICT", "recipe_has_batches", "This recipe has batches: end and delete them first");
    await app.repos
      .transaction(async (tx) => {
        if (!(await tx.recipes.get(clientId, recipeId))) throw notFound("Recipe");
        // The batches' history reads the phases of the version they ran.
        if (await tx.recipes.hasBatches(clientId, recipeId)) throw hasBatches;
        await tx.recipes.delete(clientId, recipeId);
      })
      .catch((err: unknown) => {
        // A batch started from it meanwhile: its version is still referenced.
        throw (err as { code?: string } | null)?.code === "23503" ? hasBatches : err;
      });
    return { message: "Recipe deleted successfully" };
  });
};
