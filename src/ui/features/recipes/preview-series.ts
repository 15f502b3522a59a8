import { phaseConfigAt } from "../../../contract/grow-values.ts";
import type { RecipePhase } from "../../../contract/grow.ts";
import { numberFormat } from "../../i18n/format.ts";
import { i18n } from "../../i18n/i18n.ts";
import { num } from "./whole-number.ts";

/**
 * A recipe's planned setpoints over its whole cycle, as the preview chart draws them: each phase
 * sampled evenly across its days with the plan's own `phaseConfigAt` (so the preview ramps as the
 * batch will), x in days from the start. A phase's last sample and the next one's first share
 * their day, so a change between phases draws as a step. A phase that waits for the grower is
 * drawn at its maximum.
 */
export interface PreviewSeries {
  days: number[];
  acTarget: (number | null)[];
  humidityOnBelow: (number | null)[];
  humidityOffAbove: (number | null)[];
  co2: (number | null)[];
  /** Where each phase starts, with its name. */
  starts: { day: number; name: string }[];
  totalDays: number;
}

const value = (n: number) => (Number.isFinite(n) ? n : null);

export function previewSeries(phases: readonly RecipePhase[], samplesPerPhase = 24): PreviewSeries {
  const out: PreviewSeries = { days: [], acTarget: [], humidityOnBelow: [], humidityOffAbove: [], co2: [], starts: [], totalDays: 0 };
  let start = 0;
  for (const phase of phases) {
    out.starts.push({ day: start, name: phase.name });
    for (let i = 0; i <= samplesPerPhase; i++) {
      const fraction = i / samplesPerPhase;
      const config = phaseConfigAt(phase, fraction);
      out.days.push(start + phase.days * fraction);
      out.acTarget.push(value(config.ac.target_temp));
      out.humidityOnBelow.push(value(config.humidifier.humidity_on_below));
      out.humidityOffAbove.push(value(config.humidifier.humidity_off_above));
      out.co2.push(value(config.ventilation.co2_threshold));
    }
    start += phase.days;
  }
  out.totalDays = start;
  return out;
}

/** A phase's start and end value of one setpoint: "18 °C", or "18 → 15 °C" when it ramps (the reader's language and digits). */
export function setpointText(phase: RecipePhase, read: (config: RecipePhase["config"]) => number, unit: string): string {
  const from = read(phaseConfigAt(phase, 0));
  const to = read(phaseConfigAt(phase, 1));
  const show = (n: number) => (Number.isFinite(n) ? numberFormat({ maximumFractionDigits: 3, useGrouping: false }).format(n) : "–");
  return from === to || (!Number.isFinite(from) && !Number.isFinite(to))
    ? i18n.t("recipes:preview.setpoint", { value: show(from), unit })
    : i18n.t("recipes:preview.setpointRamp", { from: show(from), to: show(to), unit });
}

/** The chart's summary for a screen reader: the cycle's length and each phase's span. */
export function previewSummary(phases: readonly RecipePhase[]): string {
  if (phases.length === 0) return i18n.t("recipes:preview.nothing");
  const total = phases.reduce((n, p) => n + p.days, 0);
  let start = 0;
  const parts = phases.map((p) => {
    const part = i18n.t("recipes:preview.span", { name: p.name, from: num(start), to: num(start + p.days) });
    start += p.days;
    return part;
  });
  return i18n.t("recipes:preview.summary", { parts: parts.join(i18n.t("recipes:preview.spanSeparator")), count: total });
}
