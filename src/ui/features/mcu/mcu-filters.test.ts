import { describe, expect, it } from "vitest";
import type { Mcu } from "../../../contract/entities.ts";
import { matchesMcuQuery as matchesFilters } from "../../../streams/fleet.ts";
import { isFiltering, mcuFiltersFrom, mcuFiltersToParams, NO_FILTERS } from "./mcu-filters.ts";

const mcu = (over: Partial<Mcu>): Mcu => ({
  mcu_id: 17,
  name: "Oyster Room A",
  mac: "02:4D:46:00:00:0A",
  farm_id: 3,
  farm: { name: "Cedar Cellar" },
  client_id: 1,
  status: "online",
  readings: null,
  lastSeen: null,
  controllers: [],
  sensors: [],
  profile_links: [],
  createdAt: "2025-01-01T00:00:00Z",
  updatedAt: "2025-01-01T00:00:00Z",
  ...over,
});

describe("matchesFilters", () => {
  const room = mcu({});

  it("matches everything without filters", () => {
    expect(matchesFilters(room, NO_FILTERS)).toBe(true);
    expect(isFiltering(NO_FILTERS)).toBe(false);
    expect(isFiltering({ ...NO_FILTERS, search: "  " })).toBe(false);
  });

  it("searches name, ID and MAC case-insensitively", () => {
    expect(matchesFilters(room, { ...NO_FILTERS, search: "oyster room" })).toBe(true);
    expect(matchesFilters(room, { ...NO_FILTERS, search: "17" })).toBe(true);
    expect(matchesFilters(room, { ...NO_FILTERS, search: "00:0a" })).toBe(true);
    expect(matchesFilters(room, { ...NO_FILTERS, search: "46-00-00-0A" })).toBe(true);
    expect(matchesFilters(room, { ...NO_FILTERS, search: "shiitake" })).toBe(false);
    expect(matchesFilters(room, { ...NO_FILTERS, search: "18" })).toBe(false);
  });

  it("filters on the live status the badge shows: a reporting MCU is Online whatever its record says", () => {
    const record = mcu({ status: "active" });
    const reporting = { mac: record.mac, mcuId: 17, readings: {}, status: "online", lastReadingAt: 1, online: true, pending: null };
    expect(matchesFilters(record, { ...NO_FILTERS, status: "online" }, reporting)).toBe(true);
    expect(matchesFilters(record, { ...NO_FILTERS, status: "offline" }, reporting)).toBe(false);
    expect(matchesFilters(record, { ...NO_FILTERS, status: "offline" }, { ...reporting, online: false })).toBe(true);
  });

  it("lists under Active every MCU at work: online (the Dashboard's Active MCUs) or new and not yet reported", () => {
    const record = mcu({ status: "active" });
    const reporting = { mac: record.mac, mcuId: 17, readings: {}, status: "online", lastReadingAt: 1, online: true, pending: null };
    const active = { ...NO_FILTERS, status: "active" as const };
    expect(matchesFilters(record, active, reporting)).toBe(true);
    expect(matchesFilters(record, active)).toBe(true);
    expect(matchesFilters(record, active, { ...reporting, readings: null, status: "active", lastReadingAt: null, online: false })).toBe(true);
    expect(matchesFilters(record, active, { ...reporting, online: false })).toBe(false);
    expect(matchesFilters(mcu({ status: "maintenance" }), active, reporting)).toBe(false);
    // Online stays the badge's own: a new MCU that has not reported is not online.
    expect(matchesFilters(record, { ...NO_FILTERS, status: "online" })).toBe(false);
  });

  it("filters on the MCU's status field and its farm", () => {
    expect(matchesFilters(room, { ...NO_FILTERS, status: "online" })).toBe(true);
    expect(matchesFilters(room, { ...NO_FILTERS, status: "offline" })).toBe(false);
    expect(matchesFilters(room, { ...NO_FILTERS, farmId: "3" })).toBe(true);
    expect(matchesFilters(room, { ...NO_FILTERS, farmId: "4" })).toBe(false);
    expect(matchesFilters(room, { search: "room", status: "online", farmId: "4" })).toBe(false);
  });
});

describe("the filters in the address", () => {
  it("reads back what it wrote, and leaves out what is not filtered", () => {
    const filters = { search: "oyster room", status: "active" as const, farmId: "3" };
    const params = mcuFiltersToParams(filters);
    expect(params.toString()).toBe("q=oyster+room&status=active&farm=3");
    expect(mcuFiltersFrom(params)).toEqual(filters);
    expect(mcuFiltersToParams(NO_FILTERS).toString()).toBe("");
    expect(mcuFiltersFrom(new URLSearchParams())).toEqual(NO_FILTERS);
  });

  it("takes a value that names nothing as no filter", () => {
    expect(mcuFiltersFrom(new URLSearchParams("status=sleeping&farm=abc"))).toEqual(NO_FILTERS);
    expect(mcuFiltersFrom(new URLSearchParams("farm=0"))).toEqual(NO_FILTERS);
  });
});
