import { describe, expect, it } from "vitest";
import type { Alarm } from "../../../contract/alarms-values.ts";
import { filterQuery, filtersFrom, filtersToParams, matchesFilters, NO_ALARM_FILTERS } from "./alarm-filters.ts";

const alarm = { alarm_id: 1, kind: "co2_high", mcu_id: 12, farm_id: 3 } as Alarm;

describe("the Alarms page's filters", () => {
  it("reads the filters from the address and writes them back", () => {
    const f = filtersFrom(new URLSearchParams("farm=3&mcu=12&kind=co2_high"));
    expect(f).toEqual({ farmId: 3, mcuId: 12, kind: "co2_high" });
    expect(filtersToParams(f).toString()).toBe("farm=3&mcu=12&kind=co2_high");
    expect(filtersToParams(NO_ALARM_FILTERS).toString()).toBe("");
  });

  it("takes a value that names nothing for no filter", () => {
    expect(filtersFrom(new URLSearchParams("farm=abc&mcu=0&kind=fire"))).toEqual(NO_ALARM_FILTERS);
    expect(filtersFrom(new URLSearchParams("farm=-1&mcu=1e3"))).toEqual(NO_ALARM_FILTERS);
  });

  it("matches an alarm by its farm, MCU and kind", () => {
    expect(matchesFilters(alarm, NO_ALARM_FILTERS)).toBe(true);
    expect(matchesFilters(alarm, { farmId: 3, mcuId: 12, kind: "co2_high" })).toBe(true);
    expect(matchesFilters(alarm, { ...NO_ALARM_FILTERS, farmId: 4 })).toBe(false);
    expect(matchesFilters(alarm, { ...NO_ALARM_FILTERS, mcuId: 13 })).toBe(false);
    expect(matchesFilters(alarm, { ...NO_ALARM_FILTERS, kind: "mcu_offline" })).toBe(false);
  });

  it("asks the server with its parameter names, only those set", () => {
    expect(filterQuery({ farmId: 3, mcuId: null, kind: "battery_low" })).toEqual({ farm_id: 3, kind: "battery_low" });
    expect(filterQuery(NO_ALARM_FILTERS)).toEqual({});
  });
});
