import { numberFormat } from "../../i18n/format.ts";

/**
 * A setting's value as the farmer typed it, in their digits: every decimal kept and no grouping
 * ("1000 ppm", as the form holds it), so the card reads the same number as the form.
 */
export const settingValue = (value: number): string => numberFormat({ useGrouping: false, maximumFractionDigits: 20 }).format(value);
