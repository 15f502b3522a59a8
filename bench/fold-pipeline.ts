/**
 * The browser data core's fold + batch pipeline (src/streams) against a naive baseline that copies
 * the whole MCU map per event, as a main-thread setState would. Both replay the same seeded
 * synthetic stream (N MCUs reporting at R Hz, status flips, a reconnect burst every 60 s) in
 * virtual time: a batch per 16 ms frame, acknowledged at once.
 *
 *   npm run bench:fold -- [--mcus 100,1000,5000] [--events 1000000]
 *
 * Prints a table and writes bench/results/fold-pipeline.json.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Subject, VirtualAction, VirtualTimeScheduler } from "rxjs";
import type { DeviceSnapshot } from "../src/contract/realtime.ts";
import type { CoreEvent, McuLive } from "../src/streams/device-snapshots.ts";
import { snapshotPipeline } from "../src/streams/snapshot-pipeline.ts";
import { rng } from "./seeded-random.ts";

const { values } = parseArgs({ options: { mcus: { type: "string", default: "100,1000,5000" }, events: { type: "string", default: "1000000" }, hz: { type: "string", default: "1" } } });
const fleetSizes = values.mcus!.split(",").map(Number);
const eventCount = Number(values.events);
const hz = Number(values.hz);
const FRAME = 16;


/** Events in virtual time, grouped by frame. */
function syntheticStream(mcus: number, count: number): { frames: CoreEvent[][]; macs: string[] } {
  const random = rng(42);
  const macs = Array.from({ length: mcus }, (_, i) => `02:00:00:${((i >> 16) & 255).toString(16).padStart(2, "0")}:${((i >> 8) & 255).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`.toUpperCase());
  const perMs = (mcus * hz) / 1000;
  const frames: CoreEvent[][] = [];
  let produced = 0;
  let t = 0;
  let nextReconnect = 60_000;
  while (produced < count) {
    const frame: CoreEvent[] = [];
    if (t >= nextReconnect) {
      nextReconnect += 60_000;
      const devices: DeviceSnapshot[] = macs.map((mac, i) => ({ deviceId: mac, mcu_id: i + 1, status: "online", readings: null, lastSeen: null }));
      frame.push({ kind: "snapshot", devices });
      produced++;
    }
    const n = Math.max(1, Math.round(perMs * FRAME * (0.5 + random())));
    for (let i = 0; i < n && produced < count; i++, produced++) {
      const mac = macs[Math.floor(random() * mcus)]!;
      if (random() < 0.005) {
        frame.push({ kind: "status", mac, status: random() < 0.5 ? "online" : "offline" });
      } else {
        frame.push({
          kind: "reading",
          mac,
          at: t,
          payload: { DHT: { temperature: 18 + random() * 4, humidity: 80 + random() * 10, count: 1 }, CO2: { co2: 800 + random() * 400, count: 1 }, batteryLevel: 80 },
        });
      }
    }
    frames.push(frame);
    t += FRAME;
  }
  return { frames, macs };
}

function gcMeter() {
  let count = 0;
  let ms = 0;
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      count++;
      ms += e.duration;
    }
  });
  obs.observe({ entryTypes: ["gc"] });
  return {
    stop: async () => {
      await new Promise((r) => setTimeout(r, 50)); // let pending GC entries arrive
      obs.disconnect();
      return { count, ms };
    },
  };
}

interface Result {
  events: number;
  batches: number;
  ms: number;
  gcCount: number;
  gcMs: number;
  upserts: number;
}

/** The real pipeline: Subject → fold → frame batches with backpressure, on virtual time. */
async function runPipeline(frames: CoreEvent[][]): Promise<Result> {
  const scheduler = new VirtualTimeScheduler(VirtualAction, Infinity);
  const events$ = new Subject<CoreEvent>();
  const ready$ = new Subject<void>();
  const { batches$ } = snapshotPipeline({ events$, ready$, scheduler, frameMs: FRAME });
  let batches = 0;
  let upserts = 0;
  batches$.subscribe((b) => {
    batches++;
    upserts += b.upserts.length;
    ready$.next();
  });
  const gc = gcMeter();
  const start = performance.now();
  let events = 0;
  let t = 0;
  for (const frame of frames) {
    for (const e of frame) events$.next(e);
    events += frame.length;
    t += FRAME;
    scheduler.maxFrames = t;
    scheduler.flush();
  }
  const ms = performance.now() - start;
  const g = await gc.stop();
  return { events, batches, ms, gcCount: g.count, gcMs: g.ms, upserts };
}

