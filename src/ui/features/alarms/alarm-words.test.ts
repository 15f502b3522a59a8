import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batteryLowWords, breachWords, mcuOfflineWords } from "../../../../server/alerts/alarm-words.ts";
import { missingWords, SENSOR_GROUPS, SENSOR_STUCK_AFTER_MS, STUCK_METRICS, stuckWords } from "../../../../server/alerts/sensor-health.ts";
import { write, type Reader, type TitleAndBody } from "../../../../server/texts.ts";
import { ALARM_KINDS, formatMetricValue, type Alarm, type AlarmKind, type AlarmWords } from "../../../contract/alarms-values.ts";
import type { ProfileConfig } from "../../../contract/entities.ts";
import { DIGITS, LANGUAGES, type Language } from "../../../contract/language-values.ts";
import { startTexts } from "../../../test-support/i18n.ts";
import { i18n } from "../../i18n/i18n.ts";
import { alarmBody, alarmTitle, alarmValue } from "./alarm-words.ts";

beforeAll(() => startTexts());
afterAll(() => startTexts());

const alarm = {
  alarm_id: 7,
  kind: "humidity_low",
  state: "open",
  mcu_id: 3,
  mac: "02:4D:46:00:01:02",
  mcu_name: "Oyster Room A",
  farm_id: 1,
  farm_name: "North Barn",
  title: "Oyster Room A: humidity low",
  body: "Humidity is 78.4%, below 85%.",
  metric: "humidity",
  opened_value: 78.44,
  worst_value: 76,
  opened_at: "2026-11-23T10:00:00.000Z",
  acknowledged_at: null,
  acknowledged_by: null,
  ack_comment: null,
  resolved_at: null,
} satisfies Alarm;

const NAME = "Oyster Room A";
const config = (over: Partial<ProfileConfig> = {}): ProfileConfig => ({
  irrigation: { on_cycle_hours: 6, off_cycle_liters: 15, soil_moisture_on: 40.5, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 1000 },
  ac: { based_on: "room_temp", target_temp: 18.5 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 92 },
  ...over,
});

/**
 * Words of every kind of alarm, made by the server's own functions (the ones the alarm engine
 * opens alarms with), with values that round, go negative, and name one sensor or several.
 */
function everyKindsWords(): { kind: AlarmKind; words: TitleAndBody }[] {
  const out: { kind: AlarmKind; words: TitleAndBody }[] = [{ kind: "mcu_offline", words: mcuOfflineWords(NAME, "North Barn") }];
  for (const level of [22.4, 22.5, 0, 29.99]) out.push({ kind: "battery_low", words: batteryLowWords(NAME, level) });
  for (const value of [78.44, 78.46, 12, 84.95]) out.push({ kind: "humidity_low", words: breachWords(NAME, "humidity_low", value, config()) });
  for (const value of [1450.4, 1450.5, 12_345]) out.push({ kind: "co2_high", words: breachWords(NAME, "co2_high", value, config()) });
  for (const value of [39.96, 3]) out.push({ kind: "soil_moisture_low", words: breachWords(NAME, "soil_moisture_low", value, config()) });
  for (const value of [25.04, -2.04, 0.05]) {
    out.push({ kind: "temperature_off_target", words: breachWords(NAME, "temperature_off_target", value, config()) });
    out.push({ kind: "temperature_off_target", words: breachWords(NAME, "temperature_off_target", value, config({ ac: { based_on: "soil_temp", target_temp: 18 } })) });
  }
  for (const group of SENSOR_GROUPS) {
    for (const [reporting, expected] of [[0, 1], [1, 2], [0, 2], [0, 3], [2, 3], [1, 11], [0, 25]] as const) {
      out.push({ kind: "sensor_missing", words: missingWords(NAME, group, reporting, expected) });
    }
  }
  for (const metric of STUCK_METRICS) {
    for (const afterMs of [SENSOR_STUCK_AFTER_MS, 60_000, 2 * 60_000, 11 * 60_000]) out.push({ kind: "sensor_stuck", words: stuckWords(NAME, metric, 21.34, afterMs) });
    out.push({ kind: "sensor_stuck", words: stuckWords(NAME, metric, -0.25, SENSOR_STUCK_AFTER_MS) });
    out.push({ kind: "sensor_stuck", words: stuckWords(NAME, metric, 1450.6, SENSOR_STUCK_AFTER_MS) });
  }
  return out;
}

/** The alarm as the API carries it, its stored texts unlike any the words say: what is shown comes from the words. */
const withWords = (kind: AlarmKind, words: AlarmWords): Alarm => ({ ...alarm, kind, title: "stored title", body: "stored body", words });

const READERS: Reader[] = LANGUAGES.flatMap((language) => DIGITS.map((digits) => ({ language, digits })));

