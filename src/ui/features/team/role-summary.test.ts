import { describe, expect, it } from "vitest";
import { roleSummary } from "./role-summary.ts";

describe("what each role may do, in a line", () => {
  it("says each role by what it adds to the role below it, in the contract's words", () => {
    expect(roleSummary("viewer")).toBe("Can only see this farm");
    expect(roleSummary("grower")).toBe("See this farm; switch controllers; acknowledge alarms; confirm phases; record harvests");
    expect(roleSummary("manager")).toBe(
      "Everything a Grower can, and: add, change or remove MCUs, controllers and sensors; change setting profiles; change recipes; start, change or end batches; read the audit trail; change the on-call rota",
    );
    expect(roleSummary("owner")).toBe("Everything a Manager can, and: rename or delete the farm; invite, change or remove members");
  });
});
