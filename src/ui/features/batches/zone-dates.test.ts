import { describe, expect, it } from "vitest";
import { fromDateTimeLocal, startOfLocalDay, toDateTimeLocal } from "./zone-dates.ts";

describe("a batch's start typed as the room's clock reads", () => {
  it("reads a datetime-local value in the batch's time zone", () => {
    expect(new Date(fromDateTimeLocal("2026-12-02T08:00", "Asia/Beirut")).toISOString()).toBe("2026-12-02T06:00:00.000Z");
    expect(new Date(fromDateTimeLocal("2026-07-02T08:00", "Europe/Berlin")).toISOString()).toBe("2026-07-02T06:00:00.000Z");
    expect(fromDateTimeLocal("2026-12-02", "UTC")).toBeNaN();
  });

  it("writes an instant as that zone's wall clock, and back", () => {
    const ms = Date.parse("2026-12-02T06:00:00Z");
    expect(toDateTimeLocal(ms, "Asia/Beirut")).toBe("2026-12-02T08:00");
    expect(fromDateTimeLocal(toDateTimeLocal(ms, "America/New_York"), "America/New_York")).toBe(ms);
  });

  it("finds the local midnight of a day", () => {
    expect(new Date(startOfLocalDay(Date.parse("2026-12-02T06:00:00Z"), "Asia/Beirut")).toISOString()).toBe("2026-12-01T22:00:00.000Z");
  });
});
