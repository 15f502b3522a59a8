import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sensorTotals } from "../../../streams/card-view.ts";
import { startTexts } from "../../../test-support/i18n.ts";
import { sensorCountLabel, unregisteredSensors } from "./sensor-totals.ts";

beforeAll(() => startTexts());

const NONE = { CO2: 0, Humidity: 0, Soil_temp: 0, Moisture: 0 };

describe("sensorCountLabel", () => {
  it("reads reporting / registered sensors when the MCU knows every sensor that reports", () => {
    expect(sensorCountLabel(1, 2)).toBe("1/2 sensors");
    expect(sensorCountLabel(2, 2)).toBe("2/2 sensors");
    expect(sensorCountLabel(0, 1)).toBe("0/1 sensors");
  });

  it("never shows a total below the reporting count", () => {
    expect(sensorCountLabel(1, 0)).toBe("1/1 sensors");
    expect(sensorCountLabel(3, 1)).toBe("3/3 sensors");
  });

  describe("in Arabic", () => {
    afterAll(() => startTexts());
    it("names the sensors in the form the total needs, in the chosen digits", async () => {
      await startTexts({ language: "ar", digits: "arab" });
      expect(sensorCountLabel(2, 3)).toBe("٢/٣ حساسات");
      expect(sensorCountLabel(1, 1)).toBe("١/١ حساس");
    });
  });
});

describe("unregisteredSensors", () => {
  it("counts each sensor a newly claimed MCU reports once, temperature and humidity being one sensor", () => {
    const reading = { DHT: { temperature: 20, humidity: 88, count: 1 }, SOIL_TEMP: { soil_temperature: 19, count: 1 }, CO2: { co2: 800, count: 1 }, MOISTURE: { soil_moisture: 50, count: 1 } };
    expect(unregisteredSensors(reading, NONE)).toBe(4);
  });

  it("counts only what reports beyond the registered sensors of each type", () => {
    const reading = { DHT: { temperature: 20, humidity: 88, count: 2 }, CO2: { co2: 800, count: 1 } };
    expect(unregisteredSensors(reading, { ...NONE, Humidity: 1, CO2: 2 })).toBe(1);
    expect(unregisteredSensors(reading, { ...NONE, Humidity: 2, CO2: 1 })).toBe(0);
    expect(unregisteredSensors({}, NONE)).toBe(0);
  });
});

describe("sensorTotals", () => {
  it("counts the registered sensors of each type", () => {
    const s = (type: "CO2" | "Humidity") => ({ sensor_id: 1, name: "", mac: "", type, mcu_id: 1, mcu_name: null, createdAt: "", updatedAt: "" });
    expect(sensorTotals([s("Humidity"), s("Humidity"), s("CO2")])).toEqual({ CO2: 1, Humidity: 2, Soil_temp: 0, Moisture: 0 });
  });
});
