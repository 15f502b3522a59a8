import type { CommandLogEntry, CommandOutcome } from "../../../contract/history.ts";
import { reasonText } from "../../../contract/switch-reasons.ts";

/** Each outcome as the command log names it (its filter options too). */
export const OUTCOME_LABELS: Record<CommandOutcome, string> = {
  pending: "Waiting for the device",
  acknowledged: "Done",
  refused: "Refused by the device",
  timed_out: "No answer from the device",
  failed: "Not sent",
  reported: "Done by the automation",
};

/** How the outcome reads at a glance: good, bad, waiting or by the device itself. */
export type OutcomeTone = "ok" | "bad" | "waiting" | "device";
export const OUTCOME_TONES: Record<CommandOutcome, OutcomeTone> = {
  pending: "waiting",
  acknowledged: "ok",
  refused: "bad",
  timed_out: "bad",
  failed: "bad",
  reported: "device",
};

export const SOURCE_LABELS = { user: "From the app", automation: "Device automation" } as const;

/** What was done, in words: "Humidifier switched on", "AC automation turned off". */
export function describeCommand(e: Pick<CommandLogEntry, "target" | "type" | "on_off">): string {
  return e.type === "status" ? `${e.target} switched ${e.on_off ? "on" : "off"}` : `${e.target} automation turned ${e.on_off ? "on" : "off"}`;
}

/** Who did it: the user's name, or the device's automation. */
export function actorOf(e: Pick<CommandLogEntry, "source" | "actor">): string {
  if (e.source === "automation") return "Device automation";
  return e.actor ?? "A user";
}

/** The outcome with its reason, when the device or the server gave one. */
export function outcomeText(e: Pick<CommandLogEntry, "outcome" | "reason">): string {
  const label = OUTCOME_LABELS[e.outcome];
  return e.reason && (e.outcome === "refused" || e.outcome === "failed" || e.outcome === "timed_out") ? `${label}: ${e.reason}` : label;
}

/**
 * Why a controller was switched, in one sentence: the automation's rule ("Humidifier on: humidity
 * 84.1 % below 85 % — Fruiting, day 3"), or the person who did it ("Humidifier on: switched by
 * sam"). Null for an automation command (`type: "auto"`) and for an automation switch with no reason known.
 */
export function switchReasonOf(e: Pick<CommandLogEntry, "source" | "actor" | "target" | "type" | "on_off" | "why">): string | null {
  if (e.type !== "status") return null;
  return reasonText({ target: e.target, on: e.on_off, source: e.source, actor: e.actor, why: e.why });
}
