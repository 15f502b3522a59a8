import { afterAll, describe, expect, it } from "vitest";
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

  it("loads only the chosen language's texts", async () => {
    await chooseLanguage({ language: "fr", digits: "latn" }, null);
    expect(i18n.hasResourceBundle("fr", "auth")).toBe(true);
    expect(i18n.t("auth:login.submit")).toBe("Se connecter");
  });
});
