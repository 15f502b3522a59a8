import type { PlannedPhase } from "./batch-plan.ts";

/**
 * The whole batch as a bar: one segment per phase, as wide as its planned days; the ended ones
 * filled, the current one filled as far as it has gone. Read out as one progress value with the
 * phase in words.
 */
export function PhaseProgressBar({ phases, currentFraction, overall, label, valueText, held }: { phases: readonly PlannedPhase[]; currentFraction: number; overall: number; label: string; valueText: string; held: boolean }) {
  return (
    <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(overall * 100)} aria-valuetext={valueText} className="flex gap-1 h-3 4xl:h-5">
      {phases.map((p) => {
        const filled = p.state === "done" ? 1 : p.state === "current" ? currentFraction : 0;
        return (
          <div key={p.index} title={p.phase.name} className={`relative overflow-hidden rounded-full ${p.state === "not-run" ? "bg-gray-100" : "bg-gray-200"}`} style={{ flexGrow: p.phase.days, flexBasis: 0 }}>
            <div className={`absolute inset-y-0 start-0 ${held && p.state === "current" ? "bg-amber-500" : p.state === "current" ? "bg-brand-600" : "bg-brand-800/70"}`} style={{ width: `${filled * 100}%` }} />
          </div>
        );
      })}
    </div>
  );
}
