import { alarmPagePath, DEFAULT_NOTIFICATION_PREFERENCES, mcuPagePath, metricValue, type Alarm, type AlarmKind, type AlarmMetric, type NotificationPreferences } from "../../src/contract/alarms-values.ts";
import type { LiveReading, Notification } from "../../src/contract/entities.ts";
import { BATTERY_REARM_ABOVE, LOW_BATTERY_BELOW, thresholdBreaches, type Breach, type BreachType } from "../../src/contract/conditions.ts";
import { PUSH_TTL_SECONDS } from "../../src/contract/push.ts";
import { alertsRepo, type AlarmHistory, type Measure, type WorsenedKind } from "../db/alerts-repo.ts";
import { clientsRepo } from "../db/clients-repo.ts";
import type { Database } from "../db/database.ts";
import { notificationsRepo } from "../db/notifications-repo.ts";
import { sensorCountsRepo, type SensorCounts } from "../db/sensor-counts-repo.ts";
import type { DeviceCutOff } from "../devices/device-budget.ts";
import type { McuEntry } from "../devices/mcu-directory.ts";
import { ENGLISH, writeBoth, writeWithWords, type Reader, type TitleAndBody } from "../texts.ts";
import { batteryLowWords, breachWords, mcuOfflineWords } from "./alarm-words.ts";
import { mayPush, type PushMessage, type PushNotifier } from "./push-sender.ts";
import {
  applyCounts,
  expectedCount,
  forgetReadings,
  missingWords,
  groupCount,
  SENSOR_GROUPS,
  SENSOR_MISSING_AFTER_MS,
  SENSOR_STUCK_AFTER_MS,
  sensorHealth,
  STUCK_METRICS,
  stuckWords,
  stuckValue,
  wasSilent,
  type SensorHealth,
} from "./sensor-health.ts";

export interface AlertOptions {
  db: Database;
  now: () => Date;
  /** Called with each stored notification, to push it to the client's sockets. */
  notify(clientId: number, notification: Notification): void;
  /** An alarm opened or resolved here: its whole new state, for the client's sockets. */
  alarmChanged?(clientId: number, alarm: Alarm): void;
  /** Sends a push message to the client's browser; absent when push is not configured. */
  push?: PushNotifier;
  /** The client's notification preferences, cached (see createPreferencesCache); the defaults when absent. */
  preferences?(clientId: number): Promise<NotificationPreferences>;
  /** A reading must stay out of range this long before it opens an alarm. */
  graceMs?: number;
  /**
   * An alarm resolves only once its condition has stayed clear this long (hysteresis): a value
   * that dips back within the profile for a moment neither resolves it nor, returning, opens another.
   */
  holdMs?: number;
  /** An alarm of the same kind for the same MCU is not announced again within this time (flapping). */
  repeatMs?: number;
  /** A sensor group must report fewer sensors than expected this long before it opens an alarm (SENSOR_MISSING_AFTER_MS). */
  missingAfterMs?: number;
  /** A metric must read exactly one value this long before its sensor counts as stuck (SENSOR_STUCK_AFTER_MS). */
  stuckAfterMs?: number;
  /**
   * How long this node trusts its copy of an MCU's unresolved alarms before reading them again:
   * with several server nodes, another one may have opened or resolved one meanwhile.
   */
  cacheMs?: number;
  log?: (msg: string) => void;
}

/** The kinds of alarm about one sensor of an MCU: one unresolved alarm per MCU, kind and sensor. */
type SensorKind = "sensor_missing" | "sensor_stuck";

/**
 * Where an alarm is kept apart from the others of its MCU: its kind, and for a sensor's alarm the
 * sensor too ("sensor_stuck:humidity", "sensor_missing:DHT").
 */
type Slot = AlarmKind | `${SensorKind}:${string}`;

const slotOf = (kind: AlarmKind, sensor?: string): Slot => (sensor ? `${kind as SensorKind}:${sensor}` : kind);
/** A sensor's alarms are the only ones whose slot names more than the kind. */
const isSensorSlot = (slot: Slot) => slot.includes(":");

