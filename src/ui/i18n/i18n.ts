import i18next from "i18next";
import resourcesToBackend from "i18next-resources-to-backend";
import { initReactI18next } from "react-i18next";
import { useSyncExternalStore } from "react";
import { writeFormTextsWith, type FormTextValues } from "../../contract/form-texts.ts";
import { isRightToLeft, LANGUAGES, localeTag, type Digits, type Language } from "../../contract/language-values.ts";
import { rememberChoice, type LanguageChoice } from "./language-choice.ts";
import { dateTimeFormat, numberFormat } from "./format.ts";
import { loadLanguage } from "./load-language.ts";
import { UI_NAMESPACES } from "./namespaces.ts";

/**
 * The app's one i18next instance. Texts are fetched a language at a time (only the chosen one);
 * there is no fallback language, so an Arabic reader never downloads the English texts — the
 * catalogue test keeps every language complete instead.
 */
export const i18n = i18next.createInstance();
i18n.use(resourcesToBackend((language: Language, namespace: string) => loadLanguage(language).then((c) => (c as Record<string, object>)[namespace] ?? {})));
i18n.use(initReactI18next);

/** The language and digits the app shows, and the Intl tag they make. */
export interface Locale extends LanguageChoice {
  tag: string;
  rtl: boolean;
}

const personLocale = () => (typeof navigator === "undefined" ? undefined : navigator.language);

let current: Locale = { language: "en", digits: "latn", tag: localeTag("en", "latn", personLocale()), rtl: false };
const listeners = new Set<() => void>();

function applyToDocument(locale: Locale): void {
  if (typeof document === "undefined") return;
  const root = document.documentElement;
  root.lang = locale.language;
  root.dir = locale.rtl ? "rtl" : "ltr";
}

function setCurrent(choice: LanguageChoice): void {
  current = { ...choice, tag: localeTag(choice.language, choice.digits, personLocale()), rtl: isRightToLeft(choice.language) };
  applyToDocument(current);
  for (const l of listeners) l();
}

/** A limit in a validation message, written as the field takes it (no grouping: "50000 ppm"). */
const FORM_NUMBER: Intl.NumberFormatOptions = { maximumFractionDigits: 2, useGrouping: false };

/** The forms' validation messages, from the `forms` texts, with numbers in the reader's digits. */
function writeFormText(key: string, values?: FormTextValues): string {
  const shown: Record<string, string> = {};
  // A form checks each field at every keystroke: the formatter is the kept one of the locale, not made per message.
  const numbers = numberFormat(FORM_NUMBER, current.tag);
  for (const [name, value] of Object.entries(values ?? {})) shown[name] = typeof value === "number" ? numbers.format(value) : value;
  // Keys come from the contract's schemas, which the catalogue test checks against the `forms` texts.
  return String(i18n.t(`forms:${key}` as never, shown as never));
}

/** The options of a `{{value, number(…)}}` that are Intl's (i18next passes every option of the call along). */
const NUMBER_OPTIONS = ["minimumFractionDigits", "maximumFractionDigits", "minimumIntegerDigits", "useGrouping", "style", "unit", "unitDisplay", "notation", "signDisplay"] as const;

/**
 * `{{count, number}}` and `{{when, datetime}}` in a text format in the person's locale and digits
 * (i18next's own would use the bare language, so Arabic would always get Arabic-Indic digits).
 */
function formatInLocale(): void {
  const formatter = i18n.services.formatter;
  if (!formatter) return;
  formatter.add("number", (value: unknown, _lng: string | undefined, options: Record<string, unknown>) => {
    const picked: Record<string, unknown> = {};
    for (const k of NUMBER_OPTIONS) if (options[k] !== undefined) picked[k] = options[k];
    return numberFormat(picked as Intl.NumberFormatOptions).format(Number(value));
  });
  formatter.add("datetime", (value: unknown, _lng: string | undefined, options: Record<string, unknown>) => {
    const { dateStyle, timeStyle, timeZone } = options as Intl.DateTimeFormatOptions;
    return dateTimeFormat({ dateStyle, timeStyle, timeZone }).format(value as Date | number);
  });
}

/** Starts the texts in the chosen language; the app renders once they are in. */
export async function startI18n(choice: LanguageChoice): Promise<void> {
  setCurrent(choice);
  writeFormTextsWith(writeFormText);
  await i18n.init({
    lng: choice.language,
    supportedLngs: LANGUAGES,
    fallbackLng: false,
    load: "currentOnly",
    ns: UI_NAMESPACES,
    defaultNS: "common",
    interpolation: { escapeValue: false }, // React escapes what it renders
    returnEmptyString: false,
    react: { useSuspense: false },
  });
  formatInLocale();
}

/**
 * Switches the app's language and digits without a reload: the new language's texts are fetched
 * first, then everything re-renders at once in it (direction included).
 */
export async function chooseLanguage(choice: LanguageChoice, storage: Storage | null = globalThis.localStorage ?? null): Promise<void> {
  if (storage) rememberChoice(storage, choice);
  if (choice.language !== i18n.language) await i18n.changeLanguage(choice.language);
  if (choice.language !== current.language || choice.digits !== current.digits) setCurrent(choice);
}

export const currentLocale = (): Locale => current;

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

/** The locale, re-rendering the caller when the person changes language or digits. */
export function useLocale(): Locale {
  return useSyncExternalStore(subscribe, currentLocale, currentLocale);
}

export const currentLanguage = (): Language => current.language;
export const currentDigits = (): Digits => current.digits;
