import { describe, expect, it, vi } from "vitest";
import type { Alarm } from "../../contract/alarms-values.ts";
import type { Mcu } from "../../contract/entities.ts";
import type { McuLive } from "../../streams/device-snapshots.ts";
import { mcuQueryKey, type RecordsOf } from "../../contract/live.ts";
import { createAppStore, INTEREST_GRACE_MS, keys } from "./store.ts";
import { cardView } from "../../streams/card-view.ts";
import { managerCardView } from "../../streams/mcu-manager-view.ts";
import { mcuRecord } from "../../test-support/records.ts";
import { alarmRecord, resolvedAlarm } from "../../test-support/alarms.ts";

const snap = (mac: string, humidity: number): McuLive => ({
  mac,
  mcuId: Number(mac.slice(1)),
  readings: { DHT: { temperature: 20, humidity, count: 1 } },
  status: "online",
  lastReadingAt: 1,
  online: true,
  pending: null,
});

describe("main-thread store", () => {
  it("re-notifies only the subscribers of the MCU a batch changes", () => {
    const store = createAppStore();
    store.apply({ kind: "live", batch: { seq: 1, upserts: Array.from({ length: 10 }, (_, i) => snap(`M${i}`, 80)), removed: [], clock: 0 } });
    const calls = Array.from({ length: 10 }, () => vi.fn());
    calls.forEach((fn, i) => store.subscribe(keys.live(`M${i}`), fn));
    const before = store.getLive("M3");

    expect(store.apply({ kind: "live", batch: { seq: 2, upserts: [snap("M7", 60)], removed: [], clock: 0 } })).toBe(2);
    calls.forEach((fn, i) => expect(fn, `M${i}`).toHaveBeenCalledTimes(i === 7 ? 1 : 0));
    expect(store.getLive("M7")!.readings!.DHT!.humidity).toBe(60);
    expect(store.getLive("M3")).toBe(before);
  });

  it("leaves no listener behind after unsubscribing", () => {
    const store = createAppStore();
    const offs = [store.subscribe(keys.live("A"), () => {}), store.subscribe(keys.live("A"), () => {}), store.subscribe(keys.summary, () => {}), store.subscribe(keys.entities("farms"), () => {})];
    expect(store.listenerCount()).toBe(4);
    offs.forEach((off) => off());
    expect(store.listenerCount()).toBe(0);
  });

  it("keeps an unchanged MCU entity's object across a reload and notifies only changed ones", () => {
    const store = createAppStore();
    const mcu = (id: number, name: string) => ({
      mcu_id: id,
      name,
      mac: `02:00:00:00:00:0${id}`,
      farm_id: 1,
      farm: { name: "F" },
      client_id: 1,
      status: "active" as const,
      readings: null,
      lastSeen: null,
      controllers: [],
      sensors: [],
      profile_links: [],
      createdAt: "",
      updatedAt: "",
    });
    store.apply({ kind: "records", name: "mcus", key: "mcu_id", ids: [1, 2], changed: [mcu(1, "A"), mcu(2, "B")] });
    const first = store.getRecord("mcus", 1);
    const one = vi.fn();
    const two = vi.fn();
    const list = vi.fn();
    store.subscribe(keys.record("mcus", 1), one);
    store.subscribe(keys.record("mcus", 2), two);
    store.subscribe(keys.entities("mcus"), list);
    // The core compared the reload: only MCU 2 changed.
    store.apply({ kind: "records", name: "mcus", key: "mcu_id", ids: [1, 2], changed: [mcu(2, "B2")] });
    expect(store.getRecord("mcus", 1)).toBe(first);
    expect(one).not.toHaveBeenCalled();
    expect(two).toHaveBeenCalledTimes(1);
    expect(list).toHaveBeenCalledTimes(1);
    expect(store.get("mcus").map((m) => m.name)).toEqual(["A", "B2"]);

    // Nothing changed: the list keeps its array and nobody is notified.
    const before = store.get("mcus");
    store.apply({ kind: "records", name: "mcus", key: "mcu_id", ids: [1, 2], changed: [] });
    expect(store.get("mcus")).toBe(before);
    expect(list).toHaveBeenCalledTimes(1);

    store.apply({ kind: "records", name: "mcus", key: "mcu_id", ids: [2], changed: [] });
    expect(store.getRecord("mcus", 1)).toBeUndefined();
    expect(one).toHaveBeenCalledTimes(1);
    expect(store.get("mcus").map((m) => m.mcu_id)).toEqual([2]);
  });

  it("shows a list's records and ids as its parts come, and replaces the list once its last part has", () => {
    const store = createAppStore();
    const mcu = (id: number): Mcu => ({ mcu_id: id, name: `M${id}`, mac: `AA:00:00:00:00:0${id}`, farm_id: 1, farm: { name: "F" }, client_id: 1, status: "active", readings: null, lastSeen: null, controllers: [], sensors: [], profile_links: [], createdAt: "", updatedAt: "" });
    const ids = vi.fn();
    const list = vi.fn();
    store.subscribe(keys.ids("mcus"), ids);
    store.subscribe(keys.entities("mcus"), list);
    // The head of a long list: its cards can render, the list is not the list yet.
    store.apply({ kind: "records", name: "mcus", key: "mcu_id", ids: [1, 2], changed: [mcu(1), mcu(2)], more: true });
    expect(store.getIds("mcus")).toEqual([1, 2]);
    expect(store.getRecord("mcus", 2)?.name).toBe("M2");
    expect(store.get("mcus")).toEqual([]);
    expect(list).not.toHaveBeenCalled();
    // The whole list in two parts.
    store.apply({ kind: "records", name: "mcus", key: "mcu_id", ids: [1, 2, 3, 4], changed: [mcu(3)], more: true });
    expect(store.getIds("mcus")).toEqual([1, 2, 3, 4]);
    expect(ids).toHaveBeenCalledTimes(2);
    expect(list).not.toHaveBeenCalled();
    store.apply({ kind: "records", name: "mcus", key: "mcu_id", ids: [1, 2, 3, 4], changed: [mcu(4)] });
    expect(ids).toHaveBeenCalledTimes(2);
    expect(list).toHaveBeenCalledTimes(1);
    expect(store.get("mcus").map((m) => m.mcu_id)).toEqual([1, 2, 3, 4]);
  });

  it("tells the core which MCUs have live subscribers, once per task, and nothing for a subscribe undone at once", async () => {
    vi.useFakeTimers();
    try {
      const store = createAppStore();
      const sent: string[][] = [];
      store.onInterest((macs) => sent.push([...macs].sort()));
      const flush = () => vi.advanceTimersByTimeAsync(0);

      // A commit mounting three cards (two of them for the same MCU): one message.
      const offA1 = store.subscribe(keys.live("A"), () => {});
      const offA2 = store.subscribe(keys.live("A"), () => {});
      const offB = store.subscribe(keys.live("B"), () => {});
      store.subscribe(keys.summary, () => {});
      store.subscribe(keys.entities("mcus"), () => {});
      await flush();
      expect(sent).toEqual([["A", "B"]]);

      // A card mounted and unmounted in the same task (StrictMode, a scroll back): no message.
      store.subscribe(keys.live("C"), () => {})();
      await flush();
      await vi.advanceTimersByTimeAsync(INTEREST_GRACE_MS);
      expect(sent).toHaveLength(1);

      // One of A's two cards leaves: A stays of interest.
      offA1();
      await flush();
      expect(sent).toHaveLength(1);

      // Scrolling: B leaves and D comes in the same commit; B stays for its grace period.
      offB();
      const offD = store.subscribe(keys.live("D"), () => {});
      await flush();
      expect(sent).toEqual([
        ["A", "B"],
        ["A", "B", "D"],
      ]);
      await vi.advanceTimersByTimeAsync(INTEREST_GRACE_MS);
      expect(sent.at(-1)).toEqual(["A", "D"]);

      offA2();
      offD();
      offD();
      await flush();
      expect(sent.at(-1)).toEqual(["A", "D"]);
      await vi.advanceTimersByTimeAsync(INTEREST_GRACE_MS);
      expect(sent.at(-1)).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps an MCU of interest for a grace period after its last card unmounts: a card back within it does not start over", async () => {
    vi.useFakeTimers();
    try {
      const store = createAppStore();
      const sent: string[][] = [];
      const cards: number[][] = [];
      store.onInterest((macs) => sent.push([...macs].sort()));
      store.onCardInterest((ids) => cards.push([...ids].sort()));
      const offLive = store.subscribe(keys.live("A"), () => {});
      const offCard = store.subscribe(keys.card(1), () => {});
      await vi.advanceTimersByTimeAsync(0);
      expect([sent, cards]).toEqual([[["A"]], [[1]]]);

      // The card scrolls out of the virtual list and back in before the grace period is over.
      offLive();
      offCard();
      await vi.advanceTimersByTimeAsync(INTEREST_GRACE_MS - 1);
      expect(store.cardInterest()).toEqual([]);
      const offLiveAgain = store.subscribe(keys.live("A"), () => {});
      const offCardAgain = store.subscribe(keys.card(1), () => {});
      await vi.advanceTimersByTimeAsync(INTEREST_GRACE_MS * 2);
      expect([sent, cards]).toEqual([[["A"]], [[1]]]);

      // Gone for good: the core stops once the grace period is over, not before.
      offLiveAgain();
      offCardAgain();
      await vi.advanceTimersByTimeAsync(INTEREST_GRACE_MS - 1);
      expect([sent.at(-1), cards.at(-1)]).toEqual([["A"], [1]]);
      await vi.advanceTimersByTimeAsync(1);
      expect([sent.at(-1), cards.at(-1)]).toEqual([[], []]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("sends the MCUs already watched when the core is wired later", async () => {
    const store = createAppStore();
    store.subscribe(keys.live("A"), () => {});
    const sent: string[][] = [];
    store.onInterest((macs) => sent.push(macs));
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual([["A"]]);
  });

  it("applies the core's fleet results, notifying only the counts and farms whose value changed", () => {
    const store = createAppStore();
    const fleet = (warnings: number, farm7: "active" | "warning") => ({
      summary: { totalFarms: 2, activeMcus: 3, warnings, offlineMcus: 1 },
      mcuStats: { total: 4, online: 3, offline: 1, lowBattery: 0 },
      farmStatuses: { 7: farm7, 8: "offline" as const },
    });
    store.apply({ kind: "live", batch: { seq: 1, upserts: [], removed: [], clock: 0, fleet: fleet(0, "active") } });
    const summary = store.getSummary();
    const stats = store.getMcuStats();
    expect(summary).toEqual({ totalFarms: 2, activeMcus: 3, warnings: 0, offlineMcus: 1 });
    expect([store.getFarmStatus(7), store.getFarmStatus(8), store.getFarmStatus(9)]).toEqual(["active", "offline", undefined]);

    const calls = { summary: vi.fn(), stats: vi.fn(), farm7: vi.fn(), farm8: vi.fn() };
    store.subscribe(keys.summary, calls.summary);
    store.subscribe(keys.mcuStats, calls.stats);
    store.subscribe(keys.farmStatus(7), calls.farm7);
    store.subscribe(keys.farmStatus(8), calls.farm8);

    // The same values again: nothing re-renders and the objects stay.
    store.apply({ kind: "live", batch: { seq: 2, upserts: [], removed: [], clock: 0, fleet: fleet(0, "active") } });
    expect(store.getSummary()).toBe(summary);
    expect(Object.values(calls).map((fn) => fn.mock.calls.length)).toEqual([0, 0, 0, 0]);

    store.apply({ kind: "live", batch: { seq: 3, upserts: [], removed: [], clock: 0, fleet: fleet(1, "warning") } });
    expect(store.getSummary()!.warnings).toBe(1);
    expect(store.getFarmStatus(7)).toBe("warning");
    expect(store.getMcuStats()).toBe(stats);
    expect(Object.values(calls).map((fn) => fn.mock.calls.length)).toEqual([1, 0, 1, 0]);
  });

  it("asks the core for the MCU Manager queries with subscribers and keeps each result until it changes", async () => {
    const store = createAppStore();
    const asked: string[][] = [];
    store.onQueries((queryKeys) => asked.push(queryKeys));
    const online = mcuQueryKey({ search: "", status: "online", farmId: "" });
    const fn = vi.fn();
    const off = store.subscribe(keys.mcuQuery(online), fn);
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toEqual([[online]]);
    expect(store.getMcuQuery(online)).toEqual([]);

    store.apply({ kind: "live", batch: { seq: 1, upserts: [], removed: [], clock: 0, fleet: { queries: { [online]: [3, 1] } } } });
    expect(store.getMcuQuery(online)).toEqual([3, 1]);
    expect(fn).toHaveBeenCalledTimes(1);
    const ids = store.getMcuQuery(online);
    store.apply({ kind: "live", batch: { seq: 2, upserts: [], removed: [], clock: 0, fleet: { summary: { totalFarms: 1, activeMcus: 0, warnings: 0, offlineMcus: 0 } } } });
    expect(store.getMcuQuery(online)).toBe(ids);
    expect(fn).toHaveBeenCalledTimes(1);

    vi.useFakeTimers();
    try {
      off();
      await vi.advanceTimersByTimeAsync(INTEREST_GRACE_MS - 1);
      expect(asked.at(-1)).toEqual([online]);
      await vi.advanceTimersByTimeAsync(1);
      expect(asked.at(-1)).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the card views the core sent as they are, the last one until the core's next, none for an MCU gone from the list", () => {
    const config = {
      irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
      ventilation: { co2_threshold: 350 },
      ac: { based_on: "room_temp" as const, target_temp: 18 },
      humidifier: { humidity_on_below: 80, humidity_off_above: 93 },
    };
    const linked = mcuRecord(0, { profile_links: [{ id: 1, mcu_id: 1, profile_id: 2, profile: { profile_id: 2, name: "Tight", config } }] });
    const live: McuLive = { ...snap(linked.mac, 90), mcuId: 1, readings: { CO2: { co2: 900, count: 1 } } };
    const store = createAppStore();
    store.apply({ kind: "records", name: "mcus", key: "mcu_id", ids: [1], changed: [linked], more: false });
    expect(store.getCard(1)).toBeUndefined();
    expect(store.getManagerCard(1)).toBeUndefined();
    const sent = cardView(linked, live);
    const sentManager = managerCardView(linked, live, 0);
    store.apply({ kind: "live", batch: { seq: 1, upserts: [], removed: [], clock: 0, cards: [sent], managerCards: [sentManager] } });
    expect(store.getCard(1)).toBe(sent);
    expect(store.getManagerCard(1)).toBe(sentManager);
    // The profile is unlinked: the list reloads before the core has made the cards' new views.
    store.apply({ kind: "records", name: "mcus", key: "mcu_id", ids: [1], changed: [mcuRecord(0)], more: false });
    expect(store.getCard(1)).toBe(sent);
    const changed = vi.fn();
    store.subscribe(keys.managerCard(1), changed);
    const unlinked = managerCardView(mcuRecord(0), live, 0);
    store.apply({ kind: "live", batch: { seq: 2, upserts: [], removed: [], clock: 0, cards: [cardView(mcuRecord(0), live)], managerCards: [unlinked] } });
    expect(changed).toHaveBeenCalledTimes(1);
    expect(store.getCard(1)!.breaches).toEqual([]);
    expect(store.getManagerCard(1)!.profileLink).toBeNull();
    store.apply({ kind: "records", name: "mcus", key: "mcu_id", ids: [], changed: [], more: false });
    expect(store.getCard(1)).toBeUndefined();
    expect(store.getManagerCard(1)).toBeUndefined();
  });

  it("shows the views a list's first part carries at once, before any card has asked for them", () => {
    const store = createAppStore();
    const first = [mcuRecord(0), mcuRecord(1)];
    const views = { cards: first.map((m) => cardView(m, undefined)), managerCards: first.map((m) => managerCardView(m, undefined, 0)) };
    const changed = vi.fn();
    store.subscribe(keys.managerCard(2), changed);
    store.apply({ kind: "records", name: "mcus", key: "mcu_id", ids: [1, 2, 3], changed: first, more: true, views });
    expect(changed).toHaveBeenCalledTimes(1);
    expect(store.getCard(1)).toBe(views.cards[0]);
    expect(store.getManagerCard(2)).toBe(views.managerCards[1]);
    expect(store.getManagerCard(3)).toBeUndefined();
  });

  it("has no summary until the core has computed one, then keeps even an all-zero one", () => {
    const store = createAppStore();
    expect(store.getSummary()).toBeNull();
    const zero = { totalFarms: 0, activeMcus: 0, warnings: 0, offlineMcus: 0 };
    store.apply({ kind: "live", batch: { seq: 1, upserts: [], removed: [], clock: 0, fleet: { summary: zero } } });
    expect(store.getSummary()).toEqual(zero);
  });
});

describe("main-thread store: a list crossing by record that items leave (the active alarms)", () => {
  /** Alarm `id` of MCU `mcuId`, opened `id` minutes past 10:00. */
  const alarm = (id: number, mcuId: number, over: Partial<Alarm> = {}) => alarmRecord(id, mcuId, { opened_at: `2026-11-23T10:0${id}:00.000Z`, ...over });
  const alarms = (ids: number[], changed: Alarm[], more: Partial<RecordsOf<"alarms">> = {}): RecordsOf<"alarms"> => ({ kind: "records", name: "alarms", key: "alarm_id", ids, changed, ...more });

  it("holds the list as the core orders it, and notifies only the keys whose content changed", () => {
    const store = createAppStore();
    store.apply(alarms([1, 2], [alarm(1, 10), alarm(2, 20)], { load: { state: "ready" } }));
    const list = vi.fn();
    const one = vi.fn();
    const load = vi.fn();
    store.subscribe(keys.entities("alarms"), list);
    store.subscribe(keys.record("alarms", 1), one);
    store.subscribe(keys.load("alarms"), load);
    const first = store.get("alarms")[0];
    store.apply(alarms([1, 2], [alarm(2, 20, { state: "acknowledged" })]));
    expect(store.get("alarms").map((a) => a.state)).toEqual(["open", "acknowledged"]);
    expect(store.get("alarms")[0]).toBe(first);
    expect([list.mock.calls.length, one.mock.calls.length, load.mock.calls.length]).toEqual([1, 0, 0]);
    expect(store.getLoad("alarms")).toEqual({ state: "ready" });
  });

  it("takes an item that left out of the list and keeps it for the screens, latest first", () => {
    const store = createAppStore();
    store.apply(alarms([1, 2], [alarm(1, 10), alarm(2, 20)]));
    const left = vi.fn();
    store.subscribe(keys.left("alarms"), left);
    const resolved1 = resolvedAlarm(alarm(1, 10));
    const resolved2 = resolvedAlarm(alarm(2, 20));
    store.apply(alarms([], [], { left: [resolved1, resolved2] }));
    expect(store.get("alarms")).toEqual([]);
    expect(store.getRecord("alarms", 1)).toBeUndefined();
    expect(store.getLeft("alarms").map((a) => a.alarm_id)).toEqual([2, 1]);
    expect(left).toHaveBeenCalledTimes(1);
    // What left without having been held is kept all the same; the list is as it was.
    const held = store.get("alarms");
    store.apply({ kind: "records", name: "alarms", key: "alarm_id", changed: [], left: [resolvedAlarm(alarm(3, 30))] });
    expect(store.get("alarms")).toBe(held);
    expect(store.getLeft("alarms").map((a) => a.alarm_id)).toEqual([3, 2, 1]);
  });

  it("forgets what left when the session ends", () => {
    const store = createAppStore();
    store.apply({ kind: "records", name: "alarms", key: "alarm_id", changed: [], left: [resolvedAlarm(alarm(1, 10))] });
    const left = vi.fn();
    store.subscribe(keys.left("alarms"), left);
    store.apply(alarms([], [], { load: { state: "idle" } }));
    expect(left).toHaveBeenCalledTimes(1);
    expect(store.getLeft("alarms")).toEqual([]);
  });

  it("tells nothing changed when nothing did", () => {
    const store = createAppStore();
    store.apply({ kind: "records", name: "alarms", key: "alarm_id", changed: [], load: { state: "loading" } });
    const any = vi.fn();
    for (const key of [keys.entities("alarms"), keys.load("alarms"), keys.left("alarms"), keys.ids("alarms")]) store.subscribe(key, any);
    store.apply({ kind: "records", name: "alarms", key: "alarm_id", changed: [], load: { state: "loading" } });
    expect(any).not.toHaveBeenCalled();
    expect(store.getLoad("alarms")).toEqual({ state: "loading" });
    // A list crossing whole carries its load state the same way.
    store.apply({ kind: "entities", entities: {}, loads: { farms: { state: "error", message: "Resting" } } });
    expect(store.getLoad("farms")).toEqual({ state: "error", message: "Resting" });
  });
});
