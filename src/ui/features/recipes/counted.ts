import { numberFormat } from "../../i18n/format.ts";
import { currentLocale } from "../../i18n/i18n.ts";

/**
 * A count for a plural text: `count` picks the language's form, and the text writes it as
 * `{{count, number}}`, which i18next formats with `locale`: the person's language and digits.
 */
export const counted = (count: number) => ({ count, locale: currentLocale().tag });

/** A whole number in the person's digits, for a text's value that picks no plural form. */
export const num = (n: number) => numberFormat().format(n);
