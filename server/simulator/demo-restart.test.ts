import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLowBattery, thresholdBreaches } from "../../src/contract/conditions.ts";
import type { LiveReading, ProfileConfig } from "../../src/contract/entities.ts";
import { createPasswordHasher } from "../auth/password.ts";
import type { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { DEFAULT_SESSION } from "../http/session.ts";
import { startSystem, type System } from "../system.ts";
import { openTestDatabase } from "../test-support/test-server.ts";
import { startDemo, type RunningDemo } from "./demo-start.ts";

const hasher = createPasswordHasher({ log2N: 10 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A server node as main.ts starts it, on loopback ports of its own; a breach opens its alarm after a second. */
function startNode(db: Database): Promise<System> {
  return startSystem({
    db,
    hasher,
    http: { host: "127.0.0.1", port: 0, allowedOrigins: ["https://farm.example.com"], session: DEFAULT_SESSION, loginGuard: { perAddressPerMinute: 100_000 } },
    mqtt: { mode: "embedded", host: "127.0.0.1", port: 0 },
    alerts: { graceMs: 1000 },
    readingsFlushMs: 100,
  });
}

const quiet = { info: () => {}, warn: () => {}, debug: () => {} };

interface StoredMcu {
  mcu_id: number;
  name: string;
  readings: LiveReading | null;
  last_seen_at: Date | null;
  config: ProfileConfig | null;
}

const storedMcus = (db: Database) =>
  db.query<StoredMcu>(
    `select m.mcu_id, m.name, m.readings, m.last_seen_at, p.config from mcus m
     left join profile_links l on l.mcu_id = m.mcu_id
     left join setting_profiles p on p.profile_id = l.profile_id
     order by m.mcu_id`,
  );

async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

/** What a reading breaches, as the alarm engine sees it: `kind` per MCU. */
function breachesOf(mcu: StoredMcu): string[] {
  if (!mcu.readings) return [];
  const kinds = thresholdBreaches(mcu.name, mcu.readings, mcu.config).map((b) => b.type as string);
  if (isLowBattery(mcu.readings)) kinds.push("battery_low");
  return kinds;
}

describe("a restart of the demo", () => {
  let db: Database;
  let drop: () => Promise<void>;
  let system: System | undefined;
  let demo: RunningDemo | undefined;
  let before: StoredMcu[];
  let after: StoredMcu[];
  let restartAt: Date;
  const logLines: string[] = [];

  beforeAll(async () => {
    ({ db, drop } = await openTestDatabase());
    await migrate(db);

    // The first start: a new demo, its seeded day, the fleet going on from the day's end.
    system = await startNode(db);
    demo = await startDemo({ db, hasher, system, hz: 2, speed: 1, incidentMinutes: 0, log: { ...quiet, info: (m) => logLines.push(m) } });
    await demo.historyWritten;
    const mcuCount = (await storedMcus(db)).length;
    // A grower switched the first room's AC to manual: a restart must not hand it back to the automation.
    demo.fleet.mcus.find((m) => m.mac.endsWith(":10:00:01"))!.room.actuators.AC.auto = false;
    const reportedSince = async (at: Date) => (await storedMcus(db)).filter((m) => m.last_seen_at && m.last_seen_at.getTime() > at.getTime()).length === mcuCount;
    const ranFrom = new Date(Date.now() + 1500);
    await until("every room reported on the first run", () => reportedSince(ranFrom));

    await demo.stop();
    await system.close(); // writes the readings still waiting
    before = await storedMcus(db);

    restartAt = new Date();
    system = await startNode(db);
    demo = await startDemo({ db, hasher, system, hz: 2, speed: 1, incidentMinutes: 0, log: quiet });
    await until("every room reported after the restart", () => reportedSince(restartAt));
    after = await storedMcus(db);
    // Past the alarms' grace: a room the restart had put out of its profile would have its alarm now.
    await sleep(3000);
  }, 180_000);

  afterAll(async () => {
    await demo?.stop();
    await system?.close();
    await db?.close();
    await drop?.();
  });

  it("logs the demo's MCUs and its unclaimed labels apart", () => {
    expect(logLines).toContain("Demo fleet: 12 simulated MCUs in the demo's farms (0 resumed where they were), and 3 unclaimed MCU labels that report once added (demo data created)");
  });

  it("goes on in every room from its last reading before the restart", () => {
    expect(after.map((m) => m.name)).toEqual(before.map((m) => m.name));
    const steps = before.map((b, i) => {
      const was = b.readings!;
      const is = after[i]!.readings!;
      return {
        name: b.name,
        temperature: Math.abs(is.DHT!.temperature - was.DHT!.temperature),
        humidity: Math.abs(is.DHT!.humidity - was.DHT!.humidity),
        co2: Math.abs(is.CO2!.co2 - was.CO2!.co2),
        soilTemperature: Math.abs(is.SOIL_TEMP!.soil_temperature - was.SOIL_TEMP!.soil_temperature),
        soilMoisture: Math.abs(is.MOISTURE!.soil_moisture - was.MOISTURE!.soil_moisture),
        battery: Math.abs(is.batteryLevel! - was.batteryLevel!),
        automation: (["Irrigation", "AC", "Ventilation", "Humidifier"] as const).filter((t) => is[t]!.auto !== was[t]!.auto),
      };
    });
    // A sensor's own noise and a few seconds of a real room's drift; a room started afresh is degrees and points away.
    const within = { temperature: 0.5, humidity: 1.5, co2: 30, soilTemperature: 0.5, soilMoisture: 1.5, battery: 1 };
    const outside = steps.filter((s) => Object.entries(within).some(([k, band]) => s[k as keyof typeof within] > band) || s.automation.length > 0);
    expect(outside, JSON.stringify(steps, null, 1)).toEqual([]);
    expect(after[0]!.readings!.AC!.auto).toBe(false);
  });

  it("opens no alarm that the last readings before it did not call for, and announces nothing", async () => {
    const opened = await db.query<{ mcu_id: number; type: string }>("select mcu_id, type from alerts where raised_at >= $1", [restartAt]);
    const called = new Set(before.flatMap((m) => breachesOf(m).map((kind) => `${m.mcu_id}:${kind}`)));
    const names = new Map(before.map((m) => [m.mcu_id, m.name]));
    expect(opened.filter((a) => !called.has(`${a.mcu_id}:${a.type}`)).map((a) => `${names.get(a.mcu_id)}: ${a.type}`)).toEqual([]);
    const announced = await db.query<{ title: string }>("select title from notifications where created_at >= $1", [restartAt]);
    const ofCalledAlarms = opened.filter((a) => called.has(`${a.mcu_id}:${a.type}`)).length;
    expect(announced.length, JSON.stringify(announced)).toBeLessThanOrEqual(ofCalledAlarms);
  });
});
