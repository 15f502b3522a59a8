import { describe, expect, it } from "vitest";
import type { ProfileConfig } from "./entities.ts";
import { automationSwitch, inferWhy, readingValues, reasonText, SWITCH_RULES, switchWhy, whyNot, whyNotText } from "./switch-reasons.ts";

const CONFIG: ProfileConfig = {
  irrigation: { on_cycle_hours: 6, off_cycle_liters: 15, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 1000 },
  ac: { based_on: "room_temp", target_temp: 20 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 92 },
};
const SOIL: ProfileConfig = { ...CONFIG, ac: { based_on: "soil_temp", target_temp: 18 } };

describe("the switching rules", () => {
  it("switches the humidifier on below on-below and off above off-above, not at the limits", () => {
    expect(automationSwitch("Humidifier", false, CONFIG, { humidity: 84.9 })).toEqual({ rule: "humidity_below_on", value: 84.9, limit: 85 });
    expect(automationSwitch("Humidifier", false, CONFIG, { humidity: 85 })).toBeNull();
    expect(automationSwitch("Humidifier", true, CONFIG, { humidity: 92.1 })).toEqual({ rule: "humidity_above_off", value: 92.1, limit: 92 });
    expect(automationSwitch("Humidifier", true, CONFIG, { humidity: 92 })).toBeNull();
    // Already in the state the rule asks for: no switch.
    expect(automationSwitch("Humidifier", true, CONFIG, { humidity: 80 })).toBeNull();
    expect(automationSwitch("Humidifier", false, CONFIG, { humidity: 95 })).toBeNull();
  });

  it("runs the fans above the CO2 threshold and stops them below 80 % of it", () => {
    expect(automationSwitch("Ventilation", false, CONFIG, { co2: 1001 })).toEqual({ rule: "co2_above_threshold", value: 1001, limit: 1000 });
    expect(automationSwitch("Ventilation", false, CONFIG, { co2: 1000 })).toBeNull();
    expect(automationSwitch("Ventilation", true, CONFIG, { co2: 799 })).toEqual({ rule: "co2_below_off", value: 799, limit: 800 });
    expect(automationSwitch("Ventilation", true, CONFIG, { co2: 800 })).toBeNull();
  });

  it("keeps the AC's target ± 0.5 on the basis the config names", () => {
    expect(automationSwitch("AC", false, CONFIG, { temperature: 20.6, soil_temperature: 10 })).toEqual({ rule: "room_temperature_above", value: 20.6, limit: 20.5 });
    expect(automationSwitch("AC", false, CONFIG, { temperature: 20.5 })).toBeNull();
    expect(automationSwitch("AC", true, CONFIG, { temperature: 19.4, soil_temperature: 30 })).toEqual({ rule: "room_temperature_below", value: 19.4, limit: 19.5 });
    expect(automationSwitch("AC", true, CONFIG, { temperature: 19.5 })).toBeNull();
    // On soil temperature, the room's does not count.
    expect(automationSwitch("AC", false, SOIL, { temperature: 30, soil_temperature: 18.4 })).toBeNull();
    expect(automationSwitch("AC", false, SOIL, { temperature: 10, soil_temperature: 18.6 })).toEqual({ rule: "soil_temperature_above", value: 18.6, limit: 18.5 });
    expect(automationSwitch("AC", true, SOIL, { temperature: 30, soil_temperature: 17.4 })).toEqual({ rule: "soil_temperature_below", value: 17.4, limit: 17.5 });
  });

  it("waters when the cycle is due or the soil is dry, and stops at the liters or when the soil is moist", () => {
    expect(automationSwitch("Irrigation", false, CONFIG, { hours_since_irrigation: 6, soil_moisture: 50 })).toEqual({ rule: "irrigation_cycle_due", value: 6, limit: 6 });
    expect(automationSwitch("Irrigation", false, CONFIG, { hours_since_irrigation: 5.9, soil_moisture: 39.9 })).toEqual({ rule: "soil_moisture_below_on", value: 39.9, limit: 40 });
    expect(automationSwitch("Irrigation", false, CONFIG, { hours_since_irrigation: 5.9, soil_moisture: 40 })).toBeNull();
    expect(automationSwitch("Irrigation", true, CONFIG, { irrigation_liters: 15, soil_moisture: 50 })).toEqual({ rule: "irrigation_liters_reached", value: 15, limit: 15 });
    expect(automationSwitch("Irrigation", true, CONFIG, { irrigation_liters: 3, soil_moisture: 65 })).toEqual({ rule: "soil_moisture_above_off", value: 65, limit: 65 });
    expect(automationSwitch("Irrigation", true, CONFIG, { irrigation_liters: 3, soil_moisture: 64.9 })).toBeNull();
    // A due cycle does not restart a running session; the off-rules do not touch an idle one.
    expect(automationSwitch("Irrigation", true, CONFIG, { hours_since_irrigation: 9, soil_moisture: 30, irrigation_liters: 1 })).toBeNull();
    expect(automationSwitch("Irrigation", false, CONFIG, { hours_since_irrigation: 1, soil_moisture: 70, irrigation_liters: 20 })).toBeNull();
  });

  it("does not fire a rule whose value the reading lacks", () => {
    expect(automationSwitch("Humidifier", false, CONFIG, {})).toBeNull();
  });

  it("has ids a device's why accepts, each once", () => {
    const ids = SWITCH_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(switchWhy.allows({ rule: id, value: 1, limit: 2 })).toBe(true);
  });
});

