import { beforeAll, describe, expect, it } from "vitest";
import type { Alarm } from "../../../contract/alarms-values.ts";
import { formatMetricValue } from "../../../contract/alarms-values.ts";
import { startTexts } from "../../../test-support/i18n.ts";
import { i18n } from "../../i18n/i18n.ts";
import { alarmBody, alarmTitle, alarmValue } from "./alarm-words.ts";

beforeAll(() => startTexts());

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

describe("an alarm in the reader's words", () => {
  it("reads the server's own words in English, and writes values as they do", () => {
    const en = i18n.getFixedT("en", "alarms");
    expect(alarmTitle(en, "en", alarm)).toBe(alarm.title);
    expect(alarmBody(en, "en", alarm)).toBe(alarm.body);
    for (const [metric, value] of [["co2", 1450.4], ["humidity", 78.46], ["temperature", -2.04], ["batteryLevel", 22.5], ["soilMoisture", 40]] as const)
      expect(alarmValue(en, metric, value)).toBe(formatMetricValue(metric, value));
  });

  it("says it again from its fields in another language, in the reader's digits", async () => {
    await startTexts({ language: "fr", digits: "latn" });
    try {
      const fr = i18n.getFixedT("fr", "alarms");
      expect(alarmTitle(fr, "fr", alarm)).toBe("Oyster Room A\u00a0: humidité basse");
      expect(alarmBody(fr, "fr", alarm)).toBe("Humidité\u00a0: 78,4\u00a0% à l'ouverture de l'alarme, sous la limite du profil.");
      expect(alarmTitle(fr, "fr", { ...alarm, kind: "sensor_stuck", metric: "co2" })).toBe("Oyster Room A\u00a0: capteur de CO2 figé");
      expect(alarmBody(fr, "fr", { ...alarm, kind: "mcu_offline", metric: null, opened_value: null })).toBe("Oyster Room A (North Barn) ne transmet plus.");
      await startTexts({ language: "ar", digits: "arab" });
      const ar = i18n.getFixedT("ar", "alarms");
      expect(alarmValue(ar, "co2", 1450)).toBe("١٤٥٠ ppm");
    } finally {
      await startTexts();
    }
  });
});
