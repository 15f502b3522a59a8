import type { RecipePhase } from "../../../contract/grow.ts";
import { i18n } from "../../i18n/i18n.ts";

/** "7 days", in the reader's language and digits (each text here is written when called). */
export const daysText = (n: number) => i18n.t("recipes:summary.days", { count: n });

/** A length that is a maximum: "up to 5 days". */
export const upToText = (days: number) => i18n.t("recipes:summary.upTo", { days: daysText(days) });

/** A phase's length on its chip: "7 days", or "up to 5 days · waits for: Pins visible". */
export function phaseLengthText(phase: RecipePhase): string {
  return phase.confirm === null ? daysText(phase.days) : i18n.t("recipes:summary.waits", { length: upToText(phase.days), confirm: phase.confirm });
}

/** The whole cycle's length, a phase that waits counted at its maximum ("up to 35 days" then). */
export function totalDaysText(phases: readonly RecipePhase[]): string {
  const total = phases.reduce((n, p) => n + p.days, 0);
  return phases.some((p) => p.confirm !== null) ? upToText(total) : daysText(total);
}

export const runningBatchesText = (n: number) => i18n.t("recipes:summary.runningBatches", { count: n });
