import { describe, expect, it } from "vitest";
import type { Alarm } from "../../contract/alarms-values.ts";
import { alarmRecord } from "../../test-support/alarms.ts";
import { alarmsNewestFirst, openAlarmCount } from "./active-alarms.ts";

/** Alarm `id` of MCU `mcuId`, opened `id` minutes past 10:00. */
const alarm = (id: number, mcuId: number, over: Partial<Alarm> = {}) => alarmRecord(id, mcuId, { opened_at: `2026-11-23T10:0${id}:00.000Z`, ...over });

describe("the active alarms as the screens read them", () => {
  it("lists them newest first, and counts those nobody has acknowledged", () => {
    const list = [alarm(1, 10), alarm(3, 20), alarm(2, 10, { state: "acknowledged" })];
    expect(alarmsNewestFirst(list).map((a) => a.alarm_id)).toEqual([3, 2, 1]);
    expect(openAlarmCount(list)).toBe(2);
    // Two opened at once: the later alarm first.
    expect(alarmsNewestFirst([alarm(4, 10, { opened_at: alarm(5, 10).opened_at }), alarm(5, 10)]).map((a) => a.alarm_id)).toEqual([5, 4]);
  });
});
