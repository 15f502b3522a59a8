import type { Batch, BatchEvent } from "../../../contract/grow.ts";

/**
 * What an event of a batch's log says: a grower's action ("Confirmed “Pins visible”"), or the
 * plan's own step ("Plan: Spawn run ended").
 */
export function eventText(event: BatchEvent, batch: Pick<Batch, "phases">): string {
  const phase = batch.phases[event.phase_index];
  const name = phase?.name ?? `Phase ${event.phase_index + 1}`;
  switch (event.kind) {
    case "start":
      return "Started";
    case "confirm":
      return phase?.confirm ? `Confirmed “${phase.confirm}”` : "Confirmed";
    case "hold":
      return "Put on hold";
    case "resume":
      return "Resumed";
    case "extend":
      return event.days === 1 ? "Extended by 1 day" : `Extended by ${event.days ?? 0} days`;
    case "skip":
      return `Skipped the rest of ${name}`;
    case "end":
      return "Ended the batch";
    case "advance":
      return `Plan: ${name} ended`;
    case "maximum":
      return phase ? `Plan: ${name} reached its ${phase.days} days without “${phase.confirm ?? ""}”` : `Plan: ${name} reached its maximum`;
  }
}
