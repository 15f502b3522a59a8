import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOPICS } from "../../src/contract/mqtt.ts";
import { createTestSystem, nextData, type TestSystem } from "../test-support/test-system.ts";
import type { NodeMetrics } from "../metrics.ts";
import { createTestServer, seedClientData } from "../test-support/test-server.ts";
import { ABANDONED_REASON, commandLogRepo } from "./command-log-repo.ts";
import { createCommandLog } from "./command-log.ts";
import { startHistory } from "./history-writer.ts";
import { ensurePartitions, partitionAt } from "./partitions.ts";

describe("reading history from the live stream", () => {
  let t: TestSystem;
  beforeAll(async () => {
    t = await createTestSystem();
  });
  afterAll(() => t?.close());

  it("folds the readings a device sends into its minute and hour, written by the system", async () => {
    const owner = await t.signUp();
    const { socket } = await owner.socket();
    const dev = await owner.device();
    const raw = await t.rawMqtt(dev.mac, dev.key);
    const sent = [
      { DHT: { temperature: 18, humidity: 90, count: 1 }, CO2: { co2: 800, count: 1 }, batteryLevel: 77 },
      { DHT: { temperature: 20, humidity: 86, count: 1 }, batteryLevel: 77 },
      { DHT: { temperature: 22, humidity: 88, count: 1 }, CO2: { co2: 1000, count: 1 }, batteryLevel: 76 },
    ];
    // Within one minute (a reading belongs to the minute it arrives in): start right after a minute begins if need be.
    if (Date.now() % 60_000 > 55_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
    for (const [i, r] of sent.entries()) {
      const heard = nextData(socket, (p) => p.deviceId === dev.mac && p.payload.DHT?.temperature === r.DHT.temperature);
      await raw.publishAsync(TOPICS.telemetry(dev.mac), JSON.stringify(r));
      await heard;
      if (i === 0) await t.system.history.flush(); // a part of the minute written early: the rest merges into it
    }
    await t.system.history.flush();
    const cols = "bucket, temperature_min, temperature_avg, temperature_max, temperature_n, humidity_avg, co2_min, co2_max, co2_n, battery_min, battery_max, battery_n, soil_moisture_n";
    const minutes = await t.db.query<Record<string, unknown>>(`select ${cols} from reading_minutes where mcu_id = $1`, [dev.mcuId]);
    expect(minutes).toHaveLength(1);
    expect(minutes[0]).toMatchObject({ temperature_min: 18, temperature_max: 22, temperature_n: 3, co2_min: 800, co2_max: 1000, co2_n: 2, battery_min: 76, battery_max: 77, battery_n: 3, soil_moisture_n: 0 });
    expect(minutes[0]!.temperature_avg).toBeCloseTo(20, 4);
    expect(minutes[0]!.humidity_avg).toBeCloseTo(88, 4);
    const hours = await t.db.query<Record<string, unknown>>(`select ${cols} from reading_hours where mcu_id = $1`, [dev.mcuId]);
    expect(hours).toHaveLength(1);
    const bucket = new Date(minutes[0]!.bucket as Date).getTime();
    expect(new Date(hours[0]!.bucket as Date).getTime()).toBe(bucket - (bucket % 3600_000));
    expect(hours[0]).toMatchObject({ temperature_min: 18, temperature_max: 22, temperature_n: 3, co2_n: 2, battery_n: 3 });
  });

  it("creates today's partition again if it is missing when the minute is written", async () => {
    const owner = await t.signUp();
    const { socket } = await owner.socket();
    const dev = await owner.device();
    const raw = await t.rawMqtt(dev.mac, dev.key);
    await t.system.history.flush();
    const today = partitionAt("reading_minutes", Date.now()).name;
    await t.db.query(`drop table ${today}`);
    const heard = nextData(socket, (p) => p.deviceId === dev.mac);
    await raw.publishAsync(TOPICS.telemetry(dev.mac), JSON.stringify({ DHT: { temperature: 21, humidity: 85, count: 1 } }));
    await heard;
    await t.system.history.flush();
    expect(await t.db.query("select temperature_n from reading_minutes where mcu_id = $1", [dev.mcuId])).toEqual([{ temperature_n: 1 }]);
  });

  it("shows its counters in the node's metrics: rows written, a minute written again, nothing left waiting, the job's last run", async () => {
    const owner = await t.signUp();
    const { socket } = await owner.socket();
    const dev = await owner.device();
    const raw = await t.rawMqtt(dev.mac, dev.key);
    const metrics = async () => (await t.system.app.inject({ method: "GET", url: "/api/metrics" })).json() as NodeMetrics;
    await t.system.history.flush();
    const before = (await metrics()).history;
    if (Date.now() % 60_000 > 55_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
    for (const temperature of [20, 21]) {
      const heard = nextData(socket, (p) => p.deviceId === dev.mac && p.payload.DHT?.temperature === temperature);
      await raw.publishAsync(TOPICS.telemetry(dev.mac), JSON.stringify({ DHT: { temperature, humidity: 85, count: 1 }, Humidifier: { status: temperature > 20, auto: true } }));
      await heard;
      // The first reading's minute is written early; the second one's share of it is written again, late.
      await t.system.history.flush();
    }
    const after = (await metrics()).history;
    expect(after.minuteRowsWritten - before.minuteRowsWritten).toBe(2);
    expect(after.lateMinuteRows - before.lateMinuteRows).toBe(1);
    expect(after.stateEventsWritten - before.stateEventsWritten).toBe(2);
    expect(after.automationLogged - before.automationLogged).toBe(1);
    expect(after).toMatchObject({ writeErrors: 0, droppedOverflow: 0, pending: { minuteRows: 0, stateChanges: 0, commandRows: 0, hoursToRebuild: 0 } });
    // The job ran at start and made this month's partitions (and more).
    expect(after.maintenance.partitionsCreated).toBeGreaterThanOrEqual(5);
    expect(after.maintenance).toMatchObject({ lastRunAt: expect.any(String), lastRunErrors: 0 });
  });
});

describe("reading history in a month whose command-log partition is missing", () => {
  it("writes the state changes and the automation's switches all the same (one statement writes both tables: both are created)", async () => {
    const server = await createTestServer();
    try {
      const c = await server.signUp();
      const { mcu } = await seedClientData(c);
      const history = await startHistory({ db: server.db, now: () => new Date(), commandTimeoutMs: 5000, eventsFlushMs: 60_000 });
      try {
        const month = partitionAt("command_log", Date.now()).name;
        // The history job made it at start; a restore, an operator's hand, a job that failed at the turn of the month: gone.
        await server.db.query(`drop table ${month}`);
        const t0 = Date.now();
        history.onReading(mcu.mcu_id, { Humidifier: { status: false, auto: true } }, t0);
        // (In the next second: within one, only the latest state of a controller is kept.)
        history.onReading(mcu.mcu_id, { Humidifier: { status: true, auto: true } }, t0 + 1000);
        await history.flush();
        const log = await server.db.query<{ source: string; on_off: boolean; outcome: string; part: string }>(
          "select source, on_off, outcome, tableoid::regclass::text as part from command_log where mcu_id = $1 order by at",
          [mcu.mcu_id],
        );
        expect(log).toEqual([{ source: "automation", on_off: true, outcome: "reported", part: month }]);
        expect(await server.db.query("select status from device_state_events where mcu_id = $1 order by at", [mcu.mcu_id])).toEqual([{ status: false }, { status: true }]);
        expect(history.stats()).toMatchObject({ stateEventsWritten: 2, automationLogged: 1, writeErrors: 0, droppedPastRetention: 0, pending: { stateChanges: 0 } });
      } finally {
        await history.close();
      }
    } finally {
      await server.close();
    }
  });
});

describe("reading history at start", () => {
  it("finishes the commands a previous run left pending (older than the command time-out) and makes today's partitions", async () => {
    const server = await createTestServer();
    try {
      const c = await server.signUp();
      const { mcu } = await seedClientData(c);
      const insert = (id: string, ageMs: number) =>
        server.db.query(
          "insert into command_log (command_id, mcu_id, client_id, source, actor, target, type, on_off, at, outcome) values ($1, $2, $3, 'user', 'grower', 'AC', 'auto', true, $4, 'pending')",
          [id, mcu.mcu_id, c.clientId, new Date(Date.now() - ageMs).toISOString()],
        );
      await ensurePartitions(server.db, "command_log", [Date.now() - 60_000, Date.now()]);
      await insert("left-behind", 60_000);
      await insert("just-sent", 500);
      const history = await startHistory({ db: server.db, now: () => new Date(), commandTimeoutMs: 5000 });
      await history.close();
      const rows = await server.db.query("select command_id, outcome, reason from command_log where mcu_id = $1 order by at", [mcu.mcu_id]);
      expect(rows).toEqual([
        { command_id: "left-behind", outcome: "timed_out", reason: ABANDONED_REASON },
        { command_id: "just-sent", outcome: "pending", reason: null },
      ]);
      const [today] = await server.db.query<{ t: string | null }>("select to_regclass($1)::text as t", [partitionAt("reading_minutes", Date.now()).name]);
      expect(today!.t).not.toBeNull();
    } finally {
      await server.close();
    }
  });

  it("lets a node's real outcome replace the time-out another node's start gave its pending command", async () => {
    const server = await createTestServer();
    try {
      const c = await server.signUp();
      const { mcu } = await seedClientData(c);
      const commands = createCommandLog();
      const sentAt = Date.now() - 10_000;
      commands.recorder.sent({ commandId: "slow", mcuId: mcu.mcu_id, clientId: c.clientId, actor: "grower", target: "AC", type: "status", onOff: true, at: sentAt });
      expect(await commands.flush(server.db, Date.now())).toBe(1);
      // Another node starts and takes it for a command of a run that stopped.
      expect(await commandLogRepo(server.db).sweepAbandoned(Date.now() - 5000, Date.now())).toBe(1);
      commands.recorder.answered("slow", "acknowledged", null, Date.now());
      expect(await commands.flush(server.db, Date.now())).toBe(1);
      const outcome = () => server.db.query("select outcome, reason from command_log where command_id = 'slow'");
      expect(await outcome()).toEqual([{ outcome: "acknowledged", reason: null }]);
      // A final outcome is never replaced.
      commands.recorder.sent({ commandId: "slow", mcuId: mcu.mcu_id, clientId: c.clientId, actor: "grower", target: "AC", type: "status", onOff: true, at: sentAt });
      await commands.flush(server.db, Date.now());
      expect(await outcome()).toEqual([{ outcome: "acknowledged", reason: null }]);
    } finally {
      await server.close();
    }
  });
});
