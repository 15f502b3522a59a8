import { metricValue, type AlarmKind } from "../../src/contract/alarms-values.ts";
import { thresholdBreaches, type Breach } from "../../src/contract/conditions.ts";
import type { LiveReading, ProfileConfig } from "../../src/contract/entities.ts";
import type { CommandTarget } from "../../src/contract/realtime.ts";
import { breachWords } from "../alerts/alarm-words.ts";
import type { Database } from "../db/database.ts";
import { ensurePartitions } from "../history/partitions.ts";
import { MINUTE_MS, MinuteRollups } from "../history/rollups.ts";
import { recomputeHours, upsertMinuteRows } from "../history/rollups-repo.ts";
import { StateTracker, type StateChange } from "../history/state-tracker.ts";
import { giveReasons } from "../history/switch-reasons-repo.ts";
import { ENGLISH, writeBoth, type TitleAndBody } from "../texts.ts";
import { demoHistoryRepo, type SeededCommand } from "./demo-history-repo.ts";
import { ambientAt, DEFAULT_CONFIG, initialRoom, rng, stepRoom, telemetryOf, type RoomState } from "./physics.ts";
import type { FleetDevice } from "./simulated-mcu.ts";

export interface HistorySeed {
  /** False when the demo's MCUs already have history within the day. */
  seeded: boolean;
  /** The room each seeded MCU ended the day in, by MAC: the fleet starts from it, so the live curves go on from the seeded ones. */
  rooms: Map<string, RoomState>;
  /** Resolves once the day is in the database (it is written in the background: the server is up meanwhile). */
  written: Promise<{ mcus: number; minuteRows: number; stateEvents: number; commands: number; alarms: number }>;
}

/** The live alarm engine's defaults (server/alerts/alerts.ts): a breach opens an alarm after this long, which resolves once clear this long. */
const ALARM_GRACE_MS = 5 * 60_000;
const ALARM_HOLD_MS = 2 * 60_000;

/** An alarm the seeded day opened and resolved. */
export interface SeededAlarm {
  kind: AlarmKind;
  openedAt: number;
  resolvedAt: number;
  title: string;
  body: string;
  /** What title and body say, as the live engine keeps them: each reader reads them in their own language. */
  words: TitleAndBody;
}

/**
 * Follows a day's readings of one MCU as the live alarm engine would (a breach opens an alarm
 * once it has lasted the grace period; it resolves once clear for the hold time), and answers
 * the alarms that opened and resolved within it. One still open at the end is left to the live
 * engine, which sees the condition itself.
 */
export class AlarmReplay {
  private readonly since = new Map<AlarmKind, number>();
  private readonly open = new Map<AlarmKind, { openedAt: number; words: TitleAndBody; clearSince: number | null }>();
  readonly done: SeededAlarm[] = [];

  constructor(
    private readonly name: string,
    private readonly config: ProfileConfig | null,
  ) {}

  observe(reading: LiveReading, t: number): void {
    const breaches: Breach[] = thresholdBreaches(this.name, reading, this.config);
    for (const b of breaches) {
      const open = this.open.get(b.type);
      if (open) {
        open.clearSince = null;
        continue;
      }
      const since = this.since.get(b.type) ?? t;
      this.since.set(b.type, since);
      // A breach is of a value the reading has, under a profile (thresholdBreaches finds none without one).
      if (t - since >= ALARM_GRACE_MS) this.open.set(b.type, { openedAt: t, words: breachWords(this.name, b.type, metricValue(reading, b.metric)!, this.config!), clearSince: null });
    }
    for (const kind of this.since.keys()) if (!breaches.some((b) => b.type === kind) && !this.open.has(kind)) this.since.delete(kind);
    for (const [kind, open] of this.open) {
      if (breaches.some((b) => b.type === kind)) continue;
      open.clearSince ??= t;
      if (t - open.clearSince >= ALARM_HOLD_MS) {
        // Written as the live engine writes an alarm's own title and body: in the server's English.
        this.done.push({ kind, openedAt: open.openedAt, resolvedAt: t, ...writeBoth(open.words, ENGLISH), words: open.words });
        this.open.delete(kind);
        this.since.delete(kind);
      }
    }
  }
}

