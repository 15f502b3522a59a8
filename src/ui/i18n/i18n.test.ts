import { afterAll, describe, expect, it, vi } from "vitest";
import { formText } from "../../contract/form-texts.ts";
import { startTexts } from "../../test-support/i18n.ts";
import { chooseLanguage, currentLocale, i18n } from "./i18n.ts";

describe("the app's texts", () => {
  afterAll(() => chooseLanguage({ language: "en", digits: "latn" }, null));

  it("formats a text's numbers in the person's digits, whatever the language", async () => {
    await startTexts({ language: "ar", digits: "latn" });
    expect(currentLocale().tag).toMatch(/^ar-.*-u-nu-latn$/);
    expect(i18n.format(1234.5, "number", "ar", {})).toMatch(/^1\D234\D5$/);
    await chooseLanguage({ language: "ar", digits: "arab" }, null);
    expect(i18n.format(12, "number", "ar", {})).toBe("١٢");
    await chooseLanguage({ language: "en", digits: "arab" }, null);
    expect(i18n.format(7, "number", "en", {})).toBe("٧");
  });

  it("writes a validation message's numbers in the reader's digits, with the locale's kept formatter", async () => {
    await startTexts({ language: "en", digits: "arab" });
    const values = { label: "CO2 threshold (ppm)", min: 0, max: 50_000 };
    expect(formText("settingRange", values)).toBe("CO2 threshold (ppm) must be between ٠ and ٥٠٠٠٠");
    const made = vi.spyOn(Intl, "NumberFormat");
    try {
      for (let i = 0; i < 3; i++) formText("settingRange", values);
      expect(made).not.toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
    await startTexts();
    expect(formText("settingRange", { ...values, max: 1.125 })).toBe("CO2 threshold (ppm) must be between 0 and 1.13");
  });

  it("loads only the chosen language's texts", async () => {
    await chooseLanguage({ language: "fr", digits: "latn" }, null);
    expect(i18n.hasResourceBundle("fr", "auth")).toBe(true);
    expect(i18n.t("auth:login.submit")).toBe("Se connecter");
  });
});
