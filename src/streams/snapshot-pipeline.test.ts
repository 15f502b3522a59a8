import { Subject, VirtualAction, VirtualTimeScheduler } from "rxjs";
import { describe, expect, it } from "vitest";
import type { LiveReading } from "../contract/entities.ts";
import type { CoreEvent } from "./device-snapshots.ts";
import { parseReadings } from "./device-snapshots.ts";
import type { SnapshotBatch } from "./fold.ts";
import { snapshotPipeline, type SnapshotPipelineOptions } from "./snapshot-pipeline.ts";

/** A pipeline on virtual time; batches are acknowledged at once unless `autoAck` is false. */
function harness({ autoAck = true, interest = null as string[] | null, summarize = undefined as SnapshotPipelineOptions["summarize"] } = {}) {
  const scheduler = new VirtualTimeScheduler(VirtualAction, Infinity);
  const events$ = new Subject<CoreEvent>();
  const ready$ = new Subject<void>();
  const pipeline = snapshotPipeline({ events$, ready$, scheduler, interest, summarize });
  const { batches$, state } = pipeline;
  const batches: { at: number; batch: SnapshotBatch }[] = [];
  batches$.subscribe((batch) => {
    batches.push({ at: scheduler.now(), batch });
    if (autoAck) ready$.next();
  });
  return {
    pipeline,
    scheduler,
    state,
    batches,
    ack: () => ready$.next(),
    at: (t: number, event: CoreEvent) => scheduler.schedule(() => events$.next(event), t),
    runUntil: (t: number) => {
      scheduler.maxFrames = t;
      scheduler.flush();
    },
  };
}

const reading = (humidity: number): LiveReading => ({ DHT: { temperature: 18, humidity, count: 1 } });
const readingAt = (mac: string, at: number): CoreEvent => ({ kind: "reading", mac, payload: reading(80), at });

describe("freshness clock", () => {
  it("shows an MCU online at 119 999 ms after its last reading and offline at 120 000 ms, judged at the 30 s ticks", () => {
    const h = harness();
    h.at(1, readingAt("A", 1)); // 119 999 ms before the tick at 120 000
    h.at(0, readingAt("B", 0)); // exactly 120 000 ms before it
    h.runUntil(119_999);
    expect(h.state.devices.get("A")!.online).toBe(true);
    expect(h.state.devices.get("B")!.online).toBe(true);
    h.runUntil(120_000);
    expect(h.state.devices.get("A")!.online).toBe(true);
    expect(h.state.devices.get("B")!.online).toBe(false);
    h.runUntil(149_999);
    expect(h.state.devices.get("A")!.online).toBe(true); // no tick in between: still judged at 120 000
    h.runUntil(150_000);
    expect(h.state.devices.get("A")!.online).toBe(false);
    const flip = h.batches.find((b) => b.batch.upserts.some((u) => u.mac === "B" && !u.online))!;
    expect(flip.at).toBe(120_000); // the first change after a quiet spell goes at once
    expect(flip.batch.upserts.map((u) => u.mac)).toEqual(["B"]);
  });

  it("uses one clock for all MCUs and no timer per device", () => {
    const h = harness();
    for (let i = 0; i < 500; i++) h.at(i, readingAt(`M${i}`, i));
    h.runUntil(1000);
    // One interval (the clock) plus at most one frame timer are pending, whatever the fleet size.
    expect(h.scheduler.actions.length).toBeLessThanOrEqual(2);
  });
});

