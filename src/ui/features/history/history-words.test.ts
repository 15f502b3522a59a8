import { beforeAll, describe, expect, it } from "vitest";
import type { ProfileConfig } from "../../../contract/entities.ts";
import { STATE_TARGETS } from "../../../contract/history-values.ts";
import { reasonText, SWITCH_RULES, whyNot, whyNotText } from "../../../contract/switch-reasons-values.ts";
import { startTexts } from "../../../test-support/i18n.ts";
import { i18n } from "../../i18n/i18n.ts";
import { switchReasonWords, whyNotWords } from "./history-words.ts";

beforeAll(() => startTexts());
const en = () => i18n.getFixedT("en", "history");

const CONFIG: ProfileConfig = {
  irrigation: { on_cycle_hours: 6, off_cycle_liters: 15, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 1200 },
  ac: { based_on: "room_temp", target_temp: 18.5 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 92 },
};

describe("a switch's reason in words", () => {
  it("says in English what the contract's sentence says, for every rule, near and far from its limit", () => {
    for (const rule of SWITCH_RULES) {
      for (const [value, limit] of [
        [84.96, 85],
        [85.04, 85],
        [1450.4, 1200],
        [6.2, 6],
        [17.99, 18],
      ] as const) {
        for (const extra of [{}, { inferred: true }, { phase: "Fruiting, day 3" }]) {
          const s = { target: rule.target, on: rule.on, source: "automation" as const, actor: null, why: { rule: rule.id, value, limit, ...extra } };
          expect(switchReasonWords(en(), s)).toBe(reasonText(s));
        }
      }
    }
    const user = { target: "AC", on: false, source: "user", actor: "demo", why: null } as const;
    expect(switchReasonWords(en(), user)).toBe("AC off: switched by demo");
    const unknown = { target: "AC", on: true, source: "automation", actor: null, why: { rule: "door_open", value: 3, limit: 2.5 } } as const;
    expect(switchReasonWords(en(), unknown)).toBe(reasonText(unknown));
  });

  it("says in English why each controller is on or off as the contract does", () => {
    for (const target of STATE_TARGETS)
      for (const values of [{}, { humidity: 80.04, co2: 700, temperature: 18.46, soil_moisture: 70 }, { humidity: 95, co2: 1500.6, temperature: 25, soil_moisture: 30 }])
        for (const status of [true, false])
          for (const auto of [true, false]) {
            const fact = whyNot(target, status, CONFIG, values);
            expect(whyNotWords(en(), fact, auto)).toBe(whyNotText(fact, auto));
          }
  });

  it("speaks the reader's language and digits", async () => {
    await startTexts({ language: "ar", digits: "arab" });
    try {
      const s = { target: "Humidifier", on: true, source: "automation", actor: null, why: { rule: "humidity_below_on", value: 84.1, limit: 85 } } as const;
      expect(switchReasonWords(i18n.getFixedT("ar", "history"), s)).toBe("المرطّب: تشغيل — الرطوبة ٨٤٫١ % دون ٨٥ %");
    } finally {
      await startTexts();
    }
  });
});
