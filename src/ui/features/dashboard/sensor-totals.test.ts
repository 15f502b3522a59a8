import { describe, expect, it } from "vitest";
import { sensorTotals } from "../../../streams/card-view.ts";
import { sensorCountLabel } from "./sensor-totals.ts";

describe("sensorCountLabel", () => {
  it("reads reporting / registered sensors when the MCU knows every sensor that reports", () => {
    expect(sensorCountLabel(1, 2)).toEqual({ text: "1/2 sensors", unregistered: 0 });
    expect(sensorCountLabel(2, 2)).toEqual({ text: "2/2 sensors", unregistered: 0 });
    expect(sensorCountLabel(0, 1)).toEqual({ text: "0/1 sensors", unregistered: 0 });
  });

  it("never shows a total below the reporting count, and counts the sensors not registered", () => {
    expect(sensorCountLabel(1, 0)).toEqual({ text: "1/1 sensors", unregistered: 1 });
    expect(sensorCountLabel(3, 1)).toEqual({ text: "3/3 sensors", unregistered: 2 });
  });
});

describe("sensorTotals", () => {
  it("counts the registered sensors of each type", () => {
    const s = (type: "CO2" | "Humidity") => ({ sensor_id: 1, name: "", mac: "", type, mcu_id: 1, mcu_name: null, createdAt: "", updatedAt: "" });
    expect(sensorTotals([s("Humidity"), s("Humidity"), s("CO2")])).toEqual({ CO2: 1, Humidity: 2, Soil_temp: 0, Moisture: 0 });
  });
});
