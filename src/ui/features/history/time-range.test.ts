import { beforeAll, describe, expect, it } from "vitest";
import { MAX_SPAN_MS } from "../../../contract/history-values.ts";
import { startTexts } from "../../../test-support/i18n.ts";
import { i18n } from "../../i18n/i18n.ts";
import { checkCustomRange, DEFAULT_RANGE, describeRange, fromLocalInput, rangeErrorText, rangeFromParams, rangeTitle, rangeToParams, resolveRange, toLocalInput } from "./time-range.ts";

beforeAll(() => startTexts());
const en = () => i18n.getFixedT("en", "history");

const NOW = new Date(2026, 2, 10, 12, 30).getTime();
const HOUR = 3_600_000;

describe("the range picker's ranges", () => {
  it("makes a preset end now and slide with the live stream", () => {
    expect(resolveRange({ kind: "preset", preset: "24h" }, NOW)).toEqual({ from: NOW - 24 * HOUR, to: NOW, live: true, sliding: true });
    expect(resolveRange({ kind: "preset", preset: "1h" }, NOW).from).toBe(NOW - HOUR);
    expect(resolveRange({ kind: "preset", preset: "30d" }, NOW).from).toBe(NOW - 30 * 24 * HOUR);
  });

  it("follows the live stream in a custom range only while its end is ahead", () => {
    expect(resolveRange({ kind: "custom", from: NOW - 5 * HOUR, to: NOW - HOUR }, NOW)).toEqual({ from: NOW - 5 * HOUR, to: NOW - HOUR, live: false, sliding: false });
    expect(resolveRange({ kind: "custom", from: NOW - HOUR, to: NOW + HOUR }, NOW).live).toBe(true);
  });

  it("keeps the range in the address and reads it back, the default for anything else", () => {
    const custom = { kind: "custom", from: NOW - 2 * HOUR, to: NOW } as const;
    expect(rangeFromParams(new URLSearchParams(rangeToParams(custom)))).toEqual(custom);
    expect(rangeFromParams(new URLSearchParams(rangeToParams({ kind: "preset", preset: "7d" })))).toEqual({ kind: "preset", preset: "7d" });
    expect(rangeFromParams(new URLSearchParams("range=2y"))).toEqual(DEFAULT_RANGE);
    expect(rangeFromParams(new URLSearchParams(`from=${new Date(NOW).toISOString()}&to=${new Date(NOW - HOUR).toISOString()}`))).toEqual(DEFAULT_RANGE);
    expect(rangeFromParams(new URLSearchParams("from=yesterday&to=today"))).toEqual(DEFAULT_RANGE);
  });

  it("reads and writes datetime-local values in local time, and refuses dates that do not exist", () => {
    expect(toLocalInput(NOW)).toBe("2026-03-10T12:30");
    expect(fromLocalInput("2026-03-10T12:30")).toBe(NOW);
    expect(fromLocalInput("2026-02-31T10:00")).toBeNull();
    expect(fromLocalInput("10/03/2026 12:30")).toBeNull();
  });
});

describe("checking a custom range", () => {
  it("accepts a start before the end, the end possibly ahead", () => {
    expect(checkCustomRange("2026-03-09T12:30", "2026-03-10T12:30", NOW)).toEqual({ ok: true, from: NOW - 24 * HOUR, to: NOW });
    expect(checkCustomRange("2026-03-10T08:00", "2026-03-10T23:00", NOW).ok).toBe(true);
  });

  it("says which field to correct and why", () => {
    expect(checkCustomRange("", "", NOW)).toEqual({ ok: false, errors: { from: "startMissing", to: "endMissing" } });
    expect(checkCustomRange("2026-03-10T12:00", "2026-03-10T11:00", NOW)).toEqual({ ok: false, errors: { to: "endBeforeStart" } });
    expect(checkCustomRange("2026-03-10T12:00", "2026-03-10T12:00", NOW)).toEqual({ ok: false, errors: { to: "endBeforeStart" } });
    expect(checkCustomRange("2026-03-11T12:00", "2026-03-12T12:00", NOW)).toEqual({ ok: false, errors: { from: "startNotPast" } });
    expect(checkCustomRange("2026-02-30T12:00", "2026-03-10T12:00", NOW)).toEqual({ ok: false, errors: { from: "invalid" } });
    const long = checkCustomRange(toLocalInput(NOW - MAX_SPAN_MS - 2 * 86_400_000), toLocalInput(NOW), NOW);
    expect(long).toEqual({ ok: false, errors: { to: "tooLong" } });
  });

  it("words each reason", () => {
    expect(rangeErrorText(en(), "startMissing")).toBe("Enter the start of the range");
    expect(rangeErrorText(en(), "endMissing")).toBe("Enter the end of the range");
    expect(rangeErrorText(en(), "invalid")).toBe("Enter a valid date and time");
    expect(rangeErrorText(en(), "startNotPast")).toBe("The start must be in the past");
    expect(rangeErrorText(en(), "endBeforeStart")).toBe("The end must be after the start");
    expect(rangeErrorText(en(), "tooLong")).toBe("A range can cover at most 800 days");
  });
});

describe("a range in words", () => {
  it("reads within a sentence and as a heading's line", () => {
    const format = (ms: number) => new Date(ms).toISOString().slice(0, 16);
    expect(describeRange(en(), { kind: "preset", preset: "24h" }, format)).toBe("the last 24 hours");
    expect(rangeTitle(en(), { kind: "preset", preset: "7d" }, format)).toBe("Last 7 days");
    const custom = { kind: "custom", from: Date.UTC(2026, 2, 1, 10), to: Date.UTC(2026, 2, 2, 10) } as const;
    expect(describeRange(en(), custom, format)).toBe("2026-03-01T10:00 – 2026-03-02T10:00");
    expect(rangeTitle(en(), custom, format)).toBe(describeRange(en(), custom, format));
  });
});
