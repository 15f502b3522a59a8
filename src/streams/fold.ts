import { FRESHNESS_MS, isFresh, parseReadings, type CoreEvent, type McuLive } from "./device-snapshots.ts";

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

/** Applies one event. Only an MCU whose snapshot really changes gets a new object and is marked. */
export function fold(state: FoldState, event: CoreEvent): FoldState {
  switch (event.kind) {
    case "reading": {
      // The hot path: an explicit literal (one hidden class) rather than a spread.
      const prev = state.devices.get(event.mac);
      put(state, {
        mac: event.mac,
        mcuId: prev ? prev.mcuId : null,
        readings: event.payload,
        status: prev ? prev.status : "offline",
        lastReadingAt: event.at,
        online: isFresh(event.at, state.clock, state.freshnessMs),
        pending: prev ? prev.pending : null,
      });
      break;
    }
    case "status": {
      const prev = state.devices.get(event.mac) ?? blank(event.mac);
      if (prev.status !== event.status) put(state, { ...prev, status: event.status });
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

/** What crosses to the main thread: only the MCUs that changed since the last batch. */
export interface SnapshotBatch {
  seq: number;
  upserts: McuLive[];
  removed: string[];
  clock: number;
}

/** Takes what changed since the last call, or null when nothing did. */
export function drainChanges(state: FoldState, seq: number): SnapshotBatch | null {
  if (state.changed.size === 0 && state.removed.size === 0) return null;
  const upserts: McuLive[] = [];
  for (const mac of state.changed) upserts.push(state.devices.get(mac)!);
  const batch = { seq, upserts, removed: [...state.removed], clock: state.clock };
  state.changed.clear();
  state.removed.clear();
  return batch;
}
