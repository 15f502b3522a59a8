import { describe, expect, it } from "vitest";
import { farmStatusOf, isLowBattery, needsAttention, thresholdBreaches } from "./conditions.ts";
import type { ProfileConfig } from "./entities.ts";

const config: ProfileConfig = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 10, soil_moisture_on: 40, soil_moisture_off: 60 },
  ventilation: { co2_threshold: 1200 },
  ac: { based_on: "soil_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 92 },
};

describe("profile conditions", () => {
  it("names the card value and the limit of each breach", () => {
    const breaches = thresholdBreaches("Room", { CO2: { co2: 1500, count: 1 }, SOIL_TEMP: { soil_temperature: 25, count: 1 } }, config);
    expect(breaches.map((b) => [b.metric, b.limit])).toEqual([
      ["co2", "above 1200 ppm"],
      ["soilTemperature", "target 18 °C"],
    ]);
  });

  it("leaves the automation its switching band before a value counts as out of profile", () => {
    const near = { DHT: { temperature: 18, humidity: 83.5, count: 1 }, CO2: { co2: 1300, count: 1 }, MOISTURE: { soil_moisture: 37.5, count: 1 } };
    expect(thresholdBreaches("Room", near, config)).toEqual([]);
    const beyond = { DHT: { temperature: 18, humidity: 82.9, count: 1 }, CO2: { co2: 1321, count: 1 }, MOISTURE: { soil_moisture: 36.9, count: 1 } };
    expect(thresholdBreaches("Room", beyond, config).map((b) => b.type)).toEqual(["humidity_low", "co2_high", "soil_moisture_low"]);
  });

  it("counts a battery below 30 % as low, and 30 % as not", () => {
    expect(isLowBattery({ batteryLevel: 29.9 })).toBe(true);
    expect(isLowBattery({ batteryLevel: 30 })).toBe(false);
    expect(isLowBattery(null)).toBe(false);
  });

  it("needs attention for a breach or a low battery, not without a reading", () => {
    expect(needsAttention({ CO2: { co2: 900, count: 1 }, batteryLevel: 80 }, config)).toBe(false);
    expect(needsAttention({ CO2: { co2: 1400, count: 1 } }, config)).toBe(true);
    expect(needsAttention({ batteryLevel: 12 }, null)).toBe(true);
    expect(needsAttention(null, config)).toBe(false);
  });
});

describe("farm status", () => {
  it("is offline only when every MCU is offline", () => {
    expect(farmStatusOf([{ online: false, attention: true }, { online: false, attention: false }])).toBe("offline");
    expect(farmStatusOf([{ online: false, attention: false }, { online: true, attention: false }])).toBe("active");
  });

  it("is warning while an online MCU needs attention", () => {
    expect(farmStatusOf([{ online: true, attention: true }, { online: true, attention: false }])).toBe("warning");
    // An offline MCU's last reading is not news: its being offline is.
    expect(farmStatusOf([{ online: false, attention: true }, { online: true, attention: false }])).toBe("active");
  });

  it("is active without MCUs", () => {
    expect(farmStatusOf([])).toBe("active");
  });
});
