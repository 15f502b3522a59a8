import type { Recipe, RecipePhase } from "../../src/contract/grow.ts";
import type { Sql } from "./database.ts";
import { iso } from "./rows.ts";

interface RecipeRow {
  recipe_id: number;
  client_id: number;
  name: string;
  species: string;
  version: number;
  phases: RecipePhase[];
  running_batches: number;
  created_at: Date;
  updated_at: Date;
}

/** A recipe with its newest version's phases and how many batches run on any of its versions. */
const SELECT = `
  select r.recipe_id, r.client_id, r.name, r.species, r.version, v.phases, r.created_at, r.updated_at,
    (select count(*)::int from batches b where b.recipe_id = r.recipe_id and b.status = 'running') as running_batches
  from recipes r join recipe_versions v on v.recipe_id = r.recipe_id and v.version = r.version`;

function toRecipe(row: RecipeRow): Recipe {
  return {
    recipe_id: row.recipe_id,
    client_id: row.client_id,
    name: row.name,
    species: row.species,
    version: row.version,
    phases: row.phases,
    running_batches: row.running_batches,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export interface RecipeInput {
  name: string;
  species: string;
  phases: RecipePhase[];
}

/**
 * Grow recipes of one client. Every save is a new version (a row of recipe_versions): a batch
 * keeps the phases of the version it started with, whatever the recipe becomes.
 */
export function recipesRepo(sql: Sql) {
  async function get(clientId: number, recipeId: number): Promise<Recipe | undefined> {
    const [row] = await sql.query<RecipeRow>(`${SELECT} where r.client_id = $1 and r.recipe_id = $2`, [clientId, recipeId]);
    return row && toRecipe(row);
  }

  return {
    get,

    async list(clientId: number): Promise<Recipe[]> {
      return (await sql.query<RecipeRow>(`${SELECT} where r.client_id = $1 order by r.recipe_id`, [clientId])).map(toRecipe);
    },

    /** Call inside a transaction: the recipe and its first version. */
    async create(clientId: number, input: RecipeInput, now: Date): Promise<Recipe> {
      const [row] = await sql.query<{ recipe_id: number }>(
        "insert into recipes (client_id, name, species, version, created_at, updated_at) values ($1, $2, $3, 1, $4, $4) returning recipe_id",
        [clientId, input.name, input.species, now],
      );
      await sql.query("insert into recipe_versions (recipe_id, version, phases, created_at) values ($1, 1, $2, $3)", [row!.recipe_id, JSON.stringify(input.phases), now]);
      return (await get(clientId, row!.recipe_id))!;
    },

    /** Call inside a transaction: the recipe's next version. Undefined when the client has no such recipe. */
    async update(clientId: number, recipeId: number, input: RecipeInput, now: Date): Promise<Recipe | undefined> {
      const [row] = await sql.query<{ version: number }>(
        "update recipes set name = $3, species = $4, version = version + 1, updated_at = $5 where client_id = $1 and recipe_id = $2 returning version",
        [clientId, recipeId, input.name, input.species, now],
      );
      if (!row) return undefined;
      await sql.query("insert into recipe_versions (recipe_id, version, phases, created_at) values ($1, $2, $3, $4)", [recipeId, row.version, JSON.stringify(input.phases), now]);
      return get(clientId, recipeId);
    },

    /** Whether any batch (running or ended) was made from the recipe. */
    async hasBatches(clientId: number, recipeId: number): Promise<boolean> {
      return (await sql.query("select 1 from batches where client_id = $1 and recipe_id = $2 limit 1", [clientId, recipeId])).length > 0;
    },

    async delete(clientId: number, recipeId: number): Promise<boolean> {
      return (await sql.query("delete from recipes where client_id = $1 and recipe_id = $2 returning 1", [clientId, recipeId])).length > 0;
    },

    /** The client's recipe names (the starter recipes it already has are not added again). */
    async names(clientId: number): Promise<Set<string>> {
      return new Set((await sql.query<{ name: string }>("select name from recipes where client_id = $1", [clientId])).map((r) => r.name));
    },
  };
}
