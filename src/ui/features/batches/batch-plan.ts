import { addLocalDays, batchProgress, type BatchEventKind } from "../../../contract/grow-values.ts";
import type { Batch, RecipePhase } from "../../../contract/grow.ts";

/** Where a phase stands: over, under way, still to come, or never run (the batch ended before it). */
export type PhaseState = "done" | "current" | "planned" | "not-run";

export interface PlannedPhase {
  index: number;
  phase: RecipePhase;
  /** When it started, or is planned to start (ms). */
  start: number;
  /** When it ended, or is planned to end: for the phase under way, its end by time (later while held). */
  end: number;
  state: PhaseState;
}

/** The events that end a phase and start the next one, each recorded with the phase it ended. */
const MOVES_ON: ReadonlySet<BatchEventKind> = new Set(["confirm", "skip", "advance", "maximum"]);

/**
 * Every phase of a batch with its dates: the past ones as they happened (from the events that ended
 * them), the current one from its start to its end by time, the later ones one after another in
 * the batch's time zone, each its planned days long. A phase the batch ended before is "not-run",
 * with no length, at the batch's end.
 */
export function plannedPhases(batch: Batch, now: number): PlannedPhase[] {
  const ended = new Map<number, number>();
  for (const e of batch.events) if (MOVES_ON.has(e.kind)) ended.set(e.phase_index, Date.parse(e.at));
  const current = Math.min(batch.phase_index, batch.phases.length - 1);
  const running = batch.status === "running";
  const endedAt = batch.ended_at ? Date.parse(batch.ended_at) : now;
  const phaseStart = Date.parse(batch.phase_started_at);

  const out: PlannedPhase[] = [];
  let previousEnd = Date.parse(batch.started_at);
  batch.phases.forEach((phase, index) => {
    let start: number;
    let end: number;
    let state: PhaseState;
    if (index < current) {
      start = previousEnd;
      end = ended.get(index) ?? (index === current - 1 ? phaseStart : addLocalDays(start, phase.days, batch.time_zone));
      state = "done";
    } else if (index === current) {
      start = phaseStart;
      end = running ? batchProgress(batch, now).endsAt : endedAt;
      state = running ? "current" : "done";
    } else if (running) {
      start = previousEnd;
      end = addLocalDays(start, phase.days, batch.time_zone);
      state = "planned";
    } else {
      start = end = endedAt;
      state = "not-run";
    }
    out.push({ index, phase, start, end, state });
    previousEnd = end;
  });
  return out;
}

/** The fresh weight harvested so far (kg), free of the float noise of adding decimals. */
export function harvestTotalKg(batch: Pick<Batch, "harvests">): number {
  return Math.round(batch.harvests.reduce((sum, h) => sum + h.fresh_kg, 0) * 1000) / 1000;
}

/**
 * Biological efficiency: fresh mushrooms per dry substrate, in percent (100 % = as many kg of
 * mushrooms as of dry substrate). Null without a dry weight: nothing to compare with.
 */
export function biologicalEfficiency(freshKg: number, substrateDryKg: number | null): number | null {
  return substrateDryKg && substrateDryKg > 0 ? (freshKg / substrateDryKg) * 100 : null;
}

/** The flush number the next harvest gets: one after the highest so far. */
export function nextFlush(batch: Pick<Batch, "harvests">): number {
  return batch.harvests.reduce((max, h) => Math.max(max, h.flush), 0) + 1;
}

/** How far the whole batch is, by planned days (0..1): the ended phases whole, the current one by its fraction. */
export function overallFraction(phases: readonly PlannedPhase[], currentFraction: number): number {
  let total = 0;
  let done = 0;
  for (const p of phases) {
    const days = p.phase.days;
    total += days;
    if (p.state === "done") done += days;
    else if (p.state === "current") done += days * currentFraction;
  }
  return total > 0 ? Math.min(1, done / total) : 0;
}
