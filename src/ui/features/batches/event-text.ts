import type { Batch, BatchEvent } from "../../../contract/grow.ts";
import { i18n } from "../../i18n/i18n.ts";
import { num } from "./whole-number.ts";

/** A phase's name, or its number when the batch has no such phase. */
export const phaseName = (batch: Pick<Batch, "phases">, index: number) => batch.phases[index]?.name ?? i18n.t("batches:phaseNumber", { n: num(index + 1) });

/**
 * What an event of a batch's log says: a grower's action ("Confirmed “Pins visible”"), or the
 * plan's own step ("Plan: Spawn run ended"). Written when called, in the reader's language.
 */
export function eventText(event: BatchEvent, batch: Pick<Batch, "phases">): string {
  const phase = batch.phases[event.phase_index];
  const name = phaseName(batch, event.phase_index);
  switch (event.kind) {
    case "start":
      return i18n.t("batches:events.start");
    case "confirm":
      return phase?.confirm ? i18n.t("batches:events.confirm", { confirm: phase.confirm }) : i18n.t("batches:events.confirmPlain");
    case "hold":
      return i18n.t("batches:events.hold");
    case "resume":
      return i18n.t("batches:events.resume");
    case "extend":
      return i18n.t("batches:events.extend", { count: event.days ?? 0 });
    case "skip":
      return i18n.t("batches:events.skip", { phase: name });
    case "end":
      return i18n.t("batches:events.end");
    case "advance":
      return i18n.t("batches:events.advance", { phase: name });
    case "maximum":
      return phase ? i18n.t("batches:events.maximum", { phase: name, confirm: phase.confirm ?? "", count: phase.days }) : i18n.t("batches:events.maximumPlain", { phase: name });
  }
}
