import type { TFunction } from "i18next";
import type { CommandLogEntry, CommandOutcome } from "../../../contract/history.ts";
import { switchReasonWords, targetName } from "./history-words.ts";

/** Each outcome as the command log names it (its filter options too). */
export const outcomeLabel = (t: TFunction<"history">, outcome: CommandOutcome): string => t(`commands.outcomes.${outcome}`);

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

/** Where a command came from, as the command log's filter names it. */
export const sourceLabel = (t: TFunction<"history">, source: "user" | "automation"): string => t(`commands.sources.${source}`);

/** What was done, in words: "Humidifier switched on", "AC automation turned off". */
export function describeCommand(t: TFunction<"history">, e: Pick<CommandLogEntry, "target" | "type" | "on_off">): string {
  const target = targetName(t, e.target);
  return e.type === "status" ? t(e.on_off ? "commands.switchedOn" : "commands.switchedOff", { target }) : t(e.on_off ? "commands.automationOn" : "commands.automationOff", { target });
}

/** Who did it: the user's name, or the device's automation. */
export function actorOf(t: TFunction<"history">, e: Pick<CommandLogEntry, "source" | "actor">): string {
  if (e.source === "automation") return t("commands.sources.automation");
  return e.actor ?? t("commands.aUser");
}

/** The outcome with its reason, when the device or the server gave one (the reason is theirs, as they wrote it). */
export function outcomeText(t: TFunction<"history">, e: Pick<CommandLogEntry, "outcome" | "reason">): string {
  const label = outcomeLabel(t, e.outcome);
  return e.reason && (e.outcome === "refused" || e.outcome === "failed" || e.outcome === "timed_out") ? t("commands.withReason", { label, reason: e.reason }) : label;
}

/**
 * Why a controller was switched, in one sentence: the automation's rule ("Humidifier on: humidity
 * 84.1 % below 85 % — Fruiting, day 3"), or the person who did it ("Humidifier on: switched by
 * sam"). Null for an automation command (`type: "auto"`) and for an automation switch with no reason known.
 */
export function switchReasonOf(t: TFunction<"history">, e: Pick<CommandLogEntry, "source" | "actor" | "target" | "type" | "on_off" | "why">): string | null {
  if (e.type !== "status") return null;
  return switchReasonWords(t, { target: e.target, on: e.on_off, source: e.source, actor: e.actor, why: e.why });
}
