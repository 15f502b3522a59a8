import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startTexts } from "../../../test-support/i18n.ts";
import { i18n } from "../../i18n/i18n.ts";
import { auditCsvUrl, auditQueryOf, filtersProblem, NO_FILTERS } from "./audit-filters.ts";

beforeAll(() => startTexts());

describe("the audit trail's filters", () => {
  beforeEach(() => {
    vi.stubEnv("TZ", "Asia/Beirut");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("asks only for the filters that are set, the days from this browser's midnight to the end of the last one", () => {
    expect(auditQueryOf(NO_FILTERS)).toEqual({});
    // Beirut is UTC+2 in March (before its summer time).
    expect(auditQueryOf({ kind: "member", actor: " ana ", from: "2026-03-10", to: "2026-03-11" })).toEqual({
      kind: "member",
      actor: "ana",
      from: "2026-03-09T22:00:00.000Z",
      to: "2026-03-11T22:00:00.000Z",
    });
  });

  it("refuses a range that ends before it starts, and allows one day", () => {
    const t = i18n.getFixedT("en", "team");
    expect(filtersProblem(t, { ...NO_FILTERS, from: "2026-03-11", to: "2026-03-10" })).toBe("From must be on or before To");
    expect(filtersProblem(t, { ...NO_FILTERS, from: "2026-03-10", to: "2026-03-10" })).toBeNull();
  });

  it("links the CSV with the same filters", () => {
    expect(auditCsvUrl(4, NO_FILTERS)).toBe("/api/farms/4/audit.csv");
    expect(auditCsvUrl(4, { ...NO_FILTERS, kind: "rota", actor: "demo" })).toBe("/api/farms/4/audit.csv?kind=rota&actor=demo");
  });
});
