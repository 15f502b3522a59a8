import type { PasswordHasher } from "../auth/password.ts";
import type { Database } from "../db/database.ts";
import type { Reader } from "../texts.ts";
import { demoRepo } from "./demo-repo.ts";
import { ensureDemo } from "./demo.ts";
import { startFleet, type Fleet } from "./fleet.ts";
import { seedDemoHistory } from "./history-seed.ts";
import { startIncidents, type Incidents } from "./incidents.ts";
import { resumedRooms } from "./resumed-rooms.ts";

export interface DemoStartOptions {
  db: Database;
  hasher: PasswordHasher;
  /** Where the devices connect, and how the seed's profile links reach them (the server's System). */
  system: { mqttUrl: string; publishLinkedConfigs(): Promise<void> };
  /** Telemetry reports per second per device. */
  hz: number;
  /** Simulated seconds per real second. */
  speed: number;
  /** Minutes between the demo's incidents; 0: none. */
  incidentMinutes: number;
  /** When the first incident starts after the fleet (default a minute: see startIncidents). */
  firstIncidentAfterMs?: number;
  log: { info(msg: string): void; warn(msg: string): void; debug(msg: string): void };
  /** The language and digits the demo person reads, when the demo is first made (English unless said): its notifications are written in them. */
  reader?: Reader;
}

export interface RunningDemo {
  fleet: Fleet;
  /** Simulated MCUs of the demo client's farms (claimed), and unclaimed labels that report once someone adds them. */
  claimed: number;
  unclaimed: number;
  /** The demo data was made at this start. */
  created: boolean;
  /** Settles once the seeded day (if one was made at this start) is in the database. */
  historyWritten: Promise<void>;
  /** Stops the incidents and the fleet; the devices leave silently (no status, no last-will: see Fleet.stop). */
  stop(): Promise<void>;
}

/**
 * Seeds the demo on its first start, and starts its simulated fleet with each room where it was:
 * at the end of the seeded day when one was just made, otherwise at its MCU's latest stored
 * reading, so that a server restart shows no step in any room (see resumedRooms).
 */
export async function startDemo(o: DemoStartOptions): Promise<RunningDemo> {
  const { db, log } = o;
  const repo = demoRepo(db);
  const demo = await ensureDemo(db, o.hasher, undefined, o.reader);
  // The seed links profiles in the database directly: their devices must hear of it.
  if (demo.created) await o.system.publishLinkedConfigs();
  // A day of history for a new demo (or one last run over a day ago); its devices go on from where it ends.
  const started = Date.now();
  const history = await seedDemoHistory(db, demo.devices).catch((err: Error) => {
    log.warn(`demo history: not made: ${err.message}`);
    return undefined;
  });
  const generatedMs = Date.now() - started;
  const historyWritten = (history?.written ?? Promise.resolve(undefined)).then(
    (n) => {
      if (n && n.mcus > 0) {
        log.info(`Demo history: the last 24 h of ${n.mcus} MCUs (${n.minuteRows} minutes, ${n.stateEvents} state changes, ${n.commands} commands, ${n.alarms} alarms): made in ${generatedMs} ms, written in the background in ${Date.now() - started} ms`);
      }
    },
    (err: Error) => log.warn(`demo history: not written: ${err.message}`),
  );
  const resumed = history?.seeded ? new Map() : await resumedRooms(db, demo.devices);
  const fleet = await startFleet({
    url: o.system.mqttUrl,
    devices: demo.devices.map((d) => ({ ...d, room: history?.rooms.get(d.mac) ?? resumed.get(d.mac) })),
    hz: o.hz,
    speed: o.speed,
    log: (m) => log.debug(m),
    onKey: (mac, key) => void repo.saveKey(mac, key).catch((err: Error) => log.warn(`demo device ${mac}: its new key was not saved: ${err.message}`)),
  });

  const names = await repo.mcuNames(demo.devices.map((d) => d.mac));
  const claimed = names.size;
  const unclaimed = demo.devices.length - claimed;
  log.info(
    `Demo fleet: ${claimed} simulated MCUs in the demo's farms (${resumed.size} resumed where they were)` +
      `${unclaimed > 0 ? `, and ${unclaimed} unclaimed MCU labels that report once added` : ""}${demo.created ? " (demo data created)" : ""}`,
  );

  let incidents: Incidents | undefined;
  if (o.incidentMinutes > 0) {
    // A shorter incident when they come often, so that one is over before the next begins.
    const everyMs = o.incidentMinutes * 60_000;
    incidents = startIncidents(fleet.mcus, { everyMs, lastsMs: Math.min(10 * 60_000, everyMs / 3), firstAfterMs: o.firstIncidentAfterMs, log: (m) => log.info(m), nameOf: (mac) => names.get(mac) });
  }

  return {
    fleet,
    claimed,
    unclaimed,
    created: demo.created,
    historyWritten,
    async stop() {
      incidents?.stop();
      await fleet.stop();
    },
  };
}
