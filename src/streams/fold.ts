import type { LiveReading } from "../contract/entities.ts";
import type { McuLive, SnapshotBatch } from "../contract/live.ts";
import { normalizeMac } from "../contract/mac.ts";
import { FRESHNESS_MS, isFresh, parseReadings, type CoreEvent } from "./device-snapshots.ts";

export type { SnapshotBatch } from "../contract/live.ts";

/**
 * The fold's state. The container is mutable and owned by one pipeline (a copy per event would
 * cost O(MCUs) per event, which is what this design avoids); the snapshots in it never change.
 * `changed` and `removed` collect what the next batch must carry.
 */
export interface FoldState {
  devices: Map<string, McuLive>;
  /** The freshness clock: the time of the last tick. */
  clock: number;
  changed: Set<string>;
  removed: Set<string>;
  freshnessMs: number;
}

export function createFoldState(clock: number, freshnessMs = FRESHNESS_MS): FoldState {
  return { devices: new Map(), clock, changed: new Set(), removed: new Set(), freshnessMs };
}

function put(state: FoldState, next: McuLive): void {
  state.devices.set(next.mac, next);
  state.changed.add(next.mac);
  if (state.removed.size > 0) state.removed.delete(next.mac);
}

function blank(mac: string): McuLive {
  return { mac, mcuId: null, readings: null, status: "offline", lastReadingAt: null, online: false, pending: null };
}

function foldReading(state: FoldState, mac: string, payload: LiveReading, at: number): void {
  // The hot path: an explicit literal (one hidden class) rather than a spread.
  const prev = state.devices.get(mac);
  put(state, {
    mac,
    mcuId: prev ? prev.mcuId : null,
    readings: payload,
    status: prev ? prev.status : "offline",
    lastReadingAt: at,
    online: isFresh(at, state.clock, state.freshnessMs),
    pending: prev ? prev.pending : null,
  });
}

function foldStatus(state: FoldState, mac: string, status: string): void {
  const prev = state.devices.get(mac) ?? blank(mac);
  if (prev.status !== status) put(state, { ...prev, status });
}

/** Applies one event. Only an MCU whose snapshot really changes gets a new object and is marked. */
export function fold(state: FoldState, event: CoreEvent): FoldState {
  switch (event.kind) {
    case "reading":
      foldReading(state, event.mac, event.payload, event.at);
      break;
    case "status":
      foldStatus(state, event.mac, event.status);
      break;
    case "batch": {
      // One realtimeBatch, kept whole from the socket to here: statuses first, then readings,
      // as if each entry had come alone in that order.
      for (const s of event.batch.status) foldStatus(state, normalizeMac(s.deviceId), s.status);
      for (const d of event.batch.data) foldReading(state, normalizeMac(d.deviceId), d.payload, event.at);
      break;
    }
    case "tick": {
      state.clock = event.now;
      for (const d of state.devices.values()) {
        const online = isFresh(d.lastReadingAt, event.now, state.freshnessMs);
        if (online !== d.online) put(state, { ...d, online });
      }
      break;
    }
    case "pending": {
      const prev = state.devices.get(event.mac);
      if (!prev) break;
      const pending = { ...prev.pending };
      if (event.value === null) delete pending[event.key];
      else pending[event.key] = event.value;
      put(state, { ...prev, pending: Object.keys(pending).length ? pending : null });
      break;
    }
    case "confirmed": {
      const prev = state.devices.get(event.mac);
      const device = prev?.readings?.[event.target];
      if (!prev || !device || device[event.field] === event.value) break;
      put(state, { ...prev, readings: { ...prev.readings, [event.target]: { ...device, [event.field]: event.value } } });
      break;
    }
    case "snapshot": {
      const seen = new Set<string>();
      for (const d of event.devices) {
        seen.add(d.deviceId);
        const readings = parseReadings(d.readings);
        const stamp = readings?.lastUpdated ?? d.lastSeen;
        const lastReadingAt = stamp ? Date.parse(stamp) : null;
        const prev = state.devices.get(d.deviceId);
        // A reconnect re-sends the same state: keep the objects of MCUs that did not change.
        if (prev && prev.mcuId === d.mcu_id && prev.status === d.status && prev.lastReadingAt === lastReadingAt) continue;
        put(state, {
          mac: d.deviceId,
          mcuId: d.mcu_id,
          readings,
          status: d.status,
          lastReadingAt,
          online: isFresh(lastReadingAt, state.clock, state.freshnessMs),
          pending: prev?.pending ?? null,
        });
      }
      for (const mac of state.devices.keys()) {
        if (seen.has(mac)) continue;
        state.devices.delete(mac);
        state.changed.delete(mac);
        state.removed.add(mac);
      }
      break;
    }
    case "reset": {
      for (const mac of state.devices.keys()) state.removed.add(mac);
      state.devices.clear();
      state.changed.clear();
      break;
    }
  }
  return state;
}

/**
 * Takes what changed since the last call, or null when nothing did. With `interest`, only the MCUs
 * in it are carried; the others' changes are dropped (their latest state stays in `devices`, and
 * `markInterested` sends it when they become of interest). Removals are always carried.
 */
export function drainChanges(state: FoldState, seq: number, interest?: ReadonlySet<string> | null): SnapshotBatch | null {
  if (state.changed.size === 0 && state.removed.size === 0) return null;
  const upserts: McuLive[] = [];
  for (const mac of state.changed) {
    if (interest && !interest.has(mac)) continue;
    upserts.push(state.devices.get(mac)!);
  }
  const removed = [...state.removed];
  state.changed.clear();
  state.removed.clear();
  if (upserts.length === 0 && removed.length === 0) return null;
  return { seq, upserts, removed, clock: state.clock };
}

/** Queues the current snapshots of MCUs that just became of interest for the next batch. */
export function markInterested(state: FoldState, macs: Iterable<string>): boolean {
  let any = false;
  for (const mac of macs) {
    if (!state.devices.has(mac)) continue;
    state.changed.add(mac);
    any = true;
  }
  return any;
}
