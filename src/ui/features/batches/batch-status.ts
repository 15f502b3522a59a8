import { batchProgress, type Batch, type BatchProgress } from "../../../contract/grow.ts";
import { overallFraction, plannedPhases, type PlannedPhase } from "./batch-plan.ts";
import { formatDayTime } from "./zone-dates.ts";

/** What the screens show of a running batch at `now`: its place, its planned phases, what comes next. */
export interface BatchStatus {
  progress: BatchProgress;
  phases: PlannedPhase[];
  overall: number;
  /** "Next: Fruiting on 2 Dec, 08:00", "Ends on 9 Dec, 08:00", or what it waits for. */
  nextText: string;
}

export function batchStatus(batch: Batch, now: number): BatchStatus {
  const progress = batchProgress(batch, now);
  const phases = plannedPhases(batch, now);
  const overall = overallFraction(phases, progress.fraction);
  const when = formatDayTime(progress.endsAt, batch.time_zone);
  let nextText: string;
  if (progress.held) nextText = progress.next ? `Next: ${progress.next.name}, once resumed` : "Ends once resumed";
  else if (progress.phase.confirm !== null) nextText = progress.next ? `Next: ${progress.next.name} when “${progress.phase.confirm}” is confirmed, by ${when} at the latest` : `Ends when “${progress.phase.confirm}” is confirmed, by ${when} at the latest`;
  else nextText = progress.next ? `Next: ${progress.next.name} on ${when}` : `Ends on ${when}`;
  return { progress, phases, overall, nextText };
}

/** "Phase 2 of 4: Pinning · day 3 of 7": the progress bar's value in words. */
export const phaseOfText = (s: BatchStatus, label: string) => `Phase ${s.progress.phaseIndex + 1} of ${s.phases.length}: ${label}`;
