import { currentLocale } from "./i18n.ts";

/**
 * Numbers and dates in the person's language and digits. Intl formatters are costly to make (a
 * dashboard of 2 000 cards formats many values a second), so each is made once per locale and
 * options, and kept.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function numberFormat(options: Intl.NumberFormatOptions = {}, tag: string = currentLocale().tag): Intl.NumberFormat {
  const key = `${tag}|${JSON.stringify(options)}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(tag, options)));
  return f;
}

export function dateTimeFormat(options: Intl.DateTimeFormatOptions = {}, tag: string = currentLocale().tag): Intl.DateTimeFormat {
  const key = `${tag}|${JSON.stringify(options)}`;
  let f = dateFormats.get(key);
  if (!f) dateFormats.set(key, (f = new Intl.DateTimeFormat(tag, options)));
  return f;
}

let fixedTag = "";
let grouped: Intl.NumberFormat[] = [];
let ungrouped: Intl.NumberFormat[] = [];

/** The fixed-decimals formatters of the person's locale, by count of decimals (all made again when the locale changes). */
function fixedLocale(): string {
  const { tag } = currentLocale();
  if (tag !== fixedTag) {
    fixedTag = tag;
    grouped = [];
    ungrouped = [];
  }
  return tag;
}

/** A number with a fixed count of decimals, in the person's digits (the live readings' hot path: no key to build). */
export function formatFixed(value: number, decimals: number): string {
  const tag = fixedLocale();
  return (grouped[decimals] ??= new Intl.NumberFormat(tag, { minimumFractionDigits: decimals, maximumFractionDigits: decimals })).format(value);
}

/**
 * formatFixed without thousands separators ("1350"), where a number must stay as narrow as it can
 * (a wall tile's cell seen from across a room).
 */
export function formatFixedUngrouped(value: number, decimals: number): string {
  const tag = fixedLocale();
  return (ungrouped[decimals] ??= new Intl.NumberFormat(tag, { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: false })).format(value);
}
