import { type } from "arktype";
import { describe, expect, it } from "vitest";
import { recipeRequest } from "../../src/contract/api.ts";
import { batchProgress, type RecipePhase } from "../../src/contract/grow.ts";
import { STARTER_RECIPES } from "./starter-recipes.ts";

describe("starter recipes", () => {
  it.each(STARTER_RECIPES.map((r) => [r.name, r] as const))("%s passes the recipe request's checks", (_name, recipe) => {
    const out = recipeRequest.schema(recipe);
    if (out instanceof type.errors) throw new Error(out.summary);
    expect(out.phases.length).toBeGreaterThan(1);
  });

  it("are four crops, each named once", () => {
    expect(STARTER_RECIPES.map((r) => r.species)).toEqual(["Oyster", "Shiitake", "Button", "Lion's mane"]);
    expect(new Set(STARTER_RECIPES.map((r) => r.name)).size).toBe(4);
  });

  it("cool the button room from 21 to 18 °C across its airing", () => {
    const button = recipeRequest.schema(STARTER_RECIPES[2]) as { phases: RecipePhase[] };
    const airing = button.phases.findIndex((p) => p.name === "Airing and pinning");
    const start = Date.parse("2026-01-01T00:00:00Z");
    const at = (day: number) =>
      batchProgress({ phases: button.phases, phase_index: airing, phase_started_at: new Date(start).toISOString(), extra_days: 0, held_ms: 0, held_since: null, time_zone: "UTC" }, start + day * 86_400_000).config.ac.target_temp;
    expect([at(0), at(4.5), at(9)]).toEqual([21, 19.5, 18]);
  });
});
