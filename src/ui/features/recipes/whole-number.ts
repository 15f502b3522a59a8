import { numberFormat } from "../../i18n/format.ts";

/**
 * A whole number in the person's digits, for a text's value that picks no plural form (a count
 * that picks one is passed as `count` and written by the text's `{{count, number}}`).
 */
export const num = (n: number) => numberFormat().format(n);
