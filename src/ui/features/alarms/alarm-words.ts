import type { TFunction } from "i18next";
import type { Alarm, AlarmKind, AlarmMetric, Words } from "../../../contract/alarms-values.ts";
import { dateTimeFormat, numberFormat } from "../../i18n/format.ts";

/**
 * An alarm in the reader's words. Farm members who read different languages see the same alarm,
 * so its title and body are said here from the words the server keeps with it (a key of the
 * server's texts and the values it names: the MCU, the value read, the limit crossed, the sensors
 * missing), in the reader's language and digits, English included. The app does not load the
 * server's texts: the alarms texts hold a copy of them all (`serverTexts`: the bell's notifications
 * are said from them too), which alarm-words.test.ts keeps the same as the server's.
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
 * Words in the reader's language, written as the server's `write` writes them (server/texts.ts):
 * a number as JavaScript writes it, without grouping, unless it says its decimals and grouping;
 * words within words first. Null when a key is not among the copied texts (words of a newer
 * server than this app): the caller then shows what the server stored.
 */
export function sayWords(t: TFunction<"alarms">, words: Words): string | null {
  const values: Record<string, string> = {};
  for (const [name, v] of Object.entries(words.values ?? {})) {
    if (typeof v === "string") values[name] = v;
    else if (typeof v === "number") values[name] = numberFormat({ maximumFractionDigits: 20, useGrouping: false }).format(v);
    else if ("key" in v) {
      const said = sayWords(t, v);
      if (said === null) return null;
      values[name] = said;
    } else values[name] = numberFormat({ maximumFractionDigits: v.decimals ?? 20, useGrouping: v.grouped ?? false }).format(v.num);
  }
  // `count` stays a number for the plural rules; `{{count, number}}` writes it in the reader's digits.
  const options = words.count === undefined ? values : { ...values, count: words.count };
  // The key comes from the server: an empty default tells a key the copy lacks from a text.
  const said = (t as unknown as (key: string, options: object) => string)(`serverTexts.${words.key}`, { ...options, defaultValue: "" });
  return said === "" ? null : said;
}

/**
 * What the alarm is about, in the reader's words: "Oyster Room A: humidity low". An alarm stored
 * without words (or with words this app cannot say) shows its stored title.
 */
export function alarmTitle(t: TFunction<"alarms">, a: Alarm): string {
  return (a.words && sayWords(t, a.words.title)) ?? a.title;
}

/** The condition when it opened, in the reader's words: "Humidity is 78.4%, below 85%." (as alarmTitle, from its stored body without words). */
export function alarmBody(t: TFunction<"alarms">, a: Alarm): string {
  return (a.words && sayWords(t, a.words.body)) ?? a.body;
}