const MISSING_SLOTS: readonly Slot[] = SENSOR_GROUPS.map((g) => slotOf("sensor_missing", g));
const STUCK_SLOTS: readonly Slot[] = STUCK_METRICS.map((m) => slotOf("sensor_stuck", m));

interface McuAlarmState {
  /** When `unresolved`, `lastAnnounced` and the sensor counts were read from the database, epoch ms; 0: not yet. */
  loadedAt: number;
  /** Alarms open or acknowledged, by slot (the database's alerts table is the truth). */
  unresolved: Set<Slot>;
  /** When an alarm of each slot was last announced, within the repeat window. */
  lastAnnounced: Map<Slot, number>;
  /** When each threshold breach started, while it lasts (a grace period restarts with the server). */
  breachSince: Map<BreachType, number>;
  /** Since when each unresolved alarm's condition has been clear, while it stays clear (the hold restarts with the server too). */
  clearSince: Map<Slot, number>;
  /** The worst value of each unresolved alarm as last stored (not yet known after a restart: the database keeps the truth). */
  worst: Map<WorsenedKind, number>;
  /** What the readings say about the MCU's sensors. */
  sensors: SensorHealth;
  /** This MCU's events, handled one after another. */
  queue: Promise<void>;
  /** Events queued and not yet handled. */
  busy: number;
}

/**
 * What a reading calls for: an alarm opened or resolved (`sensor`: for a sensor's alarm), an
 * unresolved alarm's worst value kept, or more sensors of a group than the MCU was known to have
 * (each checked again as it is applied).
 */
type Action =
  | { open: AlarmKind; sensor?: string; words: TitleAndBody; measure?: Measure }
  | { resolve: AlarmKind; sensor?: string }
  | { worsen: WorsenedKind; measure: Measure }
  | { report: number; count: number };

/** A value as finely as the alarm texts write it (a worse value by a hair is not worth a write). */
const written = (metric: AlarmMetric, v: number) => (metric === "co2" || metric === "batteryLevel" ? Math.round(v) : Math.round(v * 10) / 10);

/** Whether `value` is worse than `than` for an alarm of this kind: farther past its limit (`target`: the target temperature). */
function worse(kind: WorsenedKind, metric: AlarmMetric, value: number, than: number | undefined, target: number): boolean {
  if (than === undefined) return true;
  const v = written(metric, value);
  if (kind === "co2_high") return v > than;
  if (kind === "temperature_off_target") return Math.abs(v - target) > Math.abs(than - target);
  return v < than;
}

const isBreach = (slot: Slot): slot is BreachType => slot !== "battery_low" && slot !== "mcu_offline" && !isSensorSlot(slot);
const isWorsened = (kind: AlarmKind): kind is WorsenedKind => kind !== "mcu_offline" && kind !== "sensor_missing" && kind !== "sensor_stuck";

function breached(breaches: readonly Breach[], kind: AlarmKind): boolean {
  for (const b of breaches) if (b.type === kind) return true;
  return false;
}

/** Whether the client wants a bell notification for this kind of alarm. */
function inAppWants(p: NotificationPreferences, kind: AlarmKind): boolean {
  // A sensor that stops reporting or freezes is the device failing, as an MCU offline is.
  if (kind === "mcu_offline" || kind === "sensor_missing" || kind === "sensor_stuck") return p.in_app.device_status;
  if (kind === "battery_low") return p.in_app.battery;
  return p.in_app.environmental;
}

/**
 * Turns device events into alarms: an MCU offline, a low battery, a reading outside
 * the linked profile's thresholds for longer than a grace period, a sensor of an MCU that
 * reports no longer reporting (for `missingAfterMs`) or reading exactly one value (for
 * `stuckAfterMs`; sensor-health.ts). An alarm is a row of alerts
 * that stays unresolved while its condition lasts, so it opens once, not again after a restart
 * nor on another server node; it resolves once its condition has stayed clear for the hold time
 * (battery: above 35 %; offline: as soon as the MCU is back; a stuck sensor: as soon as its value
 * moves). Its opening is announced (the bell, as the client's preferences say, and push unless
 * turned off or in quiet hours), except within `repeatMs` of the last announcement of the same
 * kind (and sensor), so that a flapping sensor or connection does not flood the bell. Every opening and resolution goes to `alarmChanged`.
 */
