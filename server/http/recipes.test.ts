import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS } from "../../src/contract/api-paths.ts";
import type { RecipeRequest } from "../../src/contract/api.ts";
import type { Batch, Recipe } from "../../src/contract/grow.ts";
import { STARTER_RECIPES } from "../grow/starter-recipes.ts";
import { createTestServer, sampleConfig as sampleProfileConfig, seedClientData, type TestClient, type TestServer } from "../test-support/test-server.ts";

const sampleConfig = sampleProfileConfig as RecipeRequest["phases"][number]["config"];

const recipeBody = (name = "Blue oyster", over: Partial<RecipeRequest> = {}): RecipeRequest => ({
  name,
  species: "Oyster",
  phases: [
    { name: "Spawn run", days: 14, confirm: null, config: sampleConfig, ramps: [{ setting: "ac.target_temp", to: 20 }] },
    { name: "Pinning", days: 5, confirm: "Pins visible", config: sampleConfig },
  ],
  ...over,
});

describe("recipes", () => {
  let server: TestServer;
  let c: TestClient;
  let other: TestClient;
  beforeAll(async () => {
    server = await createTestServer();
    c = await server.signUp();
    other = await server.signUp();
  });
  afterAll(() => server.close());

  it("creates, lists, and saves each change as a new version", async () => {
    const created = await c.post(API_PATHS.recipes, recipeBody());
    expect(created.statusCode, created.body).toBe(201);
    const recipe = created.json() as Recipe;
    expect(recipe).toMatchObject({ client_id: c.clientId, name: "Blue oyster", species: "Oyster", version: 1, running_batches: 0 });
    // Defaults filled in: no confirm, no ramps, the AC's basis.
    expect(recipe.phases[1]).toMatchObject({ confirm: "Pins visible", ramps: [] });
    expect(recipe.phases[0]!.config.ac.based_on).toBe("room_temp");

    const edited = await c.put(API_PATHS.recipe(recipe.recipe_id), recipeBody("Blue oyster v2", { phases: [recipeBody().phases[1]!] }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ recipe_id: recipe.recipe_id, name: "Blue oyster v2", version: 2, phases: [{ name: "Pinning" }] });
    const list = (await c.get(API_PATHS.recipes)).json() as Recipe[];
    expect(list.map((r) => [r.recipe_id, r.version])).toContainEqual([recipe.recipe_id, 2]);
  });

  it("keeps a running batch on the version it started with, and counts it on the recipe", async () => {
    const { mcu } = await seedClientData(c);
    const recipe = (await c.post(API_PATHS.recipes, recipeBody("Kept"))).json() as Recipe;
    const started = await c.post(API_PATHS.batches, { name: "Run 1", recipe_id: recipe.recipe_id, mcu_ids: [mcu.mcu_id], time_zone: "UTC" });
    expect(started.statusCode, started.body).toBe(201);
    const edited = (await c.put(API_PATHS.recipe(recipe.recipe_id), recipeBody("Kept", { phases: [{ name: "Only", days: 3, config: sampleConfig }] }))).json() as Recipe;
    expect(edited).toMatchObject({ version: 2, running_batches: 1 });
    const [batch] = ((await c.get(API_PATHS.batches)).json() as Batch[]).filter((b) => b.recipe_id === recipe.recipe_id);
    expect(batch).toMatchObject({ recipe_version: 1, recipe_name: "Kept" });
    expect(batch!.phases.map((p) => p.name)).toEqual(["Spawn run", "Pinning"]);

    // A recipe with batches stays: their history reads its phases.
    const refused = await c.del(API_PATHS.recipe(recipe.recipe_id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: "CONFLICT", message: "This recipe has batches: end and delete them first", reason: "recipe_has_batches" });
    await c.post(API_PATHS.batchActions(batch!.batch_id), { action: "end" });
    expect((await c.get(API_PATHS.recipes)).json().find((r: Recipe) => r.recipe_id === recipe.recipe_id).running_batches).toBe(0);
    expect((await c.del(API_PATHS.recipe(recipe.recipe_id))).statusCode).toBe(409);
    expect((await c.del(API_PATHS.batch(batch!.batch_id))).statusCode).toBe(200);
    expect((await c.del(API_PATHS.recipe(recipe.recipe_id))).json()).toEqual({ message: "Recipe deleted successfully" });
    expect((await c.get(API_PATHS.recipes)).json().some((r: Recipe) => r.recipe_id === recipe.recipe_id)).toBe(false);
  });

  it("adds the starter recipes the client does not have yet, by name, and answers the whole list", async () => {
    const fresh = await server.signUp();
    await fresh.post(API_PATHS.recipes, { ...STARTER_RECIPES[0]!, phases: [recipeBody().phases[0]!] });
    const res = await fresh.post(API_PATHS.recipeStarters, {});
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json() as Recipe[];
    expect(list.map((r) => r.name).sort()).toEqual(STARTER_RECIPES.map((r) => r.name).sort());
    // The one it had is kept as it was.
    expect(list.find((r) => r.name === STARTER_RECIPES[0]!.name)!.phases).toHaveLength(1);
    const again = (await fresh.post(API_PATHS.recipeStarters, {})).json() as Recipe[];
    expect(again.map((r) => r.recipe_id)).toEqual(list.map((r) => r.recipe_id));
    expect(again.find((r) => r.species === "Button")!.phases.find((p) => p.ramps.length > 0)!.ramps).toEqual([
      { setting: "ac.target_temp", to: 18 },
      { setting: "ventilation.co2_threshold", to: 1000 },
    ]);
  });

  it("answers another client's recipe as a missing one", async () => {
    const mine = (await c.post(API_PATHS.recipes, recipeBody("Mine"))).json() as Recipe;
    for (const res of [await other.put(API_PATHS.recipe(mine.recipe_id), recipeBody()), await other.del(API_PATHS.recipe(mine.recipe_id))]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: "NOT_FOUND", message: "Recipe not found", reason: "recipe_not_found" });
    }
    expect(((await other.get(API_PATHS.recipes)).json() as Recipe[]).some((r) => r.recipe_id === mine.recipe_id)).toBe(false);
    expect((await c.put(API_PATHS.recipe(999_999), recipeBody())).statusCode).toBe(404);
  });

  it("refuses requests without a session", async () => {
    for (const [method, url] of [
      ["GET", API_PATHS.recipes],
      ["POST", API_PATHS.recipes],
      ["POST", API_PATHS.recipeStarters],
      ["PUT", API_PATHS.recipe(1)],
      ["DELETE", API_PATHS.recipe(1)],
    ] as const) {
      const res = await server.app.inject({ method, url, headers: { "content-type": "application/json" }, payload: method === "GET" || method === "DELETE" ? undefined : "{}" });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("refuses bad input on every field with a clear message", async () => {
    const phase = recipeBody().phases[0]!;
    const cases: [unknown, string][] = [
      [{ ...recipeBody(), name: "" }, "Name is required"],
      [{ ...recipeBody(), name: "x".repeat(101) }, "Name must be at most 100 characters"],
      [{ species: "Oyster", phases: recipeBody().phases }, "Name is required"],
      [{ ...recipeBody(), species: 5 }, "species must be a string (was a number)"],
      [{ ...recipeBody(), phases: [] }, "A recipe needs at least one phase"],
      [{ ...recipeBody(), phases: Array(21).fill(phase) }, "A recipe has at most 20 phases"],
      [{ ...recipeBody(), phases: [{ ...phase, name: " " }] }, "Phase name is required"],
      [{ ...recipeBody(), phases: [{ ...phase, days: 0 }] }, "Days must be between 1 and 365"],
      [{ ...recipeBody(), phases: [{ ...phase, days: 2.5 }] }, "Days must be a whole number"],
      [{ ...recipeBody(), phases: [{ ...phase, confirm: "x".repeat(61) }] }, "What the grower confirms must be at most 60 characters"],
      [{ ...recipeBody(), phases: [{ ...phase, config: { ...sampleConfig, ac: { target_temp: 99 } } }] }, "AC target temperature (°C) must be between -20 and 60"],
      [{ ...recipeBody(), phases: [{ ...phase, ramps: [{ setting: "ac.based_on", to: 1 }] }] }, ""],
      [{ ...recipeBody(), phases: [{ ...phase, ramps: [{ setting: "ac.target_temp", to: 99 }] }] }, "AC target temperature (°C) at the end of the ramp must be between -20 and 60"],
      [{ ...recipeBody(), phases: [{ ...phase, ramps: [{ setting: "ac.target_temp", to: 19 }, { setting: "ac.target_temp", to: 20 }] }] }, "AC target temperature (°C) ramps twice in one phase"],
      [{ ...recipeBody(), phases: [{ ...phase, ramps: [{ setting: "humidifier.humidity_on_below", to: 95 }] }] }, "At the end of the phase, Humidifier on below (95 %) must be below Humidifier off above (92 %)"],
      [{ ...recipeBody(), extra: 1 }, "Unknown field: extra"],
      [[], "The request body must be a JSON object"],
    ];
    for (const [body, message] of cases) {
      const res = await c.post(API_PATHS.recipes, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 200)).toBe(400);
      if (message) expect(res.json().message).toBe(message);
      else expect(res.json().message).toMatch(/\S/);
    }
    // Each refusal names its field by its path in the body: the app shows it there, in any language.
    const hot = await c.post(API_PATHS.recipes, { ...recipeBody(), phases: [{ ...phase, config: { ...sampleConfig, ac: { based_on: "room_temp", target_temp: 99 } } }] });
    expect(hot.json()).toMatchObject({ reason: "out_of_range", errors: [{ path: "phases.0.config.ac.target_temp", reason: "out_of_range", params: { min: -20, max: 60 } }] });
    const far = await c.post(API_PATHS.recipes, { ...recipeBody(), phases: [{ ...phase, ramps: [{ setting: "ac.target_temp", to: 99 }] }] });
    expect(far.json().errors[0].path).toBe("phases.0.ramps.0");
    expect((await c.put("/api/recipes/abc", recipeBody())).json().message).toBe("Recipe id must be a positive whole number");
    expect((await c.del("/api/recipes/0")).statusCode).toBe(400);
  });
});
