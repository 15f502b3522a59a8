import { cruise, type ICruiseResult } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import { describe, expect, it } from "vitest";

/**
 * The import rules of .dependency-cruiser.mjs over src/ and server/. Through the API rather than
 * the `depcruise` command: the command refuses Node 20, which this project still runs on.
 */
describe("the import rules", () => {
  it("hold: every import of src/ and server/ is one the rules allow", async () => {
    const options = await extractDepcruiseOptions("./.dependency-cruiser.mjs");
    const { output } = await cruise(["src", "server"], { ...options, validate: true });
    const result = output as ICruiseResult;
    // Some files were read at all: a rule set checking nothing would pass too.
    expect(result.summary.totalCruised).toBeGreaterThan(100);
    const violations = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(violations).toEqual([]);
  }, 60_000);
});