describe("inferring a change's rule", () => {
  it("finds the rule of the direction the controller went, from the reading's values", () => {
    const values = readingValues({ DHT: { temperature: 21, humidity: 84.1 }, CO2: { co2: 700 }, MOISTURE: { soil_moisture: 66 } });
    expect(inferWhy("Humidifier", true, CONFIG, values)).toEqual({ rule: "humidity_below_on", value: 84.1, limit: 85 });
    expect(inferWhy("AC", true, CONFIG, values)).toEqual({ rule: "room_temperature_above", value: 21, limit: 20.5 });
    expect(inferWhy("Ventilation", false, CONFIG, values)).toEqual({ rule: "co2_below_off", value: 700, limit: 800 });
    expect(inferWhy("Irrigation", false, CONFIG, values)).toEqual({ rule: "soil_moisture_above_off", value: 66, limit: 65 });
  });

  it("answers null when no rule explains the change", () => {
    expect(inferWhy("Humidifier", true, CONFIG, { humidity: 88 })).toBeNull();
    expect(inferWhy("Humidifier", false, CONFIG, { humidity: 88 })).toBeNull();
    expect(inferWhy("AC", true, SOIL, { temperature: 30 })).toBeNull();
    // The cycle and the liters are the device's counts: not in a reading.
    expect(inferWhy("Irrigation", true, CONFIG, { soil_moisture: 50 })).toBeNull();
  });
});

describe("a reason in words", () => {
  it("says the rule, the value and the limit", () => {
    const why = { rule: "humidity_below_on", value: 84.1, limit: 85 };
    expect(reasonText({ target: "Humidifier", on: true, source: "automation", actor: null, why })).toBe("Humidifier on: humidity 84.1 % below 85 %");
    expect(reasonText({ target: "Humidifier", on: true, source: "automation", actor: null, why: { ...why, phase: "Fruiting, day 3" } })).toBe(
      "Humidifier on: humidity 84.1 % below 85 % — Fruiting, day 3",
    );
    expect(reasonText({ target: "Humidifier", on: true, source: "automation", actor: null, why: { ...why, inferred: true, phase: "Fruiting, day 3" } })).toBe(
      "Humidifier on: humidity 84.1 % below 85 % (inferred) — Fruiting, day 3",
    );
  });

  it("words every rule", () => {
    const say = (target: "AC" | "Ventilation" | "Irrigation", on: boolean, rule: string, value: number, limit: number) =>
      reasonText({ target, on, source: "automation", actor: null, why: { rule, value, limit } });
    expect(say("Ventilation", true, "co2_above_threshold", 1012.4, 1000)).toBe("Ventilation on: CO2 1012 ppm above 1000 ppm");
    expect(say("Ventilation", false, "co2_below_off", 790, 800)).toBe("Ventilation off: CO2 790 ppm below 800 ppm");
    expect(say("AC", true, "room_temperature_above", 20.63, 20.5)).toBe("AC on: room temperature 20.6 °C above 20.5 °C");
    expect(say("AC", false, "soil_temperature_below", 17.4, 17.5)).toBe("AC off: soil temperature 17.4 °C below 17.5 °C");
    expect(say("Irrigation", true, "irrigation_cycle_due", 6.01, 6)).toBe("Irrigation on: 6.0 h since the last watering (cycle 6 h)");
    expect(say("Irrigation", true, "soil_moisture_below_on", 39.5, 40)).toBe("Irrigation on: soil moisture 39.5 % below 40 %");
    expect(say("Irrigation", false, "irrigation_liters_reached", 15.02, 15)).toBe("Irrigation off: 15.0 L delivered (session 15 L)");
    expect(say("Irrigation", false, "soil_moisture_above_off", 65.2, 65)).toBe("Irrigation off: soil moisture 65.2 % at or above 65 %");
  });

  it("never rounds a value onto its limit", () => {
    expect(reasonText({ target: "Humidifier", on: true, source: "automation", actor: null, why: { rule: "humidity_below_on", value: 84.96, limit: 85 } })).toBe(
      "Humidifier on: humidity 84.96 % below 85 %",
    );
    expect(reasonText({ target: "Ventilation", on: false, source: "automation", actor: null, why: { rule: "co2_below_off", value: 639.94, limit: 640 } })).toBe(
      "Ventilation off: CO2 639.9 ppm below 640 ppm",
    );
  });

  it("names the person who switched, and has nothing to say of an automation switch with no reason", () => {
    expect(reasonText({ target: "AC", on: false, source: "user", actor: "sam", why: null })).toBe("AC off: switched by sam");
    expect(reasonText({ target: "AC", on: false, source: "automation", actor: null, why: null })).toBeNull();
  });
});

describe("why not", () => {
  it("puts the reading against the band", () => {
    expect(whyNotText(whyNot("Humidifier", false, CONFIG, { humidity: 88.2 }))).toBe("Humidifier off: humidity 88.2 % is within 85–92 %");
    expect(whyNotText(whyNot("Humidifier", true, CONFIG, { humidity: 83 }))).toBe("Humidifier on: humidity 83.0 % is below 85 %");
    expect(whyNotText(whyNot("Ventilation", false, CONFIG, { co2: 900 }))).toBe("Ventilation off: CO2 900 ppm is within 800–1000 ppm");
    expect(whyNotText(whyNot("AC", true, SOIL, { temperature: 25, soil_temperature: 19 }))).toBe("AC on: soil temperature 19.0 °C is above 18.5 °C");
    expect(whyNotText(whyNot("Irrigation", false, CONFIG, { soil_moisture: 52 }), false)).toBe("Irrigation off (automation off): soil moisture 52.0 % is within 40–65 %");
    expect(whyNotText(whyNot("AC", false, CONFIG, {}))).toBe("AC off: no room temperature reading");
  });
});
