import type { AlertType, LiveReading, Notification } from "../../src/contract/entities.ts";
import { BATTERY_REARM_ABOVE, LOW_BATTERY_BELOW, thresholdBreaches, type BreachType } from "../../src/contract/conditions.ts";
import { alertsRepo } from "../db/alerts-repo.ts";
import type { Database } from "../db/database.ts";
import type { McuEntry } from "../devices/mcu-directory.ts";

export interface AlertOptions {
  db: Database;
  now: () => Date;
  /** Called with each stored notification, to push it to the client's sockets. */
  notify(clientId: number, notification: Notification): void;
  /** A reading must stay out of range this long before it raises an alert. */
  graceMs?: number;
  /** The same alert for the same MCU is not repeated within this time (flapping). */
  repeatMs?: number;
  /**
   * How long this node trusts its copy of an MCU's unresolved alerts before reading them again:
   * with several server nodes, another one may have raised or resolved one meanwhile.
   */
  cacheMs?: number;
  log?: (msg: string) => void;
}

interface McuAlertState {
  /** When `unresolved` and `lastRaised` were read from the database, epoch ms; 0: not yet. */
  loadedAt: number;
  /** Alert types raised and not yet resolved (the database's alerts table is the truth). */
  unresolved: Set<AlertType>;
  /** When each alert type was last raised. */
  lastRaised: Map<AlertType, number>;
  /** When each threshold breach started, while it lasts (a grace period restarts with the server). */
  breachSince: Map<BreachType, number>;
  /** This MCU's events, handled one after another. */
  queue: Promise<void>;
  /** Events queued and not yet handled. */
  busy: number;
}

/** What a reading calls for: an alert raised or resolved (each checked again as it is applied). */
type Action = { raise: AlertType; title: string; body: string } | { resolve: AlertType };

const isBreach = (type: AlertType): type is BreachType => type !== "battery_low" && type !== "mcu_offline" && type !== "mcu_online";

/**
 * Turns device events into notifications: offline / back online, low battery, and readings
 * outside the linked profile's thresholds for longer than a grace period. An alert stays open
 * in the database while its condition lasts, so it is raised once, not again after a restart;
 * the condition clearing resolves it and re-arms it. Repeats within `repeatMs` are suppressed
 * so that a flapping sensor or connection does not flood the bell.
 */