describe("fold and batches", () => {
  it("gives one batch for a status update and a reading in the same frame", () => {
    const h = harness();
    h.at(95, readingAt("Z", 95)); // a batch goes at 95: the next may go at 111
    h.at(100, { kind: "status", mac: "A", status: "online" });
    h.at(105, readingAt("A", 105));
    h.runUntil(1000);
    expect(h.batches.map((b) => b.at)).toEqual([95, 111]);
    expect(h.batches[1]!.batch.upserts).toHaveLength(1);
    expect(h.batches[1]!.batch.upserts[0]).toMatchObject({ mac: "A", status: "online", lastReadingAt: 105, online: true, readings: reading(80) });
  });

  it("replaces an MCU's readings with each reading and keeps unchanged MCUs by identity", () => {
    const h = harness();
    h.at(0, readingAt("A", 0));
    h.at(0, readingAt("B", 0));
    h.runUntil(100);
    const b = h.state.devices.get("B");
    h.at(200, { kind: "reading", mac: "A", payload: { CO2: { co2: 900, count: 1 } }, at: 200 });
    h.at(210, { kind: "status", mac: "B", status: b!.status }); // no change
    h.runUntil(400);
    expect(h.state.devices.get("B")).toBe(b);
    expect(h.state.devices.get("A")!.readings).toEqual({ CO2: { co2: 900, count: 1 } });
    expect(h.batches.at(-1)!.batch.upserts.map((u) => u.mac)).toEqual(["A"]);
  });

  it("folds a burst of 10 000 events for 1 000 MCUs into at most one batch per frame, each MCU once per batch", () => {
    const h = harness();
    for (let i = 0; i < 10_000; i++) {
      const t = Math.floor(i / 50); // 10 000 events over 200 ms
      h.at(t, i % 7 === 0 ? { kind: "status", mac: `M${i % 1000}`, status: i % 2 ? "online" : "offline" } : readingAt(`M${i % 1000}`, t));
    }
    h.runUntil(1000);
    expect(h.batches.length).toBeGreaterThan(1);
    expect(h.batches.length).toBeLessThanOrEqual(Math.ceil(216 / 16));
    for (let i = 1; i < h.batches.length; i++) expect(h.batches[i]!.at - h.batches[i - 1]!.at).toBeGreaterThanOrEqual(16);
    for (const { batch } of h.batches) {
      const macs = batch.upserts.map((u) => u.mac);
      expect(new Set(macs).size).toBe(macs.length);
    }
    expect(h.state.devices.size).toBe(1000);
  });

  it("holds back while the main thread has not applied the last batch, then sends the latest state once", () => {
    const h = harness({ autoAck: false });
    h.at(0, readingAt("A", 0));
    h.at(50, { kind: "reading", mac: "A", payload: reading(70), at: 50 });
    h.at(60, { kind: "reading", mac: "A", payload: reading(60), at: 60 });
    h.at(70, readingAt("B", 70));
    h.runUntil(1000);
    expect(h.batches).toHaveLength(1);
    h.ack();
    h.runUntil(2000);
    expect(h.batches).toHaveLength(2);
    const second = h.batches[1]!.batch;
    expect(second.upserts.map((u) => [u.mac, u.readings?.DHT?.humidity])).toEqual([
      ["A", 60],
      ["B", 80],
    ]);
    expect(second.seq).toBe(2);
  });

  it("replaces the device list on a snapshot, removes MCUs no longer listed and keeps identical ones", () => {
    const h = harness();
    const device = (mac: string, status = "online") => ({ deviceId: mac, mcu_id: 1, status: status as "online", readings: reading(85), lastSeen: null });
    h.at(0, { kind: "snapshot", devices: [device("A"), device("B")] });
    h.runUntil(100);
    const a = h.state.devices.get("A");
    h.at(200, { kind: "snapshot", devices: [device("A"), device("C", "offline")] });
    h.runUntil(400);
    expect(h.state.devices.get("A")).toBe(a);
    expect([...h.state.devices.keys()]).toEqual(["A", "C"]);
    expect(h.batches.at(-1)!.batch).toMatchObject({ removed: ["B"], upserts: [{ mac: "C", status: "offline" }] });
  });

  it("marks a toggle pending and clears it when it settles", () => {
    const h = harness();
    h.at(0, readingAt("A", 0));
    h.at(20, { kind: "pending", mac: "A", key: "Humidifier:status", value: true });
    h.runUntil(100);
    expect(h.state.devices.get("A")!.pending).toEqual({ "Humidifier:status": true });
    h.at(150, { kind: "pending", mac: "A", key: "Humidifier:status", value: null });
    h.runUntil(300);
    expect(h.state.devices.get("A")!.pending).toBeNull();
  });
});

describe("readings", () => {
  it("accepts readings as an object or as text holding JSON", () => {
    expect(parseReadings({ batteryLevel: 40 })).toEqual({ batteryLevel: 40 });
    expect(parseReadings('{"batteryLevel":40}')).toEqual({ batteryLevel: 40 });
    expect(parseReadings("not json")).toBeNull();
    expect(parseReadings(null)).toBeNull();
    expect(parseReadings("[1]")).toBeNull();
  });
});

