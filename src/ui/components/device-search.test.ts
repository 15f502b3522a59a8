import { describe, expect, it } from "vitest";
import { ALL_TYPES, matchesDevice } from "./device-search.ts";

const pump = { name: "Main Pump", mac: "02:4D:46:00:02:02", type: "Irrigation" };

describe("controller and sensor search", () => {
  it("matches the name or the MAC, ignoring case", () => {
    expect(matchesDevice(pump, "main", ALL_TYPES)).toBe(true);
    expect(matchesDevice(pump, "PUMP", ALL_TYPES)).toBe(true);
    expect(matchesDevice(pump, "4d:46:00:02", ALL_TYPES)).toBe(true);
    expect(matchesDevice(pump, "  02:4d  ", ALL_TYPES)).toBe(true);
    expect(matchesDevice(pump, "fan", ALL_TYPES)).toBe(false);
  });

  it("does not search the type, which has its own filter", () => {
    expect(matchesDevice(pump, "irrigation", ALL_TYPES)).toBe(false);
  });

  it("keeps only the chosen type unless the filter is All", () => {
    expect(matchesDevice(pump, "", "Irrigation")).toBe(true);
    expect(matchesDevice(pump, "", "Ac")).toBe(false);
    expect(matchesDevice(pump, "pump", "Ac")).toBe(false);
    expect(matchesDevice(pump, "", ALL_TYPES)).toBe(true);
  });
});
