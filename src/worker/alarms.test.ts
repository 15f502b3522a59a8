import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Alarm, AlarmPage } from "../contract/alarms-values.ts";
import { acknowledgedAlarm, alarmRecord, resolvedAlarm } from "../test-support/alarms.ts";
import { CoreError } from "../contract/core-error.ts";
import type { AlarmsUpdate } from "../contract/live.ts";
import { createAlarmCollection, type AlarmCollectionDeps } from "./alarms.ts";

/** Alarm `id` of MCU `id * 10`. */
const alarm = (id: number, over: Partial<Alarm> = {}) => alarmRecord(id, id * 10, over);
const acked = acknowledgedAlarm;
const resolved = resolvedAlarm;

/** A deferred answer, so a test decides when the server answers. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** A collection whose pages come from `pages` (by cursor, "" for the first), or from a test's hand. */
function createDeps(over: Partial<AlarmCollectionDeps> = {}, pages: Record<string, AlarmPage> = {}) {
  const sent: AlarmsUpdate[] = [];
  const asked: (string | null)[] = [];
  let fleetChanges = 0;
  const alarms = createAlarmCollection({
    activePage: async (cursor) => {
      asked.push(cursor);
      const page = pages[cursor ?? ""];
      if (!page) throw new CoreError("NOT_FOUND", "No such page", 404);
      return page;
    },
    send: (u) => sent.push(u),
    changed: () => fleetChanges++,
    ...over,
  });
  /** The active set as the main thread has it: the updates sent so far (pending ones sent first), folded. */
  const seen = (): Alarm[] => {
    vi.runOnlyPendingTimers();
    const active = new Map<number, Alarm>();
    for (const u of sent) {
      if (u.reset) active.clear();
      for (const a of u.active) active.set(a.alarm_id, a);
      for (const a of u.resolved) active.delete(a.alarm_id);
    }
    return [...active.values()];
  };
  return { alarms, sent, asked, seen, fleetChanges: () => fleetChanges };
}

