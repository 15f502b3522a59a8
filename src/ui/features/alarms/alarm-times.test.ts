import { beforeAll, describe, expect, it } from "vitest";
import { startTexts } from "../../../test-support/i18n.ts";
import { i18n } from "../../i18n/i18n.ts";
import { alarmDurationMs, formatAgo as agoIn, formatDuration as durationIn } from "./alarm-times.ts";

const MIN = 60_000;

beforeAll(() => startTexts());
const formatDuration = (ms: number) => durationIn(i18n.getFixedT("en", "alarms"), ms);
const formatAgo = (at: string, now: number) => agoIn(i18n.getFixedT("en", "alarms"), at, now);

describe("alarm times", () => {
  it("reads a duration in its two largest units, minutes the finest", () => {
    expect(formatDuration(59_999)).toBe("under a minute");
    expect(formatDuration(MIN)).toBe("1 min");
    expect(formatDuration(45 * MIN + 59_000)).toBe("45 min");
    expect(formatDuration(60 * MIN)).toBe("1 h");
    expect(formatDuration(200 * MIN)).toBe("3 h 20 min");
    expect(formatDuration(24 * 60 * MIN + 30 * MIN)).toBe("1 d");
    expect(formatDuration((2 * 24 + 5) * 60 * MIN)).toBe("2 d 5 h");
    expect(formatDuration(-5 * MIN)).toBe("under a minute");
  });

  it("says how long ago, and just now for a moment ahead of the clock", () => {
    const now = Date.parse("2026-11-23T12:00:00.000Z");
    expect(formatAgo("2026-11-23T11:48:00.000Z", now)).toBe("12 min ago");
    expect(formatAgo("2026-11-23T11:59:30.000Z", now)).toBe("just now");
    expect(formatAgo("2026-11-23T12:03:00.000Z", now)).toBe("just now");
  });

  it("measures a resolved alarm to its resolution and an active one to now", () => {
    const now = Date.parse("2026-11-23T12:00:00.000Z");
    expect(alarmDurationMs({ opened_at: "2026-11-23T10:00:00.000Z", resolved_at: "2026-11-23T10:25:00.000Z" }, now)).toBe(25 * MIN);
    expect(alarmDurationMs({ opened_at: "2026-11-23T10:00:00.000Z", resolved_at: null }, now)).toBe(120 * MIN);
  });
});
