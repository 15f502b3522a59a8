import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { thresholdBreaches } from "../../../contract/conditions.ts";
import type { ProfileConfig } from "../../../contract/entities.ts";
import { startTexts } from "../../../test-support/i18n.ts";
import { formatFixedUngrouped } from "../../i18n/format.ts";
import { agoText, breachText, countsText, formatValue, growText, orderedBreaches, outOfProfileLine, rotateText } from "./wall-text.ts";
import { parseRotate } from "./use-rotation.ts";

beforeAll(() => startTexts());

const PROFILE: ProfileConfig = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 1200 },
  ac: { based_on: "soil_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 93 },
};

describe("what a wall tile says of a value outside the profile", () => {
  it("names the value, what it is and the limit it crosses", () => {
    const reading = { DHT: { temperature: 18, humidity: 78, count: 1 }, CO2: { co2: 1450, count: 1 }, SOIL_TEMP: { soil_temperature: 21.26, count: 1 }, MOISTURE: { soil_moisture: 31, count: 1 } };
    const texts = thresholdBreaches("", reading, PROFILE).map((b) => breachText(b, reading));
    expect(texts).toEqual(["Humidity 78.0 % — below 85 %", "CO2 1450 ppm — above 1200 ppm", "Soil moisture 31.0 % — below 40 %", "Soil temp. 21.3 °C — target 18 °C"]);
  });

  it("says in words how many values are out of profile when there are several, before naming the first", () => {
    const reading = { DHT: { temperature: 18, humidity: 78, count: 1 }, CO2: { co2: 1450, count: 1 } };
    const texts = orderedBreaches(thresholdBreaches("", reading, PROFILE)).map((b) => breachText(b, reading));
    expect(outOfProfileLine(texts)).toBe("2 values out of profile: Humidity 78.0 % — below 85 %");
    expect(outOfProfileLine(texts.slice(0, 1))).toBe("Humidity 78.0 % — below 85 %");
    expect(outOfProfileLine(texts)).not.toMatch(/\(\+\d+\)/);
  });

  it("names first what no cell of the tile shows (soil moisture)", () => {
    const reading = { DHT: { temperature: 18, humidity: 78, count: 1 }, MOISTURE: { soil_moisture: 31, count: 1 } };
    expect(orderedBreaches(thresholdBreaches("", reading, PROFILE)).map((b) => b.metric)).toEqual(["soilMoisture", "humidity"]);
  });
});

describe("the wall's words", () => {
  it("counts what needs someone and leaves out what is zero", () => {
    expect(countsText({ mcus: 24, outOfProfile: 2, offline: 1, lowBattery: 0 })).toBe("24 MCUs · 2 out of profile · 1 offline");
    expect(countsText({ mcus: 1, outOfProfile: 0, offline: 0, lowBattery: 1 })).toBe("1 MCU · 1 low battery");
  });

  it("says how old the data is in words read from across a room", () => {
    expect(agoText(20_000)).toBe("less than a minute ago");
    expect(agoText(3 * 60_000 + 59_000)).toBe("3 min ago");
    expect(agoText(125 * 60_000)).toBe("2 h 5 min ago");
    expect(agoText(180 * 60_000)).toBe("3 h ago");
    expect(agoText(50 * 3600_000)).toBe("2 days ago");
    expect(agoText(-5_000)).toBe("less than a minute ago");
  });

  it("says where the batch a room follows is, as the batches' cards do", () => {
    expect(growText({ state: "day", phase: "Fruiting", day: 3, days: 7 })).toBe("Fruiting · day 3 of 7");
    expect(growText({ state: "waiting", phase: "Pinning", day: 2, confirm: "Pins visible" })).toBe("Pinning · day 2 · waiting: Pins visible");
    expect(growText({ state: "held", phase: "Fruiting" })).toBe("Fruiting · on hold");
  });

  it("takes the rotation interval from the address: whole seconds from 5 to an hour, 0 for off", () => {
    expect(parseRotate("30")).toBe(30);
    expect(parseRotate("0")).toBe(0);
    for (const bad of [null, "", "2", "3601", "1e3", "-10", "ten"]) expect(parseRotate(bad)).toBe(20);
  });
});

describe("the wall's words in French and Arabic", () => {
  afterAll(() => startTexts());

  it("says the same in French, with French decimals", async () => {
    await startTexts({ language: "fr", digits: "latn" });
    const reading = { DHT: { temperature: 18, humidity: 78, count: 1 }, CO2: { co2: 1450, count: 1 } };
    const texts = orderedBreaches(thresholdBreaches("", reading, PROFILE)).map((b) => breachText(b, reading));
    // A no-break space keeps each unit with its number.
    expect(outOfProfileLine(texts)).toBe("2 valeurs hors profil : Humidité 78,0\u00a0% — sous 85\u00a0%");
    expect(countsText({ mcus: 24, outOfProfile: 1, offline: 0, lowBattery: 2 })).toBe("24 MCU · 1 hors profil · 2 batteries faibles");
    expect(agoText(125 * 60_000)).toBe("il y a 2 h 5 min");
    expect(rotateText(0)).toBe("Jamais");
    expect(rotateText(90)).toBe("1,5 min");
  });

  it("says it in Arabic, in Arabic-Indic digits when chosen, with the plural form each count needs", async () => {
    await startTexts({ language: "ar", digits: "arab" });
    const reading = { DHT: { temperature: 18, humidity: 78, count: 1 }, CO2: { co2: 1450, count: 1 } };
    const texts = orderedBreaches(thresholdBreaches("", reading, PROFILE)).map((b) => breachText(b, reading));
    // The unit is isolated left to right ("°C" must not turn into "C°" in a right-to-left line).
    expect(texts).toEqual(["الرطوبة ٧٨٫٠ \u2066%\u2069 — أقل من ٨٥ %", "CO2 ١٤٥٠ \u2066ppm\u2069 — أعلى من ١٢٠٠ ppm"]);
    // A mark ends "MCU" right to left, so the next count is not drawn into its left-to-right run; the
    // parts are parted by a comma (a middle dot beside Arabic-Indic digits reads as a zero).
    expect(countsText({ mcus: 3, outOfProfile: 0, offline: 1, lowBattery: 0 })).toBe("٣ وحدات MCU\u200f، ١ غير متصلة");
    expect(countsText({ mcus: 11, outOfProfile: 0, offline: 0, lowBattery: 0 })).toBe("١١ وحدة MCU\u200f");
    expect(agoText(5 * 24 * 3600_000)).toBe("منذ ٥ أيام");
    expect(agoText(11 * 24 * 3600_000)).toBe("منذ ١١ يومًا");

    await startTexts({ language: "ar", digits: "latn" });
    expect(countsText({ mcus: 3, outOfProfile: 0, offline: 0, lowBattery: 0 })).toBe("3 وحدات MCU\u200f");
  });
});

describe("a tile's values", () => {
  it("are written by the app's ungrouped fixed-decimals formatter (one cache of formatters, not a second)", () => {
    expect(formatValue).toBe(formatFixedUngrouped);
    expect(formatValue(1350, 0)).toBe("1350");
  });
});