const ids = (list: readonly Alarm[]) => list.map((a) => a.alarm_id).sort((a, b) => a - b);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the core's active alarms", () => {
  it("fetches every page of the active set, following next, and sends it whole", async () => {
    const { alarms, sent, asked } = createDeps({}, { "": { alarms: [alarm(1), alarm(2)], next: "p2" }, p2: { alarms: [alarm(3)], next: null } });
    expect(alarms.alarmedMcus()).toBeNull();
    await alarms.load();
    expect(asked).toEqual([null, "p2"]);
    expect(sent.map((u) => [u.reset, u.load?.state])).toEqual([
      [false, "loading"],
      [true, "ready"],
    ]);
    expect(ids(sent.at(-1)!.active)).toEqual([1, 2, 3]);
    expect([...alarms.alarmedMcus()!].sort((a, b) => a - b)).toEqual([10, 20, 30]);
  });

  it("stops paging at a cursor it was given before", async () => {
    const { alarms, asked, seen } = createDeps({}, { "": { alarms: [alarm(1)], next: "p2" }, p2: { alarms: [alarm(2)], next: "p2" } });
    await alarms.load();
    expect(asked).toEqual([null, "p2"]);
    expect(ids(seen())).toEqual([1, 2]);
  });

  it("replaces an alarm with its new state, and lets a resolved one leave the set", async () => {
    const { alarms, sent, fleetChanges, seen } = createDeps({}, { "": { alarms: [alarm(1)], next: null } });
    await alarms.load();
    const changesAfterLoad = fleetChanges();
    sent.length = 0;

    alarms.apply(alarm(2));
    alarms.apply(acked(alarm(1)));
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([{ kind: "alarms", reset: false, active: [alarm(2), acked(alarm(1))], resolved: [] }]);
    expect(seen().find((a) => a.alarm_id === 1)?.state).toBe("acknowledged");
    expect([...alarms.alarmedMcus()!].sort((a, b) => a - b)).toEqual([10, 20]);

    alarms.apply(resolved(acked(alarm(1))));
    vi.advanceTimersByTime(100);
    expect(sent.at(-1)).toEqual({ kind: "alarms", reset: false, active: [], resolved: [resolved(acked(alarm(1)))] });
    expect(ids(seen())).toEqual([2]);
    expect([...alarms.alarmedMcus()!]).toEqual([20]);
    // Each change of the set had the fleet results computed again (farm statuses, Warnings).
    expect(fleetChanges() - changesAfterLoad).toBe(3);
  });

  it("passes on an active alarm's worse value, and nothing for the same alarm again", async () => {
    const { alarms, sent, seen } = createDeps({}, { "": { alarms: [alarm(1)], next: null } });
    await alarms.load();
    sent.length = 0;
    alarms.apply(alarm(1));
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([]);
    alarms.apply(alarm(1, { worst_value: 1650 }));
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([{ kind: "alarms", reset: false, active: [alarm(1, { worst_value: 1650 })], resolved: [] }]);
    expect(seen()[0]!.worst_value).toBe(1650);
  });

  it("never goes back to an earlier state (an event late behind the acknowledgement's answer)", async () => {
    const { alarms, sent, seen } = createDeps({}, { "": { alarms: [], next: null } });
    await alarms.load();
    sent.length = 0;
    alarms.apply(acked(alarm(1)));
    alarms.apply(alarm(1));
    alarms.apply(acked(alarm(1)));
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([{ kind: "alarms", reset: false, active: [acked(alarm(1))], resolved: [] }]);
    alarms.apply(resolved(alarm(1)));
    alarms.apply(acked(alarm(1)));
    vi.advanceTimersByTime(100);
    expect(seen()).toEqual([]);
  });

  it("sends a burst of events as one message", async () => {
    const { alarms, sent } = createDeps({}, { "": { alarms: [], next: null } });
    await alarms.load();
    sent.length = 0;
    for (let i = 1; i <= 50; i++) alarms.apply(alarm(i, { kind: "mcu_offline" }));
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.active).toHaveLength(50);
  });

  it("lays the events heard during a load over its answer, which may predate them", async () => {
    const page = deferred<AlarmPage>();
    const { alarms, sent, seen } = createDeps({ activePage: () => page.promise });
    const loading = alarms.load();
    // While the server pages: alarm 1 is resolved, alarm 2 acknowledged, alarm 4 opens.
    alarms.apply(resolved(alarm(1)));
    alarms.apply(acked(alarm(2)));
    alarms.apply(alarm(4));
    // The answer was taken before all of it: it still has 1 open and 2 open, not 4; 3 it knows.
    page.resolve({ alarms: [alarm(1), alarm(2), alarm(3)], next: null });
    await loading;
    expect(ids(seen())).toEqual([2, 3, 4]);
    expect(seen().find((a) => a.alarm_id === 2)!.state).toBe("acknowledged");
    const last = sent.at(-1)!;
    expect(last.reset).toBe(true);
    expect(ids(last.active)).toEqual([2, 3, 4]);
    expect(last.resolved.map((a) => a.alarm_id)).toEqual([1]);
  });

  it("takes an answer's later state over an older event heard during the load", async () => {
    const page = deferred<AlarmPage>();
    const { alarms, seen } = createDeps({ activePage: () => page.promise });
    const loading = alarms.load();
    alarms.apply(alarm(1));
    page.resolve({ alarms: [acked(alarm(1))], next: null });
    await loading;
    expect(seen()).toEqual([acked(alarm(1))]);
  });

  it("fetches again after a reconnect: alarms resolved while the socket was down are gone", async () => {
    const pages: Record<string, AlarmPage> = { "": { alarms: [alarm(1), alarm(2)], next: null } };
    const { alarms, sent, seen } = createDeps({}, pages);
    await alarms.load();
    // Down: alarm 1 resolved and alarm 5 opened, and no event reached us.
    pages[""] = { alarms: [alarm(2), alarm(5)], next: null };
    const before = sent.length;
    await alarms.load();
    // What it held stays shown while it fetches again: no "loading" in between.
    expect(sent.slice(before).map((u) => u.load?.state)).toEqual(["ready"]);
    expect(ids(seen())).toEqual([2, 5]);
    expect(ids(sent.at(-1)!.active)).toEqual([2, 5]);
    expect(sent.at(-1)!.reset).toBe(true);
  });

  it("takes only the latest load's answer", async () => {
    const first = deferred<AlarmPage>();
    const second = deferred<AlarmPage>();
    const answers = [first, second];
    const { alarms, seen } = createDeps({ activePage: () => answers.shift()!.promise });
    const a = alarms.load();
    const b = alarms.load();
    second.resolve({ alarms: [alarm(2)], next: null });
    await b;
    first.resolve({ alarms: [alarm(1)], next: null });
    await a;
    expect(ids(seen())).toEqual([2]);
  });

  it("reports a failed load with its reason and keeps what it had", async () => {
    const pages: Record<string, AlarmPage> = { "": { alarms: [alarm(1)], next: null } };
    const { alarms, sent, seen } = createDeps({}, pages);
    await alarms.load();
    delete pages[""];
    await expect(alarms.load()).rejects.toThrow("No such page");
    expect(sent.at(-1)).toEqual({ kind: "alarms", reset: false, active: [], resolved: [], load: { state: "error", message: "No such page" } });
    expect(ids(seen())).toEqual([1]);
    expect([...alarms.alarmedMcus()!]).toEqual([10]);
  });

  it("knows no alarmed MCU before its first load, even after a failed one", async () => {
    const { alarms } = createDeps();
    await alarms.load().catch(() => undefined);
    expect(alarms.alarmedMcus()).toBeNull();
  });

  it("forgets everything at sign-out and tells the main thread at once; a load still under way is dropped", async () => {
    const page = deferred<AlarmPage>();
    const { alarms, sent, seen } = createDeps({ activePage: () => page.promise });
    const loading = alarms.load();
    alarms.apply(alarm(1));
    alarms.clear();
    expect(sent.at(-1)).toEqual({ kind: "alarms", reset: true, active: [], resolved: [], load: { state: "idle" } });
    page.resolve({ alarms: [alarm(2)], next: null });
    await loading;
    expect(seen()).toEqual([]);
    expect(alarms.alarmedMcus()).toBeNull();
  });
});
