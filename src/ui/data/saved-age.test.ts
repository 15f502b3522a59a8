import { beforeAll, describe, expect, it } from "vitest";
import { startTexts } from "../../test-support/i18n.ts";
import { savedAgeText } from "./saved-age.ts";

const at = Date.parse("2026-11-23T10:00:00Z");
const later = (ms: number) => savedAgeText(at, at + ms);

describe("the age of a saved list in words", () => {
  beforeAll(() => startTexts());

  it("says less than a minute for the first minute, and for a clock that is behind", () => {
    expect(later(0)).toBe("less than a minute ago");
    expect(later(59_999)).toBe("less than a minute ago");
    expect(later(-5_000)).toBe("less than a minute ago");
  });

  it("counts whole minutes below an hour, hours below two days, then days", () => {
    expect(later(12 * 60_000 + 30_000)).toBe("12 min ago");
    expect(later(59 * 60_000)).toBe("59 min ago");
    expect(later(60 * 60_000)).toBe("1 h ago");
    expect(later(47 * 3_600_000)).toBe("47 h ago");
    expect(later(48 * 3_600_000)).toBe("2 days ago");
  });

  it("speaks the person's language, in their digits", async () => {
    await startTexts({ language: "ar", digits: "arab" });
    try {
      expect(later(12 * 60_000)).toContain("١٢");
      expect(later(12 * 60_000)).not.toContain("min");
    } finally {
      await startTexts();
    }
  });
});
