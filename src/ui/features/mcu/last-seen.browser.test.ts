// Runs in Vitest browser mode (real Chromium): Last Seen is rendered with the browser's clock and locale.
import { describe, expect, it } from "vitest";
import { formatLastSeen } from "./last-seen.ts";

const NOW = Date.parse("2025-06-01T12:00:00Z");
const ago = (ms: number) => formatLastSeen(NOW - ms, NOW);
const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe("formatLastSeen", () => {
  it("reads Just now under a minute, and for a time ahead of our clock", () => {
    expect(ago(0)).toBe("Just now");
    expect(ago(59 * s + 999)).toBe("Just now");
    expect(ago(-5 * m)).toBe("Just now");
  });

  it("counts whole minutes from one minute up to the hour", () => {
    expect(ago(1 * m)).toBe("1m ago");
    expect(ago(5 * m)).toBe("5m ago");
    expect(ago(5 * m + 59 * s)).toBe("5m ago");
    expect(ago(59 * m + 59 * s)).toBe("59m ago");
  });

  it("counts whole hours from one hour up to the day", () => {
    expect(ago(1 * h)).toBe("1h ago");
    expect(ago(3 * h)).toBe("3h ago");
    expect(ago(23 * h + 59 * m)).toBe("23h ago");
  });

  it("counts whole days from one day on", () => {
    expect(ago(1 * d)).toBe("1d ago");
    expect(ago(2 * d)).toBe("2d ago");
    expect(ago(2 * d + 23 * h)).toBe("2d ago");
    expect(ago(400 * d)).toBe("400d ago");
  });

  it("reads Never for a device that never reported", () => {
    expect(formatLastSeen(null, NOW)).toBe("Never");
    expect(formatLastSeen(Number.NaN, NOW)).toBe("Never");
  });
});