export function createAlerts(o: AlertOptions) {
  const graceMs = o.graceMs ?? 5 * 60_000;
  const repeatMs = o.repeatMs ?? 60 * 60_000;
  const cacheMs = o.cacheMs ?? 60_000;
  const repo = alertsRepo(o.db);
  const states = new Map<number, McuAlertState>();
  const running = new Set<Promise<void>>();

  function stateOf(mcuId: number): McuAlertState {
    let s = states.get(mcuId);
    if (!s) {
      s = { loadedAt: 0, unresolved: new Set(), lastRaised: new Map(), breachSince: new Map(), queue: Promise.resolve(), busy: 0 };
      states.set(mcuId, s);
    }
    return s;
  }

  /** Runs `work` after the MCU's earlier events, with its alert state read from the database when stale. */
  function enqueue(entry: McuEntry, work: (s: McuAlertState, t: number) => Promise<void>): void {
    const s = stateOf(entry.mcuId);
    const t = o.now().getTime();
    const step = s.queue.then(async () => {
      if (t - s.loadedAt >= cacheMs) {
        const history = await repo.historyOf(entry.clientId, entry.mcuId);
        s.unresolved = new Set(history.filter((h) => h.unresolved).map((h) => h.type));
        s.lastRaised = new Map(history.map((h) => [h.type, h.lastRaisedAt]));
        s.loadedAt = t;
      }
      await work(s, t);
    });
    const done = step.catch((err: Error) => o.log?.(`alerts: ${entry.mac}: ${err.message}`));
    s.queue = done;
    s.busy++;
    running.add(done);
    void done.finally(() => {
      s.busy--;
      running.delete(done);
    });
  }

  const mayRaise = (s: McuAlertState, t: number, type: AlertType) => {
    const last = s.lastRaised.get(type);
    return !s.unresolved.has(type) && !(last !== undefined && t - last < repeatMs);
  };

  /**
   * What a reading calls for, decided without the database (and so without waiting). It keeps
   * each breach's start in `s`; deciding twice on the same reading decides the same.
   */
  function decide(entry: McuEntry, reading: LiveReading, s: McuAlertState, t: number): Action[] {
    const actions: Action[] = [];
    const battery = reading.batteryLevel;
    if (battery !== undefined) {
      if (battery < LOW_BATTERY_BELOW) {
        if (mayRaise(s, t, "battery_low")) actions.push({ raise: "battery_low", title: `${entry.name}: battery low`, body: `Battery at ${Math.round(battery)}%. Replace or charge it soon.` });
      } else if (battery > BATTERY_REARM_ABOVE && s.unresolved.has("battery_low")) {
        actions.push({ resolve: "battery_low" });
      }
    }
    const breaches = thresholdBreaches(entry.name, reading, entry.config);
    if (breaches.length === 0 && s.breachSince.size === 0 && s.unresolved.size === 0) return actions;
    const current = new Set<BreachType>();
    for (const breach of breaches) {
      current.add(breach.type);
      const since = s.breachSince.get(breach.type) ?? t;
      s.breachSince.set(breach.type, since);
      if (t - since >= graceMs && mayRaise(s, t, breach.type)) actions.push({ raise: breach.type, title: breach.title, body: breach.body });
    }
    // A breach that ended re-arms its alert (the repeat window still applies).
    for (const type of s.breachSince.keys()) if (!current.has(type)) s.breachSince.delete(type);
    for (const type of s.unresolved) if (isBreach(type) && !current.has(type)) actions.push({ resolve: type });
    return actions;
  }

  async function raise(entry: McuEntry, s: McuAlertState, t: number, type: AlertType, title: string, body: string): Promise<void> {
    if (s.unresolved.has(type)) return;
    const last = s.lastRaised.get(type);
    if (last !== undefined && t - last < repeatMs) return;
    const n = await repo.raise({ clientId: entry.clientId, mcuId: entry.mcuId, type }, { title, body }, new Date(t));
    // Null: another server node raised it first; it is unresolved all the same.
    s.unresolved.add(type);
    if (n) {
      s.lastRaised.set(type, t);
      o.notify(entry.clientId, n);
    }
  }

  async function resolve(entry: McuEntry, s: McuAlertState, t: number, type: AlertType): Promise<void> {
    if (!s.unresolved.has(type)) return;
    s.unresolved.delete(type);
    await repo.resolve({ clientId: entry.clientId, mcuId: entry.mcuId, type }, new Date(t));
  }

  return {
    onStatus(entry: McuEntry, status: "online" | "offline"): void {
      enqueue(entry, async (s, t) => {
        if (status === "offline") {
          await raise(entry, s, t, "mcu_offline", `${entry.name} went offline`, `${entry.name} (${entry.farmName}) stopped reporting.`);
        } else if (s.unresolved.has("mcu_offline")) {
          // Only a device whose going offline was announced is announced back, once.
          s.unresolved.delete("mcu_offline");
          const n = await repo.resolve({ clientId: entry.clientId, mcuId: entry.mcuId, type: "mcu_offline" }, new Date(t), {
            type: "mcu_online",
            title: `${entry.name} is back online`,
            body: `${entry.name} (${entry.farmName}) is reporting again.`,
          });
          if (n) o.notify(entry.clientId, n);
        }
      });
    },

    onReading(entry: McuEntry, reading: LiveReading): void {
      // Most readings change nothing: they are decided here, at once, with no queue or promise
      // (this runs for every reading of every device). The rest, or any reading while this MCU
      // has events waiting or its state must be read again, goes through the queue.
      const s = stateOf(entry.mcuId);
      const t = o.now().getTime();
      if (s.busy === 0 && t - s.loadedAt < cacheMs && decide(entry, reading, s, t).length === 0) return;
      enqueue(entry, async (s, t) => {
        for (const action of decide(entry, reading, s, t)) {
          if ("raise" in action) await raise(entry, s, t, action.raise, action.title, action.body);
          else await resolve(entry, s, t, action.resolve);
        }
      });
    },

    /** Forgets an MCU (deleted). */
    forget(mcuId: number): void {
      states.delete(mcuId);
    },

    /** Resolves when every event received so far has been handled (tests, shutdown). */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}

export type Alerts = ReturnType<typeof createAlerts>;