/** The naive baseline: a new Map per event (setState-style immutability), the whole map per frame. */
async function runNaive(frames: CoreEvent[][]): Promise<Result> {
  let state = new Map<string, McuLive>();
  let batches = 0;
  let upserts = 0;
  const gc = gcMeter();
  const start = performance.now();
  let events = 0;
  for (const frame of frames) {
    for (const e of frame) {
      if (e.kind === "reading") {
        const prev = state.get(e.mac);
        state = new Map(state);
        state.set(e.mac, { mac: e.mac, mcuId: prev?.mcuId ?? null, readings: e.payload, status: prev?.status ?? "online", lastReadingAt: e.at, online: true, pending: null });
      } else if (e.kind === "status") {
        const prev = state.get(e.mac);
        state = new Map(state);
        state.set(e.mac, { ...(prev ?? { mac: e.mac, mcuId: null, readings: null, lastReadingAt: null, online: false, pending: null }), status: e.status });
      } else if (e.kind === "snapshot") {
        state = new Map(e.devices.map((d) => [d.deviceId, { mac: d.deviceId, mcuId: d.mcu_id, readings: null, status: d.status, lastReadingAt: null, online: false, pending: null }]));
      }
    }
    events += frame.length;
    if (frame.length) {
      batches++;
      upserts += state.size;
    }
  }
  const ms = performance.now() - start;
  const g = await gc.stop();
  return { events, batches, ms, gcCount: g.count, gcMs: g.ms, upserts };
}

const rows = [];
for (const mcus of fleetSizes) {
  const { frames } = syntheticStream(mcus, eventCount);
  // The naive reducer is O(MCUs) per event: give it a slice big enough to time, not the whole stream.
  const naiveFrames: CoreEvent[][] = [];
  let naiveEvents = 0;
  const naiveBudget = Math.min(eventCount, Math.max(20_000, Math.floor(20_000_000 / mcus)));
  for (const f of frames) {
    if (naiveEvents >= naiveBudget) break;
    naiveFrames.push(f);
    naiveEvents += f.length;
  }
  await runPipeline(frames.slice(0, 200)); // warm up
  await runNaive(naiveFrames.slice(0, 50));
  const p = await runPipeline(frames);
  const n = await runNaive(naiveFrames);
  const perSec = (r: Result) => Math.round(r.events / (r.ms / 1000));
  const virtualSeconds = (frames.length * FRAME) / 1000;
  rows.push({
    mcus,
    events: p.events,
    "pipeline events/s": perSec(p),
    "naive events/s": perSec(n),
    speedup: +(perSec(p) / perSec(n)).toFixed(1),
    "batches/s (virtual)": +(p.batches / virtualSeconds).toFixed(1),
    "MCUs per batch": +(p.upserts / Math.max(1, p.batches)).toFixed(1),
    "naive MCUs copied per frame": +(n.upserts / Math.max(1, n.batches)).toFixed(0),
    "pipeline GC (count / ms per 1M events)": `${Math.round((p.gcCount * 1e6) / p.events)} / ${((p.gcMs * 1e6) / p.events).toFixed(1)}`,
    "naive GC (count / ms per 1M events)": `${Math.round((n.gcCount * 1e6) / n.events)} / ${((n.gcMs * 1e6) / n.events).toFixed(1)}`,
  });
}

console.table(rows);
const at1000 = rows.find((r) => r.mcus === 1000);
if (at1000) {
  console.log(`1000 MCUs: ${at1000["pipeline events/s"].toLocaleString()} events/s (goal ≥ 1,000,000: ${at1000["pipeline events/s"] >= 1e6 ? "met" : "NOT met"}), ${at1000.speedup}x the naive baseline (goal ≥ 10x: ${at1000.speedup >= 10 ? "met" : "NOT met"})`);
}
await mkdir("bench/results", { recursive: true });
await writeFile("bench/results/fold-pipeline.json", JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: cpus().length, hz, rows }, null, 2));
console.log("wrote bench/results/fold-pipeline.json");