/** The notification type of a device cut off for sending too much (not an alarm: it ends with its cooldown). */
export const SENDS_TOO_MUCH = "mcu_sends_too_much";

/** A cut-off's length in words: whole minutes as minutes, else seconds. */
const duration = (ms: number): TitleAndBody["title"] => {
  const s = Math.round(ms / 1000);
  return s % 60 !== 0 ? { key: "units.seconds", count: s } : { key: "units.minutes", count: s / 60 };
};

/** What the owner of a device cut off for sending too much is told. */
export function sendsTooMuchWords(name: string, c: Pick<DeviceCutOff, "messages" | "seconds" | "perSecond" | "cooldownMs">, disconnected: boolean): TitleAndBody {
  const cutOff = { key: disconnected ? "alarms.sendsTooMuch.disconnected" : "alarms.sendsTooMuch.ignored", values: { duration: duration(c.cooldownMs) } } as const;
  return {
    title: { key: "alarms.sendsTooMuch.title", values: { name } },
    body: { key: "alarms.sendsTooMuch.body", values: { name, messages: { num: c.messages, grouped: true }, seconds: c.seconds, perSecond: c.perSecond, cutOff } },
  };
}

export function createAlerts(o: AlertOptions) {
  const graceMs = o.graceMs ?? 5 * 60_000;
  const holdMs = o.holdMs ?? 2 * 60_000;
  const repeatMs = o.repeatMs ?? 60 * 60_000;
  const cacheMs = o.cacheMs ?? 60_000;
  const missingAfterMs = o.missingAfterMs ?? SENSOR_MISSING_AFTER_MS;
  const stuckAfterMs = o.stuckAfterMs ?? SENSOR_STUCK_AFTER_MS;
  const repo = alertsRepo(o.db);
  const sensorCounts = sensorCountsRepo(o.db);
  const clients = clientsRepo(o.db);
  const states = new Map<number, McuAlarmState>();
  const running = new Set<Promise<void>>();

  function stateOf(mcuId: number): McuAlarmState {
    let s = states.get(mcuId);
    if (!s) {
      s = {
        loadedAt: 0,
        unresolved: new Set(),
        lastAnnounced: new Map(),
        breachSince: new Map(),
        clearSince: new Map(),
        worst: new Map(),
        sensors: sensorHealth(),
        queue: Promise.resolve(),
        busy: 0,
      };
      states.set(mcuId, s);
    }
    return s;
  }

  /** What the database says about an MCU's alarms and sensors. */
  interface Stored {
    history: AlarmHistory[];
    sensors: SensorCounts | undefined;
  }

  /**
   * An MCU's alarm history and sensor counts, read together with every other MCU's falling due in
   * the same turn of the event loop (a fleet connected together falls due together: 2 000 MCUs
   * were 2 000 queries a minute, now a few dozen).
   */
  let batch: { mcus: Map<number, number>; done: Promise<{ histories: Map<number, AlarmHistory[]>; counts: Map<number, SensorCounts> }> } | null = null;
  function storedOf(entry: McuEntry, t: number): Promise<Stored> {
    if (!batch) {
      const mcus = new Map<number, number>();
      const done = new Promise<{ histories: Map<number, AlarmHistory[]>; counts: Map<number, SensorCounts> }>((resolve, reject) =>
        setImmediate(() => {
          batch = null;
          const keys = [...mcus].map(([mcuId, clientId]) => ({ mcuId, clientId }));
          Promise.all([repo.historiesOf(keys, new Date(t - repeatMs)), sensorCounts.countsOf([...mcus.keys()])]).then(([histories, counts]) => resolve({ histories, counts }), reject);
        }),
      );
      batch = { mcus, done };
    }
    batch.mcus.set(entry.mcuId, entry.clientId);
    return batch.done.then(({ histories, counts }) => ({ history: histories.get(entry.mcuId) ?? [], sensors: counts.get(entry.mcuId) }));
  }

  /** Runs `work` after the MCU's earlier events, with its alarm state read from the database when stale. */
  function enqueue(entry: McuEntry, work: (s: McuAlarmState, t: number) => Promise<void>): void {
    const s = stateOf(entry.mcuId);
    const t = o.now().getTime();
    const step = s.queue.then(async () => {
      if (t - s.loadedAt >= cacheMs) {
        const { history, sensors } = await storedOf(entry, t);
        s.unresolved = new Set(history.filter((h) => h.unresolved).map((h) => slotOf(h.kind, h.sensor)));
        s.lastAnnounced = new Map(history.flatMap((h) => (h.lastAnnouncedAt === null ? [] : [[slotOf(h.kind, h.sensor), h.lastAnnouncedAt] as const])));
        for (const slot of s.clearSince.keys()) if (!s.unresolved.has(slot)) s.clearSince.delete(slot);
        for (const kind of s.worst.keys()) if (!s.unresolved.has(kind)) s.worst.delete(kind);
        applyCounts(s.sensors, sensors);
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

  /** The condition of an unresolved alarm is clear at `t`: whether it has been for the hold time. */
  function heldClear(s: McuAlarmState, slot: Slot, t: number): boolean {
    const since = s.clearSince.get(slot);
    if (since === undefined) s.clearSince.set(slot, t);
    return t - (since ?? t) >= holdMs;
  }

  /** The MCU stopped or starts reporting again: its sensors are judged on what it reports from then on. */
  function forgetSensorReadings(s: McuAlarmState): void {
    forgetReadings(s.sensors);
    for (const slot of s.clearSince.keys()) if (isSensorSlot(slot)) s.clearSince.delete(slot);
  }

  /**
   * What a reading says about the MCU's sensors (decide's part for them, under its rules): each
   * group's count against what the MCU is expected to report, each metric's value against the
   * last. A reading of an MCU that reports all its sensors, each value moving, calls for nothing.
   */
  function decideSensors(entry: McuEntry, reading: LiveReading, s: McuAlarmState, t: number, out: Action[] | null): boolean {
    let calls = false;
    const h = s.sensors;
    if (wasSilent(h, t)) forgetSensorReadings(s);
    h.heardAt = t;
    for (let g = 0; g < SENSOR_GROUPS.length; g++) {
      const count = groupCount(reading, g);
      if (count > h.reported[g]!) {
        calls = true;
        out?.push({ report: g, count });
      }
      const expected = expectedCount(h, g);
      const slot = MISSING_SLOTS[g]!;
      if (count < expected) {
        if (Number.isNaN(h.missingSince[g]!)) h.missingSince[g] = t;
        if (s.unresolved.has(slot)) s.clearSince.delete(slot);
        else if (t - h.missingSince[g]! >= missingAfterMs) {
          calls = true;
          out?.push({ open: "sensor_missing", sensor: SENSOR_GROUPS[g], words: missingWords(entry.name, SENSOR_GROUPS[g]!, count, expected) });
        }
      } else {
        h.missingSince[g] = NaN;
        if (s.unresolved.has(slot) && heldClear(s, slot, t)) {
          calls = true;
          out?.push({ resolve: "sensor_missing", sensor: SENSOR_GROUPS[g] });
        }
      }
    }
    for (let m = 0; m < STUCK_METRICS.length; m++) {
      const value = stuckValue(reading, m);
      // A metric left out of a reading says nothing of its sensor's value (its group missing is the other alarm).
      if (value === undefined) {
        h.value[m] = NaN;
        h.sameSince[m] = NaN;
        continue;
      }
      const slot = STUCK_SLOTS[m]!;
      // Resolved only by a move this node saw: a node whose own count is younger (it lost its state,
      // or had not seen the alarm another node opened) must not take a frozen sensor for a live one.
      let moved = false;
      if (value !== h.value[m]) {
        const firstSeen = Number.isNaN(h.value[m]!);
        moved = !firstSeen;
        h.value[m] = value;
        // A stuck alarm opened before this node saw the value (before a restart, by another node,
        // before the MCU went offline) stays stuck until the value moves.
        h.sameSince[m] = firstSeen && s.unresolved.has(slot) ? -Infinity : t;
      }
      if (t - h.sameSince[m]! >= stuckAfterMs) {
        if (!s.unresolved.has(slot)) {
          calls = true;
          out?.push({ open: "sensor_stuck", sensor: STUCK_METRICS[m], words: stuckWords(entry.name, STUCK_METRICS[m]!, value, stuckAfterMs), measure: { metric: STUCK_METRICS[m]!, value } });
        }
      } else if (moved && s.unresolved.has(slot)) {
        calls = true;
        out?.push({ resolve: "sensor_stuck", sensor: STUCK_METRICS[m] });
      }
    }
    return calls;
  }

  /**
   * What a reading calls for, decided without the database (and so without waiting), into `out`
   * when given; answers whether it calls for anything. It keeps each breach's start and each
   * clearing's start in `s`; deciding twice on the same reading at the same time decides the same.
   * Nothing is allocated for a reading that changes nothing, beyond thresholdBreaches' answer.
   */
  function decide(entry: McuEntry, reading: LiveReading, s: McuAlarmState, t: number, out: Action[] | null): boolean {
    let calls = false;
    const battery = reading.batteryLevel;
    if (battery !== undefined) {
      if (battery < LOW_BATTERY_BELOW) {
        s.clearSince.delete("battery_low");
        if (!s.unresolved.has("battery_low")) {
          calls = true;
          out?.push({
            open: "battery_low",
            words: batteryLowWords(entry.name, battery),
            measure: { metric: "batteryLevel", value: battery },
          });
        } else if (worse("battery_low", "batteryLevel", battery, s.worst.get("battery_low"), 0)) {
          calls = true;
          out?.push({ worsen: "battery_low", measure: { metric: "batteryLevel", value: battery } });
        }
      } else if (s.unresolved.has("battery_low")) {
        // Between the two limits the battery is neither low nor recovered: a clearing starts over.
        if (battery <= BATTERY_REARM_ABOVE) s.clearSince.delete("battery_low");
        else if (heldClear(s, "battery_low", t)) {
          calls = true;
          out?.push({ resolve: "battery_low" });
        }
      }
    }
    if (decideSensors(entry, reading, s, t, out)) calls = true;
    const breaches = thresholdBreaches(entry.name, reading, entry.config);
    const otherKinds = (s.unresolved.has("battery_low") ? 1 : 0) + (s.unresolved.has("mcu_offline") ? 1 : 0);
    let openBreaches = false;
    // Only a sensor's alarms may be the others (rare): the set is walked only then.
    if (s.unresolved.size > otherKinds) {
      for (const slot of s.unresolved) {
        if (isBreach(slot)) {
          openBreaches = true;
          break;
        }
      }
    }
    if (breaches.length === 0 && s.breachSince.size === 0 && !openBreaches) return calls;
    for (const breach of breaches) {
      s.clearSince.delete(breach.type);
      let since = s.breachSince.get(breach.type);
      if (since === undefined) s.breachSince.set(breach.type, (since = t));
      const value = metricValue(reading, breach.metric);
      if (s.unresolved.has(breach.type)) {
        if (value !== undefined && worse(breach.type, breach.metric, value, s.worst.get(breach.type), entry.config?.ac.target_temp ?? 0)) {
          calls = true;
          out?.push({ worsen: breach.type, measure: { metric: breach.metric, value } });
        }
      } else if (t - since >= graceMs) {
        calls = true;
        // A breach is of a value the reading has, under the profile its MCU runs on.
        if (value !== undefined && entry.config) out?.push({ open: breach.type, words: breachWords(entry.name, breach.type, value, entry.config), measure: { metric: breach.metric, value } });
      }
    }
    // A breach that ended before its alarm opened starts its grace period over when it returns.
    if (s.breachSince.size > breaches.length) for (const type of s.breachSince.keys()) if (!breached(breaches, type)) s.breachSince.delete(type);
    if (openBreaches) {
      for (const slot of s.unresolved) {
        if (isBreach(slot) && !breached(breaches, slot) && heldClear(s, slot, t)) {
          calls = true;
          out?.push({ resolve: slot });
        }
      }
    }
    return calls;
  }

  const preferencesOf = (clientId: number): Promise<NotificationPreferences> =>
    o.preferences
      ? o.preferences(clientId).catch((err: Error) => {
          // The database that would have said is the one the alarm goes to: announce as by default rather than not at all.
          o.log?.(`alerts: preferences of client ${clientId}: ${err.message}`);
          return DEFAULT_NOTIFICATION_PREFERENCES;
        })
      : Promise.resolve(DEFAULT_NOTIFICATION_PREFERENCES);

  function push(clientId: number, message: PushMessage): void {
    o.push?.(clientId, message).catch((err: Error) => o.log?.(`push: ${err.message}`));
  }

  /** The language the MCU's account reads: its notifications and pushes are written in it (each person a call-out reaches reads theirs in their own). */
  const readerOf = (clientId: number) => clients.readerOf(clientId);
  const isEnglish = (r: Reader) => r.language === ENGLISH.language && r.digits === ENGLISH.digits;

  async function open(entry: McuEntry, s: McuAlarmState, t: number, kind: AlarmKind, words: TitleAndBody, measure?: Measure, sensor?: string): Promise<void> {
    const slot = slotOf(kind, sensor);
    if (s.unresolved.has(slot)) return;
    const last = s.lastAnnounced.get(slot);
    const announced = last === undefined || t - last >= repeatMs;
    const prefs = announced ? await preferencesOf(entry.clientId) : null;
    const at = new Date(t);
    // The alarm keeps its words, which the app says in each reader's language, beside its title and
    // body in the server's English; the account's notification and push are in the account's.
    const english = writeBoth(words, ENGLISH);
    const reader = await readerOf(entry.clientId);
    const { title, body } = isEnglish(reader) ? english : writeBoth(words, reader);
    const opened = await repo.open({ clientId: entry.clientId, mcuId: entry.mcuId, kind, sensor }, { ...english, words, note: { title, body } }, at, {
      announced,
      notify: prefs !== null && inAppWants(prefs, kind),
      measure,
    });
    // Null: another server node opened it first; it is unresolved all the same.
    s.unresolved.add(slot);
    s.clearSince.delete(slot);
    if (!opened) return;
    if (isWorsened(kind) && measure) s.worst.set(kind, written(measure.metric, measure.value));
    if (announced) s.lastAnnounced.set(slot, t);
    o.alarmChanged?.(entry.clientId, opened.alarm);
    if (opened.notification) o.notify(entry.clientId, opened.notification);
    // High urgency with a short life: Android holds normal-urgency pushes back by minutes in Doze, and an alarm that arrives late only repeats the app.
    if (prefs && mayPush(prefs, at)) {
      push(entry.clientId, { title, body, link: alarmPagePath(opened.alarm.alarm_id, entry.mcuId), urgency: "high", ttlSeconds: PUSH_TTL_SECONDS.high, alarmId: opened.alarm.alarm_id });
    }
  }

  async function resolve(entry: McuEntry, s: McuAlarmState, t: number, kind: AlarmKind, sensor?: string): Promise<void> {
    const slot = slotOf(kind, sensor);
    if (!s.unresolved.has(slot)) return;
    s.unresolved.delete(slot);
    s.clearSince.delete(slot);
    if (isWorsened(kind)) s.worst.delete(kind);
    const resolved = await repo.resolve({ clientId: entry.clientId, mcuId: entry.mcuId, kind, sensor }, new Date(t));
    if (resolved) o.alarmChanged?.(entry.clientId, resolved.alarm);
  }

  /** Keeps a worse value of an unresolved alarm (the database decides, against what any node kept). */
  async function worsen(entry: McuEntry, s: McuAlarmState, kind: WorsenedKind, { metric, value }: Measure): Promise<void> {
    if (!s.unresolved.has(kind)) return;
    const v = written(metric, value);
    if (!worse(kind, metric, v, s.worst.get(kind), entry.config?.ac.target_temp ?? 0)) return;
    const kept = await repo.worsen({ clientId: entry.clientId, mcuId: entry.mcuId, kind }, v, entry.config?.ac.target_temp ?? null);
    if (!kept) return;
    if ("alarm" in kept) {
      s.worst.set(kind, v);
      o.alarmChanged?.(entry.clientId, kept.alarm);
    } else if (kept.worst !== null) s.worst.set(kind, kept.worst);
  }

  /** More sensors of group `g` than the MCU was known to have: kept, so that fewer later are missed on any node and after a restart. */
  async function keepReported(entry: McuEntry, s: McuAlarmState, g: number, count: number): Promise<void> {
    if (count <= s.sensors.reported[g]!) return;
    s.sensors.reported[g] = count;
    await sensorCounts.keepReported(entry.mcuId, SENSOR_GROUPS[g]!, count);
  }

  /** The MCU is back: its offline alarm resolves, and if its going offline was announced, so is its return. */
  async function backOnline(entry: McuEntry, s: McuAlarmState, t: number): Promise<void> {
    if (!s.unresolved.has("mcu_offline")) return;
    s.unresolved.delete("mcu_offline");
    const prefs = await preferencesOf(entry.clientId);
    const at = new Date(t);
    const back = writeWithWords(
      { title: { key: "alarms.mcuOnline.title", values: { name: entry.name } }, body: { key: "alarms.mcuOnline.body", values: { name: entry.name, farm: entry.farmName } } },
      await readerOf(entry.clientId),
    );
    const resolved = await repo.resolve(
      { clientId: entry.clientId, mcuId: entry.mcuId, kind: "mcu_offline" },
      at,
      prefs.in_app.device_status ? { type: "mcu_online", ...back } : undefined,
    );
    if (!resolved) return;
    o.alarmChanged?.(entry.clientId, resolved.alarm);
    if (resolved.notification) o.notify(entry.clientId, resolved.notification);
    if (resolved.announced && mayPush(prefs, at)) push(entry.clientId, { title: back.title, body: back.body, link: mcuPagePath(entry.mcuId), alarmId: resolved.alarm.alarm_id });
  }

  return {
    onStatus(entry: McuEntry, status: "online" | "offline"): void {
      enqueue(entry, async (s, t) => {
        // An MCU offline is its own alarm, not its sensors'.
        forgetSensorReadings(s);
        if (status === "offline") {
          await open(entry, s, t, "mcu_offline", mcuOfflineWords(entry.name, entry.farmName));
        } else await backOnline(entry, s, t);
      });
    },

    onReading(entry: McuEntry, reading: LiveReading): void {
      // Most readings change nothing: they are decided here, at once, with no queue or promise
      // (this runs for every reading of every device). The rest, or any reading while this MCU
      // has events waiting or its state must be read again, goes through the queue.
      const s = stateOf(entry.mcuId);
      const t = o.now().getTime();
      if (s.busy === 0 && t - s.loadedAt < cacheMs && !decide(entry, reading, s, t, null)) return;
      enqueue(entry, async (s, t) => {
        const actions: Action[] = [];
        decide(entry, reading, s, t, actions);
        for (const action of actions) {
          if ("open" in action) await open(entry, s, t, action.open, action.words, action.measure, action.sensor);
          else if ("worsen" in action) await worsen(entry, s, action.worsen, action.measure);
          else if ("report" in action) await keepReported(entry, s, action.report, action.count);
          else await resolve(entry, s, t, action.resolve, action.sensor);
        }
      });
    },

    /**
     * A device was cut off for sending too much (once per episode: see DeviceBudget): its owner is
     * told in the bell (as the device-status preference says) and by push.
     */
    sendsTooMuch(entry: McuEntry, cutOff: DeviceCutOff, disconnected: boolean): void {
      const t = o.now();
      const done = (async () => {
        const prefs = await preferencesOf(entry.clientId);
        const text = writeWithWords(sendsTooMuchWords(entry.name, cutOff, disconnected), await readerOf(entry.clientId));
        // It leads to the MCU's history, where its readings show what it sent.
        if (prefs.in_app.device_status) o.notify(entry.clientId, await notificationsRepo(o.db).create(entry.clientId, { type: SENDS_TOO_MUCH, ...text }, t, { mcuId: entry.mcuId }));
        if (mayPush(prefs, t)) push(entry.clientId, { title: text.title, body: text.body, link: mcuPagePath(entry.mcuId) });
      })().catch((err: Error) => o.log?.(`alerts: ${entry.mac}: ${err.message}`));
      running.add(done);
      void done.finally(() => running.delete(done));
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
