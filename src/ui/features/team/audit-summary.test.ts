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
    const before = { a: 0, b: 0, c: 0, d: 0, e: 0, f: 0 };
    expect(changeSummary(before, { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 })).toEqual({ lines: ["a: 0 → 1", "b: 0 → 2", "c: 0 → 3", "d: 0 → 4"], more: 2, unchanged: false });
  });

  it("cuts two long values that start alike around where they differ, so the change shows", () => {
    const shift = (client_id: number) => ({ end: "18:00", days: [1, 2, 3, 4, 5], start: "08:00", client_id });
    const [change] = changedFields({ shifts: [shift(2), shift(1)] }, { shifts: [shift(1)] });
    expect(change!.from).not.toBe(change!.to);
    expect(change).toEqual({ field: "shifts", from: '…"client_id":2},{"end":"18:00","days":[…', to: '…"client_id":1}]' });
    for (const side of [change!.from!, change!.to!]) expect(side.length).toBeLessThanOrEqual(40);
    // Short values, or long ones that differ early, are cut as before.
    expect(changedFields({ note: "x".repeat(60) }, { note: `y${"x".repeat(59)}` })).toEqual([{ field: "note", from: `${"x".repeat(39)}…`, to: `y${"x".repeat(38)}…` }]);
  });

  it("says a change without the fields every change touches", () => {
    expect(changeSummary({ role: "grower", updated_at: "1" }, { role: "viewer", updated_at: "2" })).toEqual({ lines: ["role: grower → viewer"], more: 0, unchanged: false });
    expect(changeSummary({ role: "grower", updated_at: "1" }, { role: "grower", updated_at: "2" })).toEqual({ lines: [], more: 0, unchanged: true });
  });

  it("says a record created or deleted by its content, without its ids, times and empty fields", () => {
    const invitation = { invitation_id: 9, farm_id: 2, role: "grower", note: "Night shift", created_by: 1, created_at: "2026-03-10T08:00:00Z", expires_at: "2026-03-17T08:00:00Z", revoked_at: null, accepted_by: null };
    expect(changeSummary(null, invitation).lines).toEqual(["role: grower", "note: Night shift"]);
    expect(changeSummary({ farm_id: 2, client_id: 7, role: "viewer", username: "ana", added_by: 1, joined_at: "2026-03-10T08:00:00Z" }, null).lines).toEqual(["role: viewer", "username: ana"]);
    expect(changeSummary(null, { farm_id: 2 })).toEqual({ lines: [], more: 0, unchanged: false });
  });
});
