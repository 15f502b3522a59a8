import { type } from "arktype";
import { describe, expect, it } from "vitest";
import { checkTelemetry, telemetryMessage } from "./mqtt.ts";

const reading = () => ({ DHT: { temperature: 21.5, humidity: 86, count: 3 }, CO2: { co2: 900, count: 1 }, Irrigation: { status: true, auto: true, session: false }, batteryLevel: 77 });

describe("telemetry check on the ingest path", () => {
  it("answers a valid reading with only declared keys as it is, unchanged", () => {
    const json = reading();
    expect(checkTelemetry(json)).toBe(json);
    expect(json).toEqual(reading());
  });

  it("strips undeclared keys as the schema does", () => {
    const json = { ...reading(), firmware: "1.2.3", lastUpdated: "1999-01-01T00:00:00.000Z" };
    const checked = checkTelemetry(json);
    expect(checked).toEqual(reading());
    expect(checked).toEqual(telemetryMessage({ ...reading(), firmware: "1.2.3", lastUpdated: "1999-01-01T00:00:00.000Z" }));
  });

  it("refuses what the schema refuses, with or without undeclared keys", () => {
    for (const bad of [{ batteryLevel: 500 }, { DHT: { temperature: "hot", humidity: 50, count: 1 } }, { CO2: { co2: -1, count: 1 }, extra: true }, null, "online", 42]) {
      expect(checkTelemetry(bad), JSON.stringify(bad)).toBeInstanceOf(type.errors);
    }
  });

  it("takes a controller's why, the rule its automation switched by (any short rule id, so a newer device's is not refused), and refuses a malformed one", () => {
    const switched = { Humidifier: { status: true, auto: true, why: { rule: "humidity_below_on", value: 84.1, limit: 85 } } };
    expect(checkTelemetry(structuredClone(switched))).toEqual(switched);
    const newer = { AC: { status: false, auto: true, why: { rule: "dew_point_below", value: 3, limit: 4 } } };
    expect(checkTelemetry(structuredClone(newer))).toEqual(newer);
    expect(checkTelemetry({ AC: { status: false, auto: true, why: { rule: "x", value: "3", limit: 4 } } })).toBeInstanceOf(type.errors);
    expect(checkTelemetry({ AC: { status: false, auto: true, why: { rule: "", value: 3, limit: 4 } } })).toBeInstanceOf(type.errors);
  });
});
