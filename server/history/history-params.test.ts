import { describe, expect, it } from "vitest";
import { MAX_POINTS, RESOLUTIONS, resolutionFor } from "../../src/contract/history.ts";
import { AppError } from "../errors.ts";
import { bucketCount, encodeCursor, HISTORY_INSTANTS, parseCursor, parseInstant, parseMetrics, parseOptionalRange, parseRange, planSeries, queryOf } from "./history-params.ts";

const T = (s: string) => Date.parse(s);
const H = 3_600_000;
const D = 24 * H;

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("VALIDATION");
    return (err as AppError).message;
  }
  throw new Error("expected a validation error");
}

describe("parseInstant", () => {
  it.each([
    ["2026-11-25T06:00:00Z", "2026-11-25T06:00:00.000Z"],
    ["2026-11-25T06:00Z", "2026-11-25T06:00:00.000Z"],
    ["2026-11-25T06:00:00.5Z", "2026-11-25T06:00:00.500Z"],
    ["2026-11-25T06:00:00.123456789Z", "2026-11-25T06:00:00.123Z"],
    ["2026-11-25T08:00:00+02:00", "2026-11-25T06:00:00.000Z"],
    ["2026-11-25T08:00:00+0200", "2026-11-25T06:00:00.000Z"],
    ["2026-11-25T01:30:00-04:30", "2026-11-25T06:00:00.000Z"],
    // An unencoded + in a URL arrives as a space.
    ["2026-11-25T08:00:00 02:00", "2026-11-25T06:00:00.000Z"],
    ["2026-11-25 06:00:00Z", "2026-11-25T06:00:00.000Z"],
    ["2028-02-29T00:00:00Z", "2028-02-29T00:00:00.000Z"],
    // Years as written: Date.UTC would read 0050 as 1950.
    ["0050-01-01T00:00:00Z", "0050-01-01T00:00:00.000Z"],
    ["0099-12-31T23:59:59Z", "0099-12-31T23:59:59.000Z"],
    ["0004-02-29T12:00:00+02:00", "0004-02-29T10:00:00.000Z"],
    // Year 0 has a 29 February (1900 has none).
    ["0000-02-29T00:00:00Z", "0000-02-29T00:00:00.000Z"],
  ])("reads %s as %s", (input, expected) => {
    expect(new Date(parseInstant("from", input)).toISOString()).toBe(expected);
  });

  it.each([
    "2026-11-25T06:00:00", // no zone
    "2026-11-25",
    "yesterday",
    "",
    "1764050400000",
    "2026-02-30T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-11-25T24:00:00Z",
    "2026-11-25T06:60:00Z",
    "2026-11-25T06:00:60Z",
    "2026-11-25T06:00:00+25:00",
    "2026-11-25T06:00:00Z ",
    "2026-11-25T06:00:00.Z",
  ])("refuses %j", (input) => {
    expect(messageOf(() => parseInstant("from", input))).toBe("from must be an ISO 8601 date and time with a time zone, like 2026-11-25T06:00:00Z");
  });

  it("asks for a missing instant by name", () => {
    expect(messageOf(() => parseInstant("to", undefined))).toBe("to is required: an ISO 8601 date and time with a time zone, like 2026-11-25T06:00:00Z");
  });
});

describe("parseRange", () => {
  it("takes a range of exactly 800 days and refuses one a second longer", () => {
    const from = "2024-01-01T00:00:00Z";
    const to = new Date(T(from) + 800 * D).toISOString();
    expect(parseRange({ from, to })).toEqual({ fromMs: T(from), toMs: T(to) });
    const longer = new Date(T(to) + 1000).toISOString();
    expect(messageOf(() => parseRange({ from, to: longer }))).toBe("The range is too long: at most 800 days");
  });

  it("refuses an empty or reversed range", () => {
    expect(messageOf(() => parseRange({ from: "2026-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z" }))).toBe("from must be before to");
    expect(messageOf(() => parseRange({ from: "2026-01-02T00:00:00Z", to: "2026-01-01T00:00:00Z" }))).toBe("from must be before to");
  });
});

