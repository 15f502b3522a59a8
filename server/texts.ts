import { readFileSync } from "node:fs";
import i18next from "i18next";
import { LANGUAGES, localeTag, type Digits, type Language } from "../src/contract/language-values.ts";
import type english from "../src/locales/en/server.json";

/**
 * What the server writes for people (notifications, pushes, alarm texts), in the language and
 * digits of the person who reads it: the same library and catalogue format as the app's texts,
 * namespace `server` (src/locales/<language>/server.json), every language read once at start.
 * English is the reference: its texts are the server's words as they always were.
 */

/** Dotted paths of the texts, without their plural forms (`units.minutes` for `units.minutes_one`…). */
type Leaves<T, P extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
type WithoutPlural<K extends string> = K extends `${infer Base}_${"zero" | "one" | "two" | "few" | "many" | "other"}` ? Base : K;
export type ServerKey = WithoutPlural<Leaves<typeof english>>;

/** A number as a text shows it: in the reader's digits, with at most `decimals` decimals, grouped only when asked ("1,234"). */
export interface Num {
  num: number;
  decimals?: number;
  grouped?: boolean;
}

/**
 * A text to write later, for whoever reads it: a key and the values it names, each a plain string
 * (a name), a number, or words of their own (a unit, a metric's name); `count` picks a plural form.
 * Plain data: kept as JSON with an alarm, so each person it is called out to reads it in their language.
 */
export interface Words {
  key: ServerKey;
  values?: Record<string, string | number | Num | Words>;
  count?: number;
}

/** A notification's or a push's two texts. */
export interface TitleAndBody<T = Words> {
  title: T;
  body: T;
}

/** Whom a text is written for. */
export interface Reader {
  language: Language;
  digits: Digits;
}

export const ENGLISH: Reader = { language: "en", digits: "latn" };

const instance = i18next.createInstance();
void instance.init({
  resources: Object.fromEntries(
    LANGUAGES.map((language) => [language, { server: JSON.parse(readFileSync(new URL(`../src/locales/${language}/server.json`, import.meta.url), "utf8")) as object }]),
  ),
  lng: "en",
  supportedLngs: LANGUAGES,
  // A text missing in a language (the catalogue test keeps them complete) is written in English rather than as its key.
  fallbackLng: "en",
  ns: ["server"],
  defaultNS: "server",
  // Plain text: pushes are shown by the system, notifications rendered (and escaped) by React.
  interpolation: { escapeValue: false },
  returnEmptyString: false,
  initAsync: false,
});

const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(tag: string, decimals: number, grouped: boolean): Intl.NumberFormat {
  const key = `${tag}|${decimals}|${grouped}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.NumberFormat(tag, { maximumFractionDigits: decimals, useGrouping: grouped })));
  return f;
}

const isWords = (v: unknown): v is Words => typeof v === "object" && v !== null && "key" in v;

/** The text in the reader's language, its numbers in their digits (a plain number as JavaScript writes it: no grouping). */
export function write(words: Words, reader: Reader): string {
  const tag = localeTag(reader.language, reader.digits);
  const values: Record<string, string | number> = {};
  for (const [name, v] of Object.entries(words.values ?? {})) {
    if (typeof v === "string") values[name] = v;
    else if (typeof v === "number") values[name] = numberFormat(tag, 20, false).format(v);
    else if (isWords(v)) values[name] = write(v, reader);
    else values[name] = numberFormat(tag, v.decimals ?? 20, v.grouped ?? false).format(v.num);
  }
  // `count` stays a number for the plural rules; `{{count, number}}` writes it in the reader's locale.
  const options = words.count === undefined ? { ...values, lng: reader.language, locale: tag } : { ...values, count: words.count, lng: reader.language, locale: tag };
  return (instance.t as (key: string, options: object) => string)(words.key, options);
}

/** Both texts of a notification or push. */
export const writeBoth = (words: TitleAndBody, reader: Reader): TitleAndBody<string> => ({ title: write(words.title, reader), body: write(words.body, reader) });

/**
 * A notification's texts for its reader and the words they were written from, stored together:
 * the app says the words in whatever language its reader reads now.
 */
export const writeWithWords = (words: TitleAndBody, reader: Reader): TitleAndBody<string> & { words: TitleAndBody } => ({ ...writeBoth(words, reader), words });
