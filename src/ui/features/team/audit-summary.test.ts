import { describe, expect, it } from "vitest";
import { changedFields, changeSummary, shortValue } from "./audit-summary.ts";

describe("what an audited change altered", () => {
  it("lists only the top-level fields whose value changed, old and new", () => {
    const before = { farm_id: 3, client_id: 7, role: "grower", username: "ana", limits: { min: 1 } };
    const after = { farm_id: 3, client_id: 7, role: "viewer", username: "ana", limits: { min: 2 } };
    expect(changedFields(before, after)).toEqual([
      { field: "role", from: "grower", to: "viewer" },
      { field: "limits", from: '{"min":1}', to: '{"min":2}' },
    ]);
  });

  it("lists every field of a record created or deleted, one side empty", () => {
    expect(changedFields(null, { role: "grower", note: "" })).toEqual([
      { field: "role", from: null, to: "grower" },
      { field: "note", from: null, to: "" },
    ]);
    expect(changedFields({ role: "grower" }, null)).toEqual([{ field: "role", from: "grower", to: null }]);
    expect(changedFields(null, null)).toEqual([]);
  });

  it("cuts long values and long lists short", () => {
    expect(shortValue("x".repeat(60))).toBe(`${"x".repeat(39)}…`);
    expect(shortValue(null)).toBe("null");
    const many = changedFields(null, { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 });
    expect(changeSummary(many)).toBe("a: — → 1; b: — → 2; c: — → 3; d: — → 4; and 2 more");
    expect(changeSummary([])).toBe("No field changed");
  });
});