describe("the instants a range may take", () => {
  const BOUNDS = "between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z";

  it("go from 1970-01-01 to the last millisecond of 9999", () => {
    expect([new Date(HISTORY_INSTANTS.firstMs).toISOString(), new Date(HISTORY_INSTANTS.lastMs).toISOString()]).toEqual(["1970-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z"]);
    expect(parseRange({ from: "1970-01-01T00:00:00Z", to: "1970-01-02T00:00:00+01:00" })).toEqual({ fromMs: 0, toMs: 23 * H });
    expect(parseRange({ from: "9999-12-31T00:00:00Z", to: "9999-12-31T23:59:59.999Z" }).toMs).toBe(HISTORY_INSTANTS.lastMs);
    expect(parseOptionalRange({ to: "9999-12-31T23:59:59.999Z" })).toEqual({ fromMs: undefined, toMs: HISTORY_INSTANTS.lastMs });
  });

  it.each([
    [{ from: "9999-12-31T00:00:00Z", to: "9999-12-31T23:00:00-01:00" }, `to must be ${BOUNDS}`],
    [{ from: "1970-01-01T00:30:00+01:00", to: "1970-01-02T00:00:00Z" }, `from must be ${BOUNDS}`],
    [{ from: "1969-12-31T23:59:59.999Z", to: "1970-01-02T00:00:00Z" }, `from must be ${BOUNDS}`],
    // 0075 read as 1975 would be taken.
    [{ from: "0075-01-01T00:00:00Z", to: "0075-01-02T00:00:00Z" }, `from must be ${BOUNDS}`],
    [{ from: "0050-01-01T00:00:00Z", to: "0050-01-02T00:00:00Z" }, `from must be ${BOUNDS}`],
  ])("refuses %j", (q, message) => {
    expect(messageOf(() => parseRange(q))).toBe(message);
    expect(messageOf(() => parseOptionalRange(q))).toBe(message);
  });

  it("refuses a last bucket that ends after 9999-12-31, naming the latest to", () => {
    const opts = { now: T("2026-06-01T10:30:00Z"), minuteRetentionDays: 30, capped: false };
    const fromMs = T("9999-12-30T00:00:00Z");
    expect(new Date(planSeries({ fromMs, toMs: T("9999-12-31T23:59:00Z") }, opts).toMs).toISOString()).toBe("9999-12-31T23:59:00.000Z");
    expect(messageOf(() => planSeries({ fromMs, toMs: T("9999-12-31T23:59:00.001Z") }, opts))).toBe(
      "With resolution 60 the last bucket would end after 9999-12-31T23:59:59.999Z: to may be 9999-12-31T23:59:00Z at the latest",
    );
    expect(messageOf(() => planSeries({ fromMs, toMs: HISTORY_INSTANTS.lastMs }, { ...opts, given: 86_400 }))).toBe(
      "With resolution 86400 the last bucket would end after 9999-12-31T23:59:59.999Z: to may be 9999-12-31T00:00:00Z at the latest",
    );
    expect(new Date(planSeries({ fromMs, toMs: T("9999-12-31T00:00:00Z") }, { ...opts, given: 86_400 }).toMs).toISOString()).toBe("9999-12-31T00:00:00.000Z");
  });
});

describe("queryOf and parseMetrics", () => {
  it("refuses unknown and repeated parameters", () => {
    expect(messageOf(() => queryOf({ from: "a", sort: "x" }, ["from"]))).toBe("Unknown query parameter: sort");
    expect(messageOf(() => queryOf({ from: ["a", "b"] }, ["from"]))).toBe("from must be given once");
  });

  it("answers metrics in the contract's order, without duplicates", () => {
    expect(parseMetrics("co2,temperature,co2")).toEqual(["temperature", "co2"]);
    expect(parseMetrics(undefined)).toHaveLength(6);
    expect(messageOf(() => parseMetrics("co2,foo"))).toBe("Unknown metric: foo");
    expect(messageOf(() => parseMetrics(","))).toMatch(/^metrics must name at least one metric/);
  });
});