describe("interest", () => {
  const macsOf = (batch: SnapshotBatch) => batch.upserts.map((u) => u.mac).sort();

  it("sends snapshots only of the MCUs of interest and keeps the others' latest state in the worker", () => {
    const h = harness({ interest: ["A"] });
    h.at(0, readingAt("A", 0));
    h.at(0, readingAt("B", 0));
    h.at(40, { kind: "reading", mac: "B", payload: reading(61), at: 40 });
    h.runUntil(1000);
    expect(h.batches.map((b) => macsOf(b.batch))).toEqual([["A"]]);
    expect(h.state.devices.get("B")!.readings).toEqual(reading(61));
  });

  it("sends an MCU's latest snapshot in the next frame once it becomes of interest, and only that MCU", () => {
    const h = harness({ interest: ["A"] });
    h.at(0, readingAt("A", 0));
    h.at(0, readingAt("B", 0));
    h.at(50, { kind: "reading", mac: "B", payload: reading(55), at: 50 });
    h.runUntil(100);
    h.scheduler.schedule(() => h.pipeline.setInterest(["A", "B", "Z"]), 200 - h.scheduler.now());
    h.runUntil(1000);
    const last = h.batches.at(-1)!;
    expect(last.at).toBe(200);
    expect(last.batch.upserts).toEqual([h.state.devices.get("B")]);
    expect(last.batch.upserts[0]!.readings).toEqual(reading(55));
  });

  it("stops sending an MCU once it is no longer of interest", () => {
    const h = harness({ interest: ["A", "B"] });
    h.at(0, readingAt("A", 0));
    h.at(0, readingAt("B", 0));
    h.runUntil(100);
    h.pipeline.setInterest(["A"]);
    h.at(200, readingAt("A", 200));
    h.at(200, readingAt("B", 200));
    h.runUntil(1000);
    expect(h.batches.map((b) => macsOf(b.batch))).toEqual([["A", "B"], ["A"]]);
  });

  it("sends nothing for an MCU back on screen whose last sent snapshot is still current", () => {
    const h = harness({ interest: ["A"] });
    h.at(0, readingAt("A", 0));
    h.runUntil(100);
    h.pipeline.setInterest([]);
    h.pipeline.setInterest(["A"]);
    h.runUntil(200);
    expect(h.batches).toHaveLength(1);
    h.pipeline.setInterest([]);
    h.at(300, readingAt("A", 300));
    h.runUntil(400);
    h.pipeline.setInterest(["A"]);
    h.runUntil(1000);
    expect(h.batches.map((b) => b.batch.upserts.map((u) => u.lastReadingAt))).toEqual([[0], [300]]);
  });

  it("holds a newly watched MCU's snapshot while a batch is in flight, then sends it with the next", () => {
    const h = harness({ autoAck: false, interest: ["A"] });
    h.at(0, readingAt("A", 0));
    h.at(0, readingAt("B", 0));
    h.runUntil(100);
    h.pipeline.setInterest(["A", "B"]);
    h.runUntil(1000);
    expect(h.batches).toHaveLength(1);
    h.ack();
    h.runUntil(2000);
    expect(h.batches.map((b) => macsOf(b.batch))).toEqual([["A"], ["B"]]);
  });
});

describe("realtimeBatch", () => {
  it("folds a server batch in one go: statuses then readings, MACs normalised, one frame batch", () => {
    const h = harness();
    h.at(10, {
      kind: "batch",
      at: 10,
      batch: {
        status: [{ deviceId: "aa-00-00-00-00-01", status: "online" }, { deviceId: "AA:00:00:00:00:02", status: "maintenance" }],
        data: [{ deviceId: "aa:00:00:00:00:01", payload: reading(77) }],
      },
    });
    h.runUntil(1000);
    expect(h.batches).toHaveLength(1);
    expect(h.batches[0]!.batch.upserts).toEqual([
      { mac: "AA:00:00:00:00:01", mcuId: null, readings: reading(77), status: "online", lastReadingAt: 10, online: true, pending: null },
      { mac: "AA:00:00:00:00:02", mcuId: null, readings: null, status: "maintenance", lastReadingAt: null, online: false, pending: null },
    ]);
  });
});

describe("fleet results", () => {
  const summarizeCounting = () => {
    const calls: number[] = [];
    let scheduler: { now(): number } | null = null;
    const summarize: SnapshotPipelineOptions["summarize"] = (state) => {
      calls.push(scheduler!.now());
      return { summary: { totalFarms: 0, activeMcus: state.devices.size, warnings: 0, offlineMcus: 0 }, mcuStats: { total: state.devices.size, online: 0, offline: 0, lowBattery: 0 }, farmStatuses: {}, queries: {} };
    };
    return { calls, summarize, bind: (s: { now(): number }) => (scheduler = s) };
  };

  it("recomputes them from readings at most every 250 ms, and sends the last change even when the readings stop", () => {
    const c = summarizeCounting();
    const h = harness({ summarize: c.summarize });
    c.bind(h.scheduler);
    // A new MCU every 10 ms for 1 s: 100 changes of the counts, 60 frames.
    for (let i = 0; i < 100; i++) h.at(i * 10, readingAt(`M${i}`, i * 10));
    h.runUntil(5000);
    for (let i = 1; i < c.calls.length; i++) expect(c.calls[i]! - c.calls[i - 1]!).toBeGreaterThanOrEqual(250);
    expect(c.calls.length).toBeLessThanOrEqual(6);
    const sent = h.batches.flatMap((b) => (b.batch.fleet?.summary ? [b.batch.fleet.summary.activeMcus] : []));
    expect(sent.at(-1)).toBe(100);
  });

  it("recomputes them at once when what they are computed over changed", () => {
    const c = summarizeCounting();
    const h = harness({ summarize: c.summarize });
    c.bind(h.scheduler);
    h.at(0, readingAt("A", 0));
    h.runUntil(100);
    const before = c.calls.length;
    h.scheduler.schedule(() => h.pipeline.invalidate(), 110 - h.scheduler.now());
    h.runUntil(120);
    expect(c.calls.length).toBe(before + 1);
    expect(c.calls.at(-1)).toBe(110);
  });
});
