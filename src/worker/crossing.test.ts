import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Alarm } from "../contract/alarms-values.ts";
import type { CoreUpdate, Entities, RecordsUpdate } from "../contract/live.ts";
import { acknowledgedAlarm, alarmRecord, resolvedAlarm } from "../test-support/alarms.ts";
import { farmRecord, mcuRecord } from "../test-support/records.ts";
import { createCrossing } from "./crossing.ts";

/** Alarm `id` of MCU `id * 10`. */
const alarm = (id: number, over: Partial<Alarm> = {}) => alarmRecord(id, id * 10, over);
const emptyEntities = { farms: [], mcus: [], profiles: [], notifications: [], controllers: [], sensors: [], recipes: [], batches: [], alarms: [], farmRoles: [] } satisfies Entities;

function createDeps() {
  const sent: CoreUpdate[] = [];
  const crossing = createCrossing({ send: (u) => sent.push(u), views: (name, records) => (name === "mcus" ? { cards: [], managerCards: records.map(() => null as never) } : undefined) });
  const records = (name: RecordsUpdate["name"]) => sent.flatMap((u) => (u.kind === "records" && u.name === name ? [u] : []));
  /** The alarms as the main thread holds them: every records message folded, as the store does. */
  const held = () => {
    const byId = new Map<number, Alarm>();
    let ids: number[] = [];
    for (const u of records("alarms")) {
      for (const a of u.changed as Alarm[]) byId.set(a.alarm_id, a);
      if (u.ids) ids = u.ids;
    }
    return ids.map((id) => byId.get(id)!);
  };
  return { crossing, sent, records, held };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("collections crossing to the main thread as their declarations say", () => {
  it("sends a list crossing whole as it is, at once, with its load state", () => {
    const { crossing, sent } = createDeps();
    crossing.changed("farms", { load: { state: "loading" }, atOnce: true });
    crossing.changed("farms", { list: [farmRecord(0)], load: { state: "ready" }, atOnce: true });
    expect(sent).toEqual([
      { kind: "entities", entities: {}, loads: { farms: { state: "loading" } } },
      { kind: "entities", entities: { farms: [farmRecord(0)] }, loads: { farms: { state: "ready" } } },
    ]);
  });

  it("sends only the records that changed of a list crossing by record, keyed by its declared id", () => {
    const { crossing, records } = createDeps();
    const alarms = [alarm(1), alarm(2)];
    crossing.changed("alarms", { list: alarms, load: { state: "ready" }, atOnce: true });
    crossing.changed("alarms", { list: [alarms[0]!, acknowledgedAlarm(alarm(2)), alarm(3)], atOnce: true });
    expect(records("alarms")).toEqual([
      { kind: "records", name: "alarms", key: "alarm_id", ids: [1, 2], changed: alarms, load: { state: "ready" } },
      { kind: "records", name: "alarms", key: "alarm_id", ids: [1, 2, 3], changed: [acknowledgedAlarm(alarm(2)), alarm(3)] },
    ]);
  });

  it("sends a burst of changes as one message once its wait is over, and what left with it", () => {
    const { crossing, records, held } = createDeps();
    crossing.changed("alarms", { list: [alarm(1)], atOnce: true });
    const list: Alarm[] = [alarm(1)];
    for (let i = 2; i <= 50; i++) {
      list.push(alarm(i, { kind: "mcu_offline" }));
      crossing.changed("alarms", { list: [...list] });
    }
    crossing.changed("alarms", { list: list.slice(1), left: [resolvedAlarm(alarm(1))] });
    expect(records("alarms")).toHaveLength(1);
    vi.advanceTimersByTime(99);
    expect(records("alarms")).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(records("alarms")).toHaveLength(2);
    const burst = records("alarms").at(-1)!;
    expect(burst.changed).toHaveLength(49);
    expect(burst.left).toEqual([resolvedAlarm(alarm(1))]);
    expect(held().map((a) => a.alarm_id)).toEqual(list.slice(1).map((a) => a.alarm_id));
  });

  it("sends what left alone when the list is as it was (an item that left without being held)", () => {
    const { crossing, records } = createDeps();
    crossing.changed("alarms", { left: [resolvedAlarm(alarm(7))] });
    vi.advanceTimersByTime(100);
    expect(records("alarms")).toEqual([{ kind: "records", name: "alarms", key: "alarm_id", changed: [], left: [resolvedAlarm(alarm(7))] }]);
  });

  it("sends a load's answer at once, with the changes that waited for the burst", () => {
    const { crossing, records } = createDeps();
    crossing.changed("alarms", { list: [alarm(1)], left: [resolvedAlarm(alarm(9))] });
    crossing.changed("alarms", { list: [alarm(1), alarm(2)], load: { state: "ready" }, atOnce: true });
    expect(records("alarms")).toEqual([{ kind: "records", name: "alarms", key: "alarm_id", ids: [1, 2], changed: [alarm(1), alarm(2)], left: [resolvedAlarm(alarm(9))], load: { state: "ready" } }]);
    vi.advanceTimersByTime(100);
    expect(records("alarms")).toHaveLength(1);
  });

  it("sends a list's head as more to come, and its card views with the first part only", () => {
    const mcus = Array.from({ length: 60 }, (_, i) => mcuRecord(i));
    const { crossing, records } = createDeps();
    crossing.head("mcus", mcus.slice(0, 48));
    crossing.head("farms", [farmRecord(0)]);
    crossing.changed("mcus", { list: mcus, atOnce: true });
    vi.advanceTimersByTime(0);
    const parts = records("mcus");
    expect(parts.map((p) => [p.ids?.length, p.changed.length, p.more, p.views?.managerCards.length])).toEqual([
      [48, 48, true, 48],
      [60, 12, undefined, 12],
    ]);
  });

  it("empties every collection at once at sign-out, with their load states idle, and drops what waited", () => {
    const { crossing, sent, records } = createDeps();
    crossing.changed("mcus", { list: [mcuRecord(0)], atOnce: true });
    crossing.changed("alarms", { list: [alarm(1)], atOnce: true });
    crossing.changed("alarms", { list: [alarm(1), alarm(2)] });
    sent.length = 0;
    crossing.clear(emptyEntities);
    vi.advanceTimersByTime(100);
    const idle = { state: "idle" };
    expect(sent).toEqual([
      {
        kind: "entities",
        entities: { farms: [], profiles: [], notifications: [], controllers: [], sensors: [], recipes: [], batches: [], farmRoles: [] },
        loads: { farms: idle, profiles: idle, notifications: idle, controllers: idle, sensors: idle, recipes: idle, batches: idle, farmRoles: idle },
      },
      { kind: "records", name: "mcus", key: "mcu_id", ids: [], changed: [], load: idle },
      { kind: "records", name: "alarms", key: "alarm_id", ids: [], changed: [], load: idle },
    ]);
    // The next session's list is sent whole: nothing of it counts as sent before.
    crossing.changed("alarms", { list: [alarm(1)], atOnce: true });
    expect(records("alarms").at(-1)!.changed).toEqual([alarm(1)]);
  });
});
