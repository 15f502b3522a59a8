import type { TFunction } from "i18next";
import type { HistoryMetric, StateTarget } from "../../../contract/history-values.ts";
import { switchRule, type SwitchMetric, type SwitchReason, type SwitchRuleId, type WhyNotFact } from "../../../contract/switch-reasons-values.ts";
import { dateTimeFormat, numberFormat } from "../../i18n/format.ts";
import { currentLocale } from "../../i18n/i18n.ts";

/**
 * The history screens' words for what the contract names by id (metrics, controllers, the
 * automation's rules), and their dates and numbers, in the person's language and digits.
 */

/** A moment as the history screens show it: date and time ("23 Nov 2026, 14:05"). */
export function formatMoment(ms: number | string): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? "" : dateTimeFormat({ dateStyle: "medium", timeStyle: "short" }).format(d);
}

/** A time of day alone ("14:05"). */
export const formatTimeOfDay = (ms: number): string => dateTimeFormat({ timeStyle: "short" }).format(ms);

/** A number as a profile or a device set it: as many decimals as it has, no grouping ("1200", "85.5"). */
export const plainNumber = (n: number, maxDecimals = 6): string => numberFormat({ maximumFractionDigits: maxDecimals, useGrouping: false }).format(n);

const lists = new Map<string, Intl.ListFormat>();

/** Names one after another as the person's language lists them ("Oyster 1, Oyster 2"). */
export function namesList(names: readonly string[]): string {
  const { tag } = currentLocale();
  let f = lists.get(tag);
  if (!f) lists.set(tag, (f = new Intl.ListFormat(tag, { type: "unit", style: "short" })));
  return f.format(names);
}

/** A metric's name as a chart's title and the metric picker say it ("Soil Temperature"). */
export const metricLabel = (t: TFunction<"history">, metric: HistoryMetric): string => t(`metrics.${metric}`);

/** A controller's name ("Humidifier"). */
export const targetName = (t: TFunction<"history">, target: StateTarget): string => t(`targets.${target}`);

/** "Humidifier on"; with its automation off, "Humidifier on (automation off)". */
const headOf = (t: TFunction<"history">, target: StateTarget, on: boolean, auto = true): string =>
  t(auto ? `switches.head.${on ? "on" : "off"}` : `switches.headManual.${on ? "on" : "off"}`, { target: targetName(t, target) });

/** A switch of a controller with nothing more known: "Humidifier on". */
export const switchHead = (t: TFunction<"history">, target: StateTarget, on: boolean): string => headOf(t, target, on);

/** `value` to `decimals` decimals, rounded as `toFixed` rounds it, in the person's digits without grouping. */
const fixed = (value: number, decimals: number): string =>
  numberFormat({ minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: false }).format(Number(value.toFixed(decimals)));

/** A value or a limit with its unit ("84.1 %", "1200 ppm", "6 h"). */
const withUnit = (t: TFunction<"history">, metric: SwitchMetric, value: string): string => t(`switches.units.${metric}`, { value });

/**
 * A value with a reading's precision (a tenth; CO2 in whole ppm), or with the few more digits it
 * takes to keep it on its side of the limit: "84.96 % below 85 %", never "85.0 % below 85 %".
 */
function valueText(fires: (v: number, limit: number) => boolean, metric: SwitchMetric, value: number, limit: number): string {
  const digits = metric === "co2" ? 0 : 1;
  let d = digits;
  while (d < digits + 3 && fires(value, limit) && !fires(Number(value.toFixed(d)), limit)) d++;
  return fixed(value, d);
}

/** What a controller's switch was, as the command log keeps it. */
export interface SwitchRecordWords {
  target: StateTarget;
  on: boolean;
  source: "user" | "automation";
  actor: string | null;
  why: SwitchReason | null;
}

/**
 * The reason of a switch in one sentence: "Humidifier on: humidity 84.1 % below 85 % — Fruiting,
 * day 3" (the phase only when a batch ran; "(inferred)" when the server worked it out); a person's
 * switch: "Humidifier on: switched by sam". Null for an automation switch with no reason known.
 */
export function switchReasonWords(t: TFunction<"history">, s: SwitchRecordWords): string | null {
  const head = headOf(t, s.target, s.on);
  if (s.source === "user") return t("switches.byUser", { head, actor: s.actor ?? t("switches.aUser") });
  if (!s.why) return null;
  const rule = switchRule(s.why.rule);
  const fact = rule
    ? t(`switches.rules.${rule.id as SwitchRuleId}`, {
        value: withUnit(t, rule.metric, valueText(rule.fires, rule.metric, s.why.value, s.why.limit)),
        limit: withUnit(t, rule.metric, plainNumber(Math.round(s.why.limit * 100) / 100, 2)),
      })
    : t("switches.unknownRule", { rule: s.why.rule, value: plainNumber(s.why.value), limit: plainNumber(s.why.limit) });
  let text = t("switches.reason", { head, fact });
  if (s.why.inferred) text = t("switches.inferred", { text });
  // The phase is the server's words ("Fruiting, day 3"), the recipe's phase name with its day.
  if (s.why.phase) text = t("switches.phase", { text, phase: s.why.phase });
  return text;
}

/** "Humidifier off: humidity 88.2 % is within 85–92 %"; with the controller's automation off, "(automation off)" after its state. */
export function whyNotWords(t: TFunction<"history">, f: WhyNotFact, auto = true): string {
  const head = headOf(t, f.target, f.status, auto);
  const metric = t(`switches.metrics.${f.metric}`);
  if (f.value === null) return t("whyNot.noReading", { head, metric });
  const value = withUnit(t, f.metric, fixed(f.value, f.metric === "co2" ? 0 : 1));
  const limit = (n: number) => plainNumber(Math.round(n * 100) / 100, 2);
  switch (f.where) {
    case "below":
      return t("whyNot.below", { head, metric, value, limit: withUnit(t, f.metric, limit(f.low)) });
    case "above":
      return t("whyNot.above", { head, metric, value, limit: withUnit(t, f.metric, limit(f.high)) });
    default:
      return t("whyNot.within", { head, metric, value, band: withUnit(t, f.metric, t("whyNot.band", { low: limit(f.low), high: limit(f.high) })) });
  }
}

/** A controller's state without a band to judge it by: "Humidifier on (automation off): follows the MCU's built-in settings". */
export const builtInWords = (t: TFunction<"history">, target: StateTarget, on: boolean, auto: boolean): string => t("whyNot.builtIn", { head: headOf(t, target, on, auto) });
