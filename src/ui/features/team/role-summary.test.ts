import { beforeAll, describe, expect, it } from "vitest";
import { startTexts } from "../../../test-support/i18n.ts";
import { i18n } from "../../i18n/i18n.ts";
import { roleSummary } from "./role-summary.ts";

beforeAll(() => startTexts());

describe("what each role may do, in a line", () => {
  it("says each role by what it adds to the role below it, in the contract's words", () => {
    const t = i18n.getFixedT("en", "team");
    expect(roleSummary(t, "viewer")).toBe("Can only see this farm");
    expect(roleSummary(t, "grower")).toBe("See this farm; switch controllers; acknowledge alarms; confirm phases; record harvests");
    expect(roleSummary(t, "manager")).toBe(
      "Everything a Grower can, and: add, change or remove MCUs, controllers and sensors; change setting profiles; change recipes; start, change or end batches; read the audit trail; change the on-call rota",
    );
    expect(roleSummary(t, "owner")).toBe("Everything a Manager can, and: rename or delete the farm; invite, change or remove members");
  });

  it("says it in French and Arabic with each language's separator", async () => {
    await i18n.loadLanguages(["fr", "ar"]);
    const fr = i18n.getFixedT("fr", "team");
    expect(roleSummary(fr, "grower")).toMatch(/^Voir cette ferme\u00a0; /);
    const ar = i18n.getFixedT("ar", "team");
    expect(roleSummary(ar, "owner")).toContain("؛ ");
  });
});
