/**
 * What checking the server's live events against their contract schemas costs, where they enter
 * the data core (src/worker/live-socket.ts): the same seeded readings as bench:fold, sent as the
 * server sends them (realtimeBatch, up to 25 readings a batch), folded by the real pipeline with and
 * without the check in front, and the check alone.
 *
 *   npx tsx bench/live-validation.ts [--mcus 1000] [--readings 1000000]
 *
 * Prints a table and writes bench/results/live-validation.json.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Subject, VirtualAction, VirtualTimeScheduler } from "rxjs";
import type { RealtimeBatchPayload } from "../src/contract/realtime.ts";
import type { CoreEvent } from "../src/streams/device-snapshots.ts";
import { snapshotPipeline } from "../src/streams/snapshot-pipeline.ts";
import { checkBatch } from "../src/worker/live-socket.ts";
import { rng } from "./seeded-random.ts";

const { values } = parseArgs({ options: { mcus: { type: "string", default: "1000" }, readings: { type: "string", default: "1000000" } } });
const mcus = Number(values.mcus);
const readingCount = Number(values.readings);
const PER_BATCH = 25;
const FRAME = 16;


function batches(): RealtimeBatchPayload[] {
  const random = rng(42);
  const macs = Array.from({ length: mcus }, (_, i) => `02:00:00:${((i >> 16) & 255).toString(16).padStart(2, "0")}:${((i >> 8) & 255).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`.toUpperCase());
  const out: RealtimeBatchPayload[] = [];
  for (let n = 0; n < readingCount; n += PER_BATCH) {
    const data = Array.from({ length: Math.min(PER_BATCH, readingCount - n) }, () => ({
      deviceId: macs[Math.floor(random() * mcus)]!,
      payload: { DHT: { temperature: 18 + random() * 4, humidity: 80 + random() * 10, count: 1 }, CO2: { co2: 800 + random() * 400, count: 1 }, batteryLevel: 80, lastUpdated: "2026-11-27T10:00:00.000Z" },
    }));
    out.push({ data, status: [] });
  }
  return out;
}

/** The fold of every batch (one per 16 ms frame of virtual time), checked first or not; ms. */
function fold(all: RealtimeBatchPayload[], checked: boolean): number {
  const scheduler = new VirtualTimeScheduler(VirtualAction, Infinity);
  const events$ = new Subject<CoreEvent>();
  const ready$ = new Subject<void>();
  const { batches$ } = snapshotPipeline({ events$, ready$, scheduler, frameMs: FRAME });
  batches$.subscribe(() => ready$.next());
  const start = performance.now();
  let t = 0;
  for (const raw of all) {
    const batch = checked ? checkBatch(raw).batch : raw;
    if (batch) events$.next({ kind: "batch", batch, at: t });
    t += FRAME;
    scheduler.maxFrames = t;
    scheduler.flush();
  }
  return performance.now() - start;
}

function checkOnly(all: RealtimeBatchPayload[]): number {
  const start = performance.now();
  let dropped = 0;
  for (const raw of all) dropped += checkBatch(raw).dropped;
  const ms = performance.now() - start;
  if (dropped !== 0) throw new Error(`${dropped} readings of the synthetic stream failed the contract`);
  return ms;
}

const all = batches();
// Warm-up: both paths compiled before they are timed.
fold(all.slice(0, 2000), false);
fold(all.slice(0, 2000), true);
checkOnly(all.slice(0, 2000));

const rounds = 3;
const best = (f: () => number) => Math.min(...Array.from({ length: rounds }, f));
const plain = best(() => fold(all, false));
const withCheck = best(() => fold(all, true));
const check = best(() => checkOnly(all));
const perSec = (ms: number) => Math.round(readingCount / (ms / 1000));
const rows = [
  { path: "fold, unchecked", "readings/s": perSec(plain), "ns per reading": +((plain * 1e6) / readingCount).toFixed(0) },
  { path: "fold, each batch checked first", "readings/s": perSec(withCheck), "ns per reading": +((withCheck * 1e6) / readingCount).toFixed(0) },
  { path: "the check alone", "readings/s": perSec(check), "ns per reading": +((check * 1e6) / readingCount).toFixed(0) },
];
console.table(rows);
console.log(`${mcus} MCUs, ${readingCount.toLocaleString()} readings in batches of ${PER_BATCH}: the check adds ${(((withCheck - plain) / plain) * 100).toFixed(1)} % to the fold (best of ${rounds})`);
await mkdir("bench/results", { recursive: true });
await writeFile("bench/results/live-validation.json", JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: cpus().length, mcus, readings: readingCount, rows }, null, 2));
console.log("wrote bench/results/live-validation.json");
