import { afterAll, describe, expect, it } from "vitest";
import { startTexts } from "../../test-support/i18n.ts";
import { formatFixed, formatFixedUngrouped } from "./format.ts";

describe("fixed-decimals numbers", () => {
  afterAll(() => startTexts());

  it("groups thousands, or not, with the decimals asked for", async () => {
    await startTexts();
    expect(formatFixed(1234.5, 1)).toBe("1,234.5");
    expect(formatFixedUngrouped(1234.5, 1)).toBe("1234.5");
    expect(formatFixedUngrouped(1350, 0)).toBe("1350");
    expect(formatFixed(2, 2)).toBe("2.00");
  });

  it("follows a change of language and digits", async () => {
    await startTexts();
    expect(formatFixedUngrouped(1234, 0)).toBe("1234");
    await startTexts({ language: "ar", digits: "arab" });
    expect(formatFixed(1234, 0)).toBe("١٬٢٣٤");
    expect(formatFixedUngrouped(1234.5, 1)).toBe("١٢٣٤٫٥");
    await startTexts({ language: "fr", digits: "latn" });
    expect(formatFixedUngrouped(1234.5, 1)).toBe("1234,5");
  });
});
