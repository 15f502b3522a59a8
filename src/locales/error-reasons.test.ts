import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_REASONS } from "../contract/error-reasons.ts";

const reasonsIn = (language: string): string[] => {
  const texts = JSON.parse(readFileSync(new URL(`./${language}/errors.json`, import.meta.url), "utf8")) as { reasons: Record<string, string> };
  // A plural text is there by its forms ("farm_has_mcus_one", "farm_has_mcus_other").
  return [...new Set(Object.keys(texts.reasons).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, "")))];
};

describe("error reasons", () => {
  it.each(["en", "fr", "ar"])("each has a text in %s, and every text is a reason's", (language) => {
    expect(reasonsIn(language).sort()).toEqual([...ERROR_REASONS].sort());
  });
});
