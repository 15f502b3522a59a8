import type { TFunction } from "i18next";
import type { Alarm, AlarmKind, AlarmMetric } from "../../../contract/alarms-values.ts";
import { DEFAULT_LANGUAGE, type Language } from "../../../contract/language-values.ts";
import { dateTimeFormat, numberFormat } from "../../i18n/format.ts";

/**
 * An alarm in the reader's words. Farm members who read different languages see the same alarm,
 * so what the app says of it is built here from its fields (kind, metric, values, names) rather
 * than taken from a text stored in one language.
 */

/** A kind as filters, badges and incidents name it ("CO2 high"). */
export const kindLabel = (t: TFunction<"alarms">, kind: AlarmKind): string => t(`kinds.${kind}`);

/**
 * A metric's value as the alarm texts write it ("1450 ppm", "78.5%", "21.3 °C"): CO2 and the
 * battery whole, the rest to a tenth, without grouping (as the server's words write it), in the
 * reader's digits.
 */
export function alarmValue(t: TFunction<"alarms">, metric: AlarmMetric, value: number): string {
  const whole = metric === "co2" || metric === "batteryLevel";
  const rounded = whole ? Math.round(value) : Math.round(value * 10) / 10;
  return t(`values.${metric}`, { value: numberFormat({ maximumFractionDigits: whole ? 0 : 1, useGrouping: false }).format(rounded) });
}

/** A moment of an alarm (opened, resolved, acknowledged): date and time in the reader's language. */
export const alarmMoment = (iso: string): string => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : dateTimeFormat({ dateStyle: "medium", timeStyle: "short" }).format(d);
};

/**
 * The language of an alarm's stored title and body: the server writes them once, in English
 * (SPEC's words, which name the limit crossed and the sensors missing, which the alarm's fields do
 * not carry). A reader of that language reads them as written; any other reader reads them said
 * again from the alarm's fields.
 */
const STORED_WORDS_LANGUAGE: Language = DEFAULT_LANGUAGE;

/** What the alarm is about, in the reader's words: "Oyster Room A: humidity low". */
export function alarmTitle(t: TFunction<"alarms">, language: string, a: Alarm): string {
  if (language === STORED_WORDS_LANGUAGE) return a.title;
  const what = a.kind === "sensor_stuck" && a.metric !== null ? t(`words.stuck.${a.metric}`) : t(`words.what.${a.kind}`);
  return t("words.title", { mcu: a.mcu_name, what });
}

type OutOfProfileKind = Exclude<AlarmKind, "mcu_offline" | "sensor_missing" | "battery_low" | "sensor_stuck">;

/** The condition when it opened, in the reader's words: "Humidity is 78%, below 85%." */
export function alarmBody(t: TFunction<"alarms">, language: string, a: Alarm): string {
  if (language === STORED_WORDS_LANGUAGE) return a.body;
  const value = a.metric !== null && a.opened_value !== null ? alarmValue(t, a.metric, a.opened_value) : null;
  const metric = a.metric !== null ? t(`words.metrics.${a.metric}`) : null;
  switch (a.kind) {
    case "mcu_offline":
      return a.farm_name ? t("words.offline", { mcu: a.mcu_name, farm: a.farm_name }) : t("words.offlineNoFarm", { mcu: a.mcu_name });
    case "sensor_missing":
      return t("words.sensorMissing", { mcu: a.mcu_name });
    case "battery_low":
      return value !== null ? t("words.batteryLow", { value }) : t("words.batteryLowNoValue");
    case "sensor_stuck":
      return value !== null && metric !== null ? t("words.sensorStuck", { metric, value }) : t("words.sensorStuckNoValue");
    default: {
      const kind: OutOfProfileKind = a.kind;
      return value !== null && metric !== null ? t(`words.outOfProfile.${kind}`, { metric, value }) : t(`words.outOfProfileNoValue.${kind}`);
    }
  }
}
