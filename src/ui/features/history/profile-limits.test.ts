import { beforeAll, describe, expect, it } from "vitest";
import type { ProfileConfig } from "../../../contract/entities.ts";
import type { HistoryMetric } from "../../../contract/history-values.ts";
import { startTexts } from "../../../test-support/i18n.ts";
import { i18n } from "../../i18n/i18n.ts";
import { limitsFor as limitsIn } from "./profile-limits.ts";

beforeAll(() => startTexts());
const limitsFor = (metric: HistoryMetric, config: ProfileConfig | null) => limitsIn(i18n.getFixedT("en", "history"), metric, config);

const PROFILE: ProfileConfig = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 800 },
  ac: { based_on: "room_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 93 },
};

describe("the limits drawn on a chart", () => {
  it("bands humidity and soil moisture between where the automation switches on and off", () => {
    expect(limitsFor("humidity", PROFILE)).toEqual({ band: { low: 85, high: 93 }, line: null, text: "Profile: humidifier on below 85 %, off above 93 %", fromProfile: true });
    expect(limitsFor("soil_moisture", PROFILE)?.band).toEqual({ low: 40, high: 65 });
  });

  it("draws the CO2 threshold as a line", () => {
    expect(limitsFor("co2", PROFILE)).toMatchObject({ band: null, line: 800, text: "Profile: ventilation above 800 ppm" });
  });

  it("bands the AC's target ± 2 °C on the temperature its profile is based on, and on that one only", () => {
    expect(limitsFor("temperature", PROFILE)).toMatchObject({ band: { low: 16, high: 20 }, line: 18, text: "Profile: AC target 18 °C (± 2 °C)" });
    expect(limitsFor("soil_temperature", PROFILE)).toBeNull();
    const soil = { ...PROFILE, ac: { based_on: "soil_temp", target_temp: 16 } } as const;
    expect(limitsFor("soil_temperature", soil)?.band).toEqual({ low: 14, high: 18 });
    expect(limitsFor("temperature", soil)).toBeNull();
  });

  it("draws nothing of a profile when none is linked, and the battery's low mark always", () => {
    expect(limitsFor("humidity", null)).toBeNull();
    expect(limitsFor("battery", null)).toEqual({ band: null, line: 30, text: "Low battery below 30 %", fromProfile: false });
  });
});
