import type { AlertType, LiveReading, Notification } from "../../src/contract/entities.ts";
import type { Sql } from "../db/database.ts";
import { notificationsRepo } from "../db/notifications-repo.ts";
import type { McuEntry } from "../devices/mcu-directory.ts";
import { BATTERY_REARM_ABOVE, LOW_BATTERY_BELOW, thresholdBreaches } from "../../src/contract/conditions.ts";

export interface AlertOptions {
  db: Sql;
  now: () => Date;
  /** Called with each stored notification, to push it to the client's sockets. */
  notify(clientId: number, notification: Notification): void;
  /** A reading must stay out of range this long before it raises an alert. */
  graceMs?: number;
  /** The same alert for the same MCU is not repeated within this time (flapping). */
  repeatMs?: number;
  log?: (msg: string) => void;
}

interface McuAlertState {
  /** When each threshold breach started, while it lasts. */
  breachSince: Map<AlertType, number>;
  /** When each alert type was last raised. */
  lastRaised: Map<AlertType, number>;
  /** Breaches already alerted and not yet recovered. */
  active: Set<AlertType>;
  offlineAlerted: boolean;
}

/**
 * Turns device events into notifications: offline / back online, low battery, and readings
 * outside the linked profile's thresholds for longer than a grace period. Repeats are
 * suppressed so that a flapping sensor or connection does not flood the bell.
 */
export function createAlerts(o: AlertOptions) {
  const graceMs = o.graceMs ?? 5 * 60_000;
  const repeatMs = o.repeatMs ?? 60 * 60_000;
  const notifications = notificationsRepo(o.db);
  const states = new Map<number, McuAlertState>();

  const stateOf = (mcuId: number) => {
    let s = states.get(mcuId);
    if (!s) {
      s = { breachSince: new Map(), lastRaised: new Map(), active: new Set(), offlineAlerted: false };
      states.set(mcuId, s);
    }
    return s;
  };

  function raise(entry: McuEntry, state: McuAlertState, type: AlertType, title: string, body: string, force = false): boolean {
    const t = o.now().getTime();
    const last = state.lastRaised.get(type);
    if (!force && last !== undefined && t - last < repeatMs) return false;
    state.lastRaised.set(type, t);
    notifications
      .create(entry.clientId, { type, title, body }, o.now())
      .then((n) => o.notify(entry.clientId, n))
      .catch((err: Error) => o.log?.(`alerts: ${err.message}`));
    return true;
  }

  return {
    onStatus(entry: McuEntry, status: "online" | "offline"): void {
      const state = stateOf(entry.mcuId);
      if (status === "offline") {
        if (raise(entry, state, "mcu_offline", `${entry.name} went offline`, `${entry.name} (${entry.farmName}) stopped reporting.`)) {
          state.offlineAlerted = true;
        }
      } else if (state.offlineAlerted) {
        // Only a device whose going offline was announced is announced back, once.
        state.offlineAlerted = false;
        raise(entry, state, "mcu_online", `${entry.name} is back online`, `${entry.name} (${entry.farmName}) is reporting again.`, true);
      }
    },

    onReading(entry: McuEntry, reading: LiveReading): void {
      const state = stateOf(entry.mcuId);
      const t = o.now().getTime();

      const battery = reading.batteryLevel;
      if (battery !== undefined) {
        if (battery < LOW_BATTERY_BELOW && !state.active.has("battery_low")) {
          if (raise(entry, state, "battery_low", `${entry.name}: battery low`, `Battery at ${Math.round(battery)}%. Replace or charge it soon.`)) {
            state.active.add("battery_low");
          }
        } else if (battery > BATTERY_REARM_ABOVE) {
          state.active.delete("battery_low");
        }
      }

      const now = new Set<AlertType>();
      for (const breach of thresholdBreaches(entry.name, reading, entry.config)) {
        now.add(breach.type);
        const since = state.breachSince.get(breach.type) ?? t;
        state.breachSince.set(breach.type, since);
        if (t - since >= graceMs && !state.active.has(breach.type) && raise(entry, state, breach.type, breach.title, breach.body)) {
          state.active.add(breach.type);
        }
      }
      // A breach that ended re-arms its alert (the repeat window still applies).
      for (const type of [...state.breachSince.keys()]) {
        if (!now.has(type)) {
          state.breachSince.delete(type);
          state.active.delete(type);
        }
      }
    },

    /** Forgets an MCU (deleted). */
    forget(mcuId: number): void {
      states.delete(mcuId);
    },
  };
}

export type Alerts = ReturnType<typeof createAlerts>;