/** One sample every 10 s (the physics steps at that pace too): 6 per minute; the 12 rooms' day takes well under a second of CPU. */
const SAMPLE_S = 10;
/**
 * Rows per statement (12 MCUs' day: 3 statements of minutes, 4 or 5 each of state changes and
 * commands): large statements, and between them the requests of the server that is already up.
 */
const SEED_CHUNK = 6000;

/** A grower's own commands in the seeded day, as the command log keeps them. */
interface UserCommand {
  mcuId: number;
  actor: string;
  target: CommandTarget;
  type: "auto" | "status";
  onOff: boolean;
  at: number;
}

/**
 * Gives the demo's MCUs a day of history, so that a new user's first look at an MCU shows its
 * last 24 h: on a fresh demo, and at any start when the demo's newest minute is older than that.
 * Each room runs through the simulator's own physics over the day before `now`, at a real room's
 * pace (one simulated second a second): the outside temperature's day and night, the linked
 * profile's automation switching the controllers, the battery draining down to today's level. In
 * every fourth room the grower switched the exhaust fan off by hand for 40 minutes in the early
 * morning (Automation off, fan off, later Automation on again): CO2 climbs while it is off. The
 * samples are folded by the live path's rollups and state tracker; the automation's switching
 * becomes state events and command-log rows, as the devices' reports would.
 */
