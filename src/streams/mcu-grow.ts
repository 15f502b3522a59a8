import { batchProgress, configKey, progressLabel, type Batch, type BatchProgress } from "../contract/grow.ts";
import type { McuGrowPlace, McuGrowView } from "../contract/live.ts";

/** The parts `progressLabel` words in English, for the screens that word them in their reader's language. */
function placeOf(p: BatchProgress): McuGrowPlace {
  if (p.held) return { state: "held", phase: p.phase.name };
  if (p.waiting) return { state: "waiting", phase: p.phase.name, day: p.day, confirm: p.phase.confirm ?? "" };
  return { state: "day", phase: p.phase.name, day: p.day, days: p.days };
}

/**
 * What each MCU's card says of the batch growing in its room: which batch and where it is ("Fruiting
 * · day 3 of 7"). Worked out once per change of the batch list or of the clock, for every MCU in a
 * running batch; an MCU's view keeps its object while its words and the plan's config are the same,
 * so a card re-renders only when they change (a day boundary, a phase change, a ramp's step).
 */
export function createMcuGrowIndex() {
  let batchesSeen: readonly Batch[] | null = null;
  let clockSeen = Number.NaN;
  let index = new Map<number, McuGrowView>();
  return (batches: readonly Batch[], now: number): ReadonlyMap<number, McuGrowView> => {
    if (batches === batchesSeen && now === clockSeen) return index;
    batchesSeen = batches;
    clockSeen = now;
    const next = new Map<number, McuGrowView>();
    for (const b of batches) {
      if (b.status !== "running" || b.phases.length === 0) continue;
      const progress = batchProgress(b, now);
      const label = progressLabel(progress);
      const key = configKey(progress.config);
      for (const mcuId of b.mcu_ids) {
        const last = index.get(mcuId);
        const same = last && last.batchId === b.batch_id && last.batchName === b.name && last.label === label && configKey(last.config) === key;
        // The label says every part of the place, so the same label is the same place.
        next.set(mcuId, same ? last : { batchId: b.batch_id, batchName: b.name, label, place: placeOf(progress), config: progress.config });
      }
    }
    index = next;
    return index;
  };
}
