/**
 * The languages the app speaks and how it writes numbers in them: one list for the app (what the
 * person may choose), the server (what it stores with the client and writes pushes in) and the
 * catalogue test (every text in each).
 */
export const LANGUAGES = ["en", "fr", "ar"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** Western (0-9) or Arabic-Indic (٠-٩) digits: Unicode's numbering-system names, as Intl takes them. */
export const DIGITS = ["latn", "arab"] as const;
export type Digits = (typeof DIGITS)[number];
export const DEFAULT_DIGITS: Digits = "latn";

/** Each language named in itself: a person who cannot read the current one still finds their own. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: "English", fr: "Français", ar: "العربية" };

export const isLanguage = (x: unknown): x is Language => (LANGUAGES as readonly unknown[]).includes(x);
export const isDigits = (x: unknown): x is Digits => (DIGITS as readonly unknown[]).includes(x);

export const isRightToLeft = (language: Language): boolean => language === "ar";

/** The first of the person's preferred languages (a browser's `navigator.languages`) that the app speaks, else English. */
export function languageFrom(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split("-")[0];
    if (isLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

/**
 * The BCP 47 tag Intl formats with: the language, the region of the person's own locale when it is
 * a variant of that language (an English reader in Britain keeps day-first dates), else Lebanon's
 * for Arabic (the app's home country: Levantine month names), and the chosen digits.
 */
export function localeTag(language: Language, digits: Digits, personLocale?: string): string {
  const own = personLocale && personLocale.toLowerCase().split("-")[0] === language ? personLocale : undefined;
  let base = own ?? (language === "ar" ? "ar-LB" : language === "en" ? "en-US" : language);
  try {
    base = new Intl.Locale(base).baseName;
  } catch {
    base = language;
  }
  return `${base}-u-nu-${digits}`;
}
