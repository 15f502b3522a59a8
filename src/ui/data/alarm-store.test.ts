import { describe, expect, it } from "vitest";
import type { Alarm } from "../../contract/alarms-values.ts";
import { alarmRecord } from "../../test-support/alarms.ts";
import { alarmKeys, createAlarmStore } from "./alarm-store.ts";

/** Alarm `id` of MCU `mcuId`, opened `id` minutes past 10:00. */
const alarm = (id: number, mcuId: number, over: Partial<Alarm> = {}) => alarmRecord(id, mcuId, { opened_at: `2026-11-23T10:0${id}:00.000Z`, ...over });

describe("the main thread's active alarms", () => {
  it("lists the active alarms newest first, per MCU, and counts the unacknowledged", () => {
    const store = createAlarmStore();
    const changed = store.apply({ kind: "alarms", reset: true, active: [alarm(1, 10), alarm(3, 20), alarm(2, 10, { state: "acknowledged" })], resolved: [], load: { state: "ready" } });
    expect(changed.sort()).toEqual([alarmKeys.active, alarmKeys.load, alarmKeys.mcu(10), alarmKeys.mcu(20), alarmKeys.open].sort());
    expect(store.getActive().map((a) => a.alarm_id)).toEqual([3, 2, 1]);
    expect(store.getMcuAlarms(10).map((a) => a.alarm_id)).toEqual([2, 1]);
    expect(store.getOpenCount()).toBe(2);
    expect(store.getLoad()).toEqual({ state: "ready" });
  });

  it("keeps an MCU's list and the count by identity when a change does not touch them", () => {
    const store = createAlarmStore();
    store.apply({ kind: "alarms", reset: true, active: [alarm(1, 10), alarm(2, 20)], resolved: [] });
    const ten = store.getMcuAlarms(10);
    const changed = store.apply({ kind: "alarms", reset: false, active: [alarm(2, 20, { state: "acknowledged" })], resolved: [] });
    expect(changed.sort()).toEqual([alarmKeys.active, alarmKeys.mcu(20), alarmKeys.open].sort());
    expect(store.getMcuAlarms(10)).toBe(ten);
    expect(store.getOpenCount()).toBe(1);
    expect(store.getMcuAlarms(30)).toBe(store.getMcuAlarms(31));
  });

  it("takes a resolved alarm out of the active set and keeps it for the Recent list, latest first", () => {
    const store = createAlarmStore();
    store.apply({ kind: "alarms", reset: true, active: [alarm(1, 10), alarm(2, 20)], resolved: [] });
    const resolved1 = { ...alarm(1, 10), state: "resolved" as const, resolved_at: "2026-11-23T11:00:00.000Z" };
    const resolved2 = { ...alarm(2, 20), state: "resolved" as const, resolved_at: "2026-11-23T11:01:00.000Z" };
    const changed = store.apply({ kind: "alarms", reset: false, active: [], resolved: [resolved1, resolved2] });
    expect(changed.sort()).toEqual([alarmKeys.active, alarmKeys.mcu(10), alarmKeys.mcu(20), alarmKeys.open, alarmKeys.resolved].sort());
    expect(store.getActive()).toEqual([]);
    expect(store.getMcuAlarms(10)).toEqual([]);
    expect(store.getResolved().map((a) => a.alarm_id)).toEqual([2, 1]);
  });

  it("forgets what was resolved when the session ends", () => {
    const store = createAlarmStore();
    store.apply({ kind: "alarms", reset: false, active: [], resolved: [{ ...alarm(1, 10), state: "resolved", resolved_at: "2026-11-23T11:00:00.000Z" }] });
    const changed = store.apply({ kind: "alarms", reset: true, active: [], resolved: [], load: { state: "idle" } });
    expect(changed).toContain(alarmKeys.resolved);
    expect(store.getResolved()).toEqual([]);
  });

  it("tells nothing changed when nothing did", () => {
    const store = createAlarmStore();
    store.apply({ kind: "alarms", reset: false, active: [], resolved: [], load: { state: "loading" } });
    expect(store.apply({ kind: "alarms", reset: false, active: [], resolved: [], load: { state: "loading" } })).toEqual([]);
  });
});
