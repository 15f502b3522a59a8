import { DEFAULT_DIGITS, isDigits, isLanguage, languageFrom, type Digits, type Language } from "../../contract/language-values.ts";
import { CLIENT_STORAGE_KEY } from "../data/stored-client.ts";

/** The person's choice on this device before and between sign-ins (the login screen's, or Settings'). */
export const LANGUAGE_STORAGE_KEY = "language";
export const DIGITS_STORAGE_KEY = "digits";

export interface LanguageChoice {
  language: Language;
  digits: Digits;
}

function readStoredClient(storage: Storage): Record<string, unknown> | null {
  try {
    const raw = storage.getItem(CLIENT_STORAGE_KEY);
    const c = raw ? (JSON.parse(raw) as unknown) : null;
    return typeof c === "object" && c !== null ? (c as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The language the page opens in: the signed-in person's (kept with their client, so it follows
 * them to another device), else the one chosen on this device, else the browser's first that the
 * app speaks. Read without the i18n library, so the page can fetch that language's texts at once.
 */
export function initialChoice(storage: Storage, preferred: readonly string[]): LanguageChoice {
  const client = readStoredClient(storage);
  const stored = storage.getItem(LANGUAGE_STORAGE_KEY);
  const language = isLanguage(client?.language) ? client.language : isLanguage(stored) ? stored : languageFrom(preferred);
  const storedDigits = storage.getItem(DIGITS_STORAGE_KEY);
  const digits = isDigits(client?.digits) ? client.digits : isDigits(storedDigits) ? storedDigits : DEFAULT_DIGITS;
  return { language, digits };
}

export function rememberChoice(storage: Storage, choice: LanguageChoice): void {
  try {
    storage.setItem(LANGUAGE_STORAGE_KEY, choice.language);
    storage.setItem(DIGITS_STORAGE_KEY, choice.digits);
  } catch {
    // A full or refused storage only loses the choice for the next visit.
  }
}
