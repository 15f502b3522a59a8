import { batchProgress, type BatchProgress } from "../../../contract/grow-values.ts";
import type { Batch } from "../../../contract/grow.ts";
import { i18n } from "../../i18n/i18n.ts";
import { overallFraction, plannedPhases, type PlannedPhase } from "./batch-plan.ts";
import { num } from "./whole-number.ts";
import { formatDayTime } from "./zone-dates.ts";

/** What the screens show of a running batch at `now`: its place, its planned phases, what comes next. */
export interface BatchStatus {
  progress: BatchProgress;
  phases: PlannedPhase[];
  overall: number;
  /** "Next: Fruiting on 2 Dec, 08:00", "Ends on 9 Dec, 08:00", or what it waits for. */
  nextText: string;
}

/** Written when called, in the reader's language and digits. */
export function batchStatus(batch: Batch, now: number): BatchStatus {
  const progress = batchProgress(batch, now);
  const phases = plannedPhases(batch, now);
  const overall = overallFraction(phases, progress.fraction);
  const when = formatDayTime(progress.endsAt, batch.time_zone);
  const next = progress.next?.name;
  const confirm = progress.phase.confirm;
  let nextText: string;
  if (progress.held) nextText = next ? i18n.t("batches:next.heldNext", { next }) : i18n.t("batches:next.heldEnd");
  else if (confirm !== null) nextText = next ? i18n.t("batches:next.confirmNext", { next, confirm, when }) : i18n.t("batches:next.confirmEnd", { confirm, when });
  else nextText = next ? i18n.t("batches:next.next", { next, when }) : i18n.t("batches:next.end", { when });
  return { progress, phases, overall, nextText };
}

/**
 * "Fruiting · day 3 of 7": a batch's place, as its card and page show it (the contract's
 * `progressLabel` says the same in English for the MCU cards the worker prepares).
 */
export function progressText(p: BatchProgress): string {
  if (p.held) return i18n.t("batches:progress.held", { phase: p.phase.name });
  if (p.waiting) return i18n.t("batches:progress.waiting", { phase: p.phase.name, day: num(p.day), confirm: p.phase.confirm ?? "" });
  return i18n.t("batches:progress.day", { phase: p.phase.name, day: num(p.day), days: num(p.days) });
}

/** "Phase 2 of 4: Pinning · day 3 of 7": the progress bar's value in words. */
export const phaseOfText = (s: BatchStatus, label: string) => i18n.t("batches:progress.phaseOf", { index: num(s.progress.phaseIndex + 1), total: num(s.phases.length), label });
