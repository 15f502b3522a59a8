import type { RecipePhase } from "../../../contract/grow.ts";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const daysText = (n: number) => plural(n, "day", "days");

/** A phase's length on its chip: "7 days", or "up to 5 days · waits for: Pins visible". */
export function phaseLengthText(phase: RecipePhase): string {
  return phase.confirm === null ? daysText(phase.days) : `up to ${daysText(phase.days)} · waits for: ${phase.confirm}`;
}

/** The whole cycle's length, a phase that waits counted at its maximum ("up to 35 days" then). */
export function totalDaysText(phases: readonly RecipePhase[]): string {
  const total = phases.reduce((n, p) => n + p.days, 0);
  return phases.some((p) => p.confirm !== null) ? `up to ${daysText(total)}` : daysText(total);
}

export const runningBatchesText = (n: number) => plural(n, "running batch", "running batches");
