import type { TFunction } from "i18next";
import { batchPhaseSpans, phaseConfigAt } from "../../../contract/grow-values.ts";
import type { Batch } from "../../../contract/grow.ts";
import { currentLocale } from "../../i18n/i18n.ts";
import { namesList } from "./history-words.ts";
import type { HistoryMetric } from "../../../contract/history.ts";
import { limitsFor, type MetricLimits } from "./profile-limits.ts";

/** The plan's limits over one stretch of time (a ramp is drawn as steps of these). */
export interface PlannedLimit {
  from: number;
  to: number;
  band: { low: number; high: number } | null;
  line: number | null;
}

/** A ramp is drawn in steps of at least an hour, and at most this many per phase. */
const MAX_STEPS = 96;
const HOUR = 3_600_000;

/**
 * A metric's limits as the batches on this MCU planned them, over time: each phase's config (its
 * ramps in steps), judged as the profile's limits are (`limitsFor`). Where a batch ran, the chart
 * draws these under the readings instead of the linked profile's, which was set aside meanwhile.
 */
export function plannedLimits(t: TFunction<"history">, metric: HistoryMetric, batches: readonly Batch[], now: number): PlannedLimit[] {
  const pieces: PlannedLimit[] = [];
  for (const b of batches) {
    for (const span of batchPhaseSpans(b, now)) {
      const length = span.end - span.start;
      if (length <= 0) continue;
      const steps = span.phase.ramps.length === 0 ? 1 : Math.max(1, Math.min(MAX_STEPS, Math.ceil(length / HOUR)));
      const step = length / steps;
      for (let k = 0; k < steps; k++) {
        const from = span.start + k * step;
        const limits = limitsFor(t, metric, phaseConfigAt(span.phase, (from + step / 2 - span.start) / span.rampMs));
        if (!limits || !limits.fromProfile) continue;
        const last = pieces.at(-1);
        // Steps the rounding left equal are one piece.
        if (last && last.to === from && last.line === limits.line && last.band?.low === limits.band?.low && last.band?.high === limits.band?.high) last.to = from + step;
        else pieces.push({ from, to: from + step, band: limits.band, line: limits.line });
      }
    }
  }
  return pieces.sort((a, b) => a.from - b.from);
}

/**
 * A metric's limits with the batches' plan: the profile's outside the batches' spans, the plan's
 * within them. Null when there is neither.
 */
export function limitsWithPlan(t: TFunction<"history">, metric: HistoryMetric, profileLimits: MetricLimits | null, batches: readonly Batch[], now: number): MetricLimits | null {
  const plan = batches.length > 0 ? plannedLimits(t, metric, batches, now) : [];
  if (plan.length === 0) return profileLimits;
  const names = namesList(batches.map((b) => b.name));
  const planText = t("limits.plan", { count: batches.length, names });
  // The profile's words go on within the sentence: their first letter lower-case ("profile: humidifier on…").
  const within = (text: string) => `${text.charAt(0).toLocaleLowerCase(currentLocale().tag)}${text.slice(1)}`;
  return {
    band: profileLimits?.fromProfile ? profileLimits.band : null,
    line: profileLimits?.fromProfile ? profileLimits.line : null,
    text: profileLimits?.fromProfile ? t("limits.planElsewhere", { plan: planText, profile: within(profileLimits.text) }) : planText,
    fromProfile: true,
    plan,
  };
}