export async function seedDemoHistory(db: Database, devices: FleetDevice[], { now = new Date(), hours = 24 } = {}): Promise<HistorySeed> {
  const none: HistorySeed = { seeded: false, rooms: new Map(), written: Promise.resolve({ mcus: 0, minuteRows: 0, stateEvents: 0, commands: 0, alarms: 0 }) };
  const repo = demoHistoryRepo(db);
  const mcus = await repo.mcusOf(devices.map((d) => d.mac));
  if (mcus.length === 0) return none;

  const end = now.getTime() - (now.getTime() % MINUTE_MS);
  const start = end - hours * 3600_000;
  const newest = await repo.newestMinute(mcus.map((m) => m.mcu_id));
  if (newest && new Date(newest).getTime() >= start) return none;

  const byMac = new Map(devices.map((d) => [d.mac, d]));
  const rollups = new MinuteRollups();
  const tracker = new StateTracker();
  const rooms = new Map<string, RoomState>();
  const userCommands: UserCommand[] = [];
  const alarms: (SeededAlarm & { mcuId: number; clientId: number; acknowledgedBy: string | null })[] = [];
  for (const [i, mcu] of mcus.entries()) {
    const device = byMac.get(mcu.mac)!;
    const random = rng(device.seed * 7919 + 13);
    const config = mcu.config ?? DEFAULT_CONFIG;
    // The day ends at today's battery level (at most where a full battery is after a day), drained as the physics drains it.
    const battery = device.battery ?? 40 + random() * 60;
    const room = initialRoom(random, Math.min(100, battery + 0.0004 * hours * 3600));
    // The fan's 40 minutes off: from 04:00 UTC in the seeded day (07:00 at the farms), in every fourth room,
    // unless that is too close to now (the fleet goes on from the day's end, Automation on).
    const at4 = start + ((((Date.UTC(2000, 0, 1, 4) - start) % 86_400_000) + 86_400_000) % 86_400_000);
    const fanOff = i % 4 === 1 && at4 + 60 * MINUTE_MS < end ? at4 : -1;
    const fanOn = fanOff + 40 * MINUTE_MS;
    const user = (target: CommandTarget, type: "auto" | "status", onOff: boolean, at: number) =>
      userCommands.push({ mcuId: mcu.mcu_id, actor: mcu.username, target, type, onOff, at });
    // The first hour is the rooms settling from where the simulation began: no alarms from it.
    const replay = new AlarmReplay(mcu.name, mcu.config);
    const settled = start + 3600_000;
    for (let t = start; t < end; t += SAMPLE_S * 1000) {
      if (t === fanOff) {
        room.actuators.Ventilation = { status: false, auto: false };
        user("Ventilation", "auto", false, t - 4000);
        user("Ventilation", "status", false, t - 2000);
      } else if (t === fanOn) {
        room.actuators.Ventilation.auto = true;
        user("Ventilation", "auto", true, t - 2000);
      }
      stepRoom(room, config, SAMPLE_S, random, ambientAt(t));
      const reading = telemetryOf(room, device.counts, random);
      rollups.put(mcu.mcu_id, reading, t);
      tracker.observe(mcu.mcu_id, reading, t);
      if (t >= settled) replay.observe(reading, t);
    }
    rooms.set(mcu.mac, room);
    // The grower who switched the fan off knew why its CO2 alarm came: they acknowledged it, saying so.
    for (const a of replay.done) alarms.push({ ...a, mcuId: mcu.mcu_id, clientId: mcu.client_id, acknowledgedBy: a.kind === "co2_high" && fanOff >= 0 && a.openedAt >= fanOff && a.openedAt < fanOn ? mcu.username : null });
  }
  rollups.harvest(end, { all: true });
  const rows = rollups.take();
  const changes = tracker.take();
  const automation = automationChanges(changes);
  const ids = mcus.map((m) => m.mcu_id);

  async function write() {
    for (const table of ["reading_minutes", "reading_hours", "device_state_events", "command_log"] as const) await ensurePartitions(db, table, [start, end - 1]);
    await upsertMinuteRows(db, rows, SEED_CHUNK);
    await recomputeHours(db, ids, start, end);
    for (const part of chunks(changes)) await repo.insertStateEvents(part);
    // Each switch's reason, as the live writer keeps it: the simulated device's rule, with the batch's phase if one ran.
    await giveReasons(db, automation);
    const log = [
      ...automation.map((c): SeededCommand => ({ mcuId: c.mcuId, actor: null, source: "automation", target: c.target, type: "status", onOff: c.status, at: c.at, outcome: "reported", why: c.reason ?? null })),
      ...userCommands.map((c): SeededCommand => ({ ...c, source: "user", outcome: "acknowledged" })),
    ];
    for (const part of chunks(log)) await repo.insertCommands(part);
    // The fleet reported meanwhile, and the server stored each controller's first state as a change
    // (nothing came before it yet): now that the day is in, those repeat its last state.
    await repo.deleteRepeatedStates(ids, end, end + 10 * MINUTE_MS);
    // The day's alarms, resolved (no notification: they are yesterday's news, listed on the Alarms page).
    for (const a of alarms) {
      await repo.insertResolvedAlarm({
        ...a,
        acknowledgedAt: a.acknowledgedBy ? Math.min(a.openedAt + 3 * MINUTE_MS, a.resolvedAt) : null,
        ackComment: a.acknowledgedBy ? "Exhaust fan off by hand while we clean the ducts." : null,
      });
    }
    return { mcus: mcus.length, minuteRows: rows.length, stateEvents: changes.length, commands: log.length, alarms: alarms.length };
  }
  return { seeded: true, rooms, written: write() };
}

function* chunks<T>(rows: T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += SEED_CHUNK) yield rows.slice(i, i + SEED_CHUNK);
}

/** The changes the automation made: Automation on, and the status switched from a known one. */
function automationChanges(changes: StateChange[]): StateChange[] {
  const status = new Map<string, boolean>();
  return changes.filter((c) => {
    const key = `${c.mcuId}:${c.target}`;
    const before = status.get(key);
    status.set(key, c.status);
    return c.auto && before !== undefined && before !== c.status;
  });
}