/** A JSON file's texts by dotted key. */
function flatten(value: unknown, prefix = "", into = new Map<string, string>()): Map<string, string> {
  if (typeof value === "string") into.set(prefix, value);
  else for (const [k, v] of Object.entries(value as object)) flatten(v, prefix ? `${prefix}.${k}` : k, into);
  return into;
}
const textsOf = (language: Language, namespace: string): unknown => JSON.parse(readFileSync(new URL(`../../../locales/${language}/${namespace}.json`, import.meta.url), "utf8"));

describe("an alarm in the reader's words", () => {
  it("says every kind of alarm in English exactly as the server stores it, from the same words", () => {
    const en = i18n.getFixedT("en", "alarms");
    const cases = everyKindsWords();
    expect(new Set(cases.map((c) => c.kind))).toEqual(new Set(ALARM_KINDS));
    for (const { kind, words } of cases) {
      const a = withWords(kind, words);
      // What the server stores as the alarm's title and body (alerts.ts: written for ENGLISH).
      expect({ title: alarmTitle(en, a), body: alarmBody(en, a) }, JSON.stringify(words)).toEqual({
        title: write(words.title, { language: "en", digits: "latn" }),
        body: write(words.body, { language: "en", digits: "latn" }),
      });
    }
    // A few written out, so that both sides agreeing on something else would show.
    expect(alarmBody(en, withWords("humidity_low", breachWords(NAME, "humidity_low", 78.44, config())))).toBe("Humidity is 78.4%, below 85%.");
    expect(alarmTitle(en, withWords("sensor_missing", missingWords(NAME, "DHT", 0, 3)))).toBe("Oyster Room A: 3 humidity sensors missing");
    expect(alarmBody(en, withWords("sensor_missing", missingWords(NAME, "DHT", 1, 2)))).toBe("1 of 2 humidity sensors stopped reporting on Oyster Room A.");
    expect(alarmBody(en, withWords("sensor_stuck", stuckWords(NAME, "co2", 1450.6, SENSOR_STUCK_AFTER_MS)))).toBe(
      "CO2 has read exactly 1451 ppm for 60 minutes: the sensor may have frozen.",
    );
  });

  it("says them in each language and digits as the server writes them for a person who reads those", async () => {
    try {
      for (const reader of READERS) {
        await startTexts(reader);
        const t = i18n.getFixedT(reader.language, "alarms");
        for (const { kind, words } of everyKindsWords()) {
          const a = withWords(kind, words);
          expect({ title: alarmTitle(t, a), body: alarmBody(t, a) }, `${reader.language}/${reader.digits} ${JSON.stringify(words)}`).toEqual({
            title: write(words.title, reader),
            body: write(words.body, reader),
          });
        }
      }
      await startTexts({ language: "fr", digits: "latn" });
      const fr = i18n.getFixedT("fr", "alarms");
      const humidity = withWords("humidity_low", breachWords(NAME, "humidity_low", 78.44, config()));
      expect(alarmTitle(fr, humidity)).toBe("Oyster Room A : humidité basse");
      expect(alarmBody(fr, humidity)).toBe("L’humidité est de 78,4 %, sous 85 %.");
      await startTexts({ language: "ar", digits: "arab" });
      const ar = i18n.getFixedT("ar", "alarms");
      expect(alarmBody(ar, withWords("battery_low", batteryLowWords(NAME, 22.4)))).toBe("البطارية عند ٢٢%. استبدلها أو اشحنها قريبًا.");
      expect(alarmValue(ar, "co2", 1450)).toBe("١٤٥٠ ppm");
    } finally {
      await startTexts();
    }
  });

  it("keeps its copy of the server's alarm texts the same as the server's, in every language", () => {
    for (const language of LANGUAGES) {
      const server = flatten(textsOf(language, "server"));
      const copy = flatten((textsOf(language, "alarms") as { serverTexts: unknown }).serverTexts);
      for (const [key, text] of copy) expect(text, `${language}: alarms:serverTexts.${key} is server:${key}`).toBe(server.get(key));
    }
  });

  it("shows the stored title and body of an alarm without words, or with words this app does not know", () => {
    const en = i18n.getFixedT("en", "alarms");
    expect(alarmTitle(en, alarm)).toBe(alarm.title);
    expect(alarmBody(en, alarm)).toBe(alarm.body);
    const newer: AlarmWords = { title: { key: "alarms.somethingNew.title", values: { name: NAME } }, body: { key: "alarms.batteryLow.body", values: { level: 20, unit: { key: "units.fortnights" } } } };
    expect(alarmTitle(en, withWords("battery_low", newer))).toBe("stored title");
    expect(alarmBody(en, withWords("battery_low", newer))).toBe("stored body");
  });

  it("writes values as the alarm texts do", () => {
    const en = i18n.getFixedT("en", "alarms");
    for (const [metric, value] of [["co2", 1450.4], ["humidity", 78.46], ["temperature", -2.04], ["batteryLevel", 22.5], ["soilMoisture", 40]] as const)
      expect(alarmValue(en, metric, value)).toBe(formatMetricValue(metric, value));
  });
});
