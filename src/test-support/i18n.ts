import type { LanguageChoice } from "../ui/i18n/language-choice.ts";
import { chooseLanguage, i18n, startI18n } from "../ui/i18n/i18n.ts";

/**
 * Starts the app's texts for a test that renders components or calls code that writes texts, in
 * English unless told otherwise (the SPEC's texts the tests compare with). Storage is left alone.
 */
export async function startTexts(choice: LanguageChoice = { language: "en", digits: "latn" }): Promise<void> {
  if (!i18n.isInitialized) await startI18n(choice);
  else await chooseLanguage(choice, null);
}