describe("planSeries", () => {
  const now = T("2026-06-01T10:30:00Z");
  const opts = { now, minuteRetentionDays: 30, capped: true };

  it.each([
    ["1 hour", H],
    ["24 hours", D],
    ["7 days", 7 * D],
    ["30 days", 30 * D],
    ["1 year", 365 * D],
    ["800 days", 800 * D],
  ])("chooses the contract's resolution for an aligned %s", (_what, span) => {
    const toMs = T("2026-06-01T00:00:00Z");
    const plan = planSeries({ fromMs: toMs - span, toMs }, opts);
    const expected = toMs - span < now - 30 * D ? Math.max(resolutionFor(span), 3600) : resolutionFor(span);
    expect(plan.resolution).toBe(expected);
    expect(bucketCount(plan.fromMs, plan.toMs, plan.resolution)).toBeLessThanOrEqual(MAX_POINTS);
  });

  it("keeps at most MAX_POINTS buckets when the range is not aligned to them", () => {
    // 2000 buckets of 60 s exactly, shifted by 30 s: 2001 buckets at 60 s, so 120 s.
    const fromMs = T("2026-05-31T00:00:30Z");
    const plan = planSeries({ fromMs, toMs: fromMs + 2000 * 60_000 }, opts);
    expect(plan.resolution).toBe(120);
    expect(bucketCount(plan.fromMs, plan.toMs, 120)).toBeLessThanOrEqual(MAX_POINTS);
  });

  it("widens the range to whole buckets", () => {
    const plan = planSeries({ fromMs: T("2026-05-31T06:07:00Z"), toMs: T("2026-05-31T09:01:00Z") }, { ...opts, given: 3600 });
    expect([new Date(plan.fromMs).toISOString(), new Date(plan.toMs).toISOString()]).toEqual(["2026-05-31T06:00:00.000Z", "2026-05-31T10:00:00.000Z"]);
  });

  it("reads hourly rollups up to the hour before the current one, and minute rollups after", () => {
    expect(planSeries({ fromMs: now - D, toMs: now }, { ...opts, given: 3600 }).hoursBeforeMs).toBe(T("2026-06-01T09:00:00Z"));
    expect(planSeries({ fromMs: now - D, toMs: now }, { ...opts, given: 1800 }).hoursBeforeMs).toBeUndefined();
  });

  it("reads a range older than minute retention at an hour or more, even when a finer resolution was asked", () => {
    const fromMs = now - 31 * D;
    expect(planSeries({ fromMs, toMs: fromMs + D }, opts).resolution).toBe(3600);
    expect(planSeries({ fromMs, toMs: fromMs + D }, { ...opts, given: 60 }).resolution).toBe(3600);
    expect(planSeries({ fromMs, toMs: fromMs + D }, { ...opts, given: 7200 }).resolution).toBe(7200);
    expect(planSeries({ fromMs: now - 29 * D, toMs: now }, { ...opts, given: 60, capped: false }).resolution).toBe(60);
  });

  it("caps a given resolution at MAX_POINTS_GIVEN points, CSV not at all", () => {
    const fromMs = now - 20 * D;
    expect(messageOf(() => planSeries({ fromMs, toMs: now }, { ...opts, given: 60 }))).toBe("With resolution 60 that range has 28,800 points; at most 20,000");
    expect(planSeries({ fromMs, toMs: now }, { ...opts, given: 60, capped: false }).resolution).toBe(60);
    // CSV without a resolution: minutes within retention, hours beyond it.
    expect(planSeries({ fromMs, toMs: now }, { ...opts, capped: false }).resolution).toBe(60);
    expect(planSeries({ fromMs: now - 365 * D, toMs: now }, { ...opts, capped: false }).resolution).toBe(3600);
  });

  it("every resolution of the contract divides an hour or is whole hours (buckets never split a rollup)", () => {
    for (const r of RESOLUTIONS) expect(r < 3600 ? 3600 % r : r % 3600).toBe(0);
  });
});

describe("command cursors", () => {
  it("round-trips and refuses anything else", () => {
    const c = { atMicros: "1780000000123456", commandId: "cmd-1" };
    expect(parseCursor(encodeCursor(c))).toEqual(c);
    for (const bad of ["", "abc", "!!!", Buffer.from('["x","y"]').toString("base64url"), Buffer.from("[1,2]").toString("base64url"), Buffer.from('["1"]').toString("base64url")]) {
      expect(messageOf(() => parseCursor(bad))).toBe("before must be the next_before of a previous page");
    }
  });
});
