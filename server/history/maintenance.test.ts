import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveReading } from "../../src/contract/entities.ts";
import { batchesRepo } from "../db/batches-repo.ts";
import { createTestServer, sampleConfig, seedClientData, type TestServer } from "../test-support/test-server.ts";
import { ABANDONED_REASON } from "./command-log-repo.ts";
import { runMaintenance } from "./maintenance.ts";
import { partitionsRepo } from "./partitions-repo.ts";
import { DAY_MS, ensurePartitions } from "./partitions.ts";
import { MinuteRollups } from "./rollups.ts";
import { recomputeHours, upsertMinuteRows } from "./rollups-repo.ts";

const NOW = Date.parse("2026-06-20T12:00:00Z");
const retention = { minuteDays: 30, hourDays: 365 };
const reading: LiveReading = { DHT: { temperature: 20, humidity: 85, count: 1 }, batteryLevel: 60 };

describe("the history job: partitions and retention", () => {
  let server: TestServer;
  let mcuId: number;
  let clientId: number;

  /** A minute of history of the MCU at `ms`, and its hour rebuilt; the partitions it needs are created. */
  async function historyAt(ms: number) {
    const { db } = server;
    for (const table of ["reading_minutes", "reading_hours", "device_state_events"] as const) await ensurePartitions(db, table, [ms]);
    const rollups = new MinuteRollups();
    rollups.put(mcuId, reading, ms);
    rollups.harvest(0, { all: true });
    await upsertMinuteRows(db, rollups.take());
    await recomputeHours(db, [mcuId], ms, ms + 1);
    await db.query("insert into device_state_events (mcu_id, at, target, status, auto) values ($1, $2, 'AC', true, true)", [mcuId, new Date(ms).toISOString()]);
  }

  async function command(id: string, atMs: number, outcome = "acknowledged") {
    await server.db.query(
      "insert into command_log (command_id, mcu_id, client_id, source, actor, target, type, on_off, at, outcome) values ($1, $2, $3, 'user', 'grower', 'AC', 'auto', true, $4, $5)",
      [id, mcuId, clientId, new Date(atMs).toISOString(), outcome],
    );
  }

  const count = async (table: string) => (await server.db.query<{ n: number }>(`select count(*)::int as n from ${table} where mcu_id = $1`, [mcuId]))[0]!.n;

  beforeAll(async () => {
    server = await createTestServer();
    const c = await server.signUp();
    clientId = c.clientId;
    mcuId = (await seedClientData(c)).mcu.mcu_id;
  });
  afterAll(() => server.close());

  it("creates partitions ahead: minutes today and the next 3 days, hours, state events and the command log this month and the next", async () => {
    const report = await runMaintenance(server.db, { nowMs: NOW, retention, abandonAfterMs: 60_000 });
    expect(report.errors).toEqual([]);
    expect(report.created.sort()).toEqual(
      [
        "reading_minutes_p20260620",
        "reading_minutes_p20260621",
        "reading_minutes_p20260622",
        "reading_minutes_p20260623",
        "reading_hours_p202606",
        "reading_hours_p202607",
        "device_state_events_p202606",
        "device_state_events_p202607",
        "command_log_p202606",
        "command_log_p202607",
      ].sort(),
    );
    // Again, and from two nodes at once: nothing more to do, and no error.
    const again = await Promise.all([0, 1].map(() => runMaintenance(server.db, { nowMs: NOW, retention, abandonAfterMs: 60_000 })));
    expect(again.map((r) => [r.created, r.errors])).toEqual([
      [[], []],
      [[], []],
    ]);
    // A reading of late tonight has its partition already.
    await historyAt(Date.parse("2026-06-23T23:59:00Z"));
    expect(await count("reading_minutes")).toBe(1);
  });

  it("drops the partitions wholly older than retention (the table, not rows) and keeps the rest with their data", async () => {
    const old = [
      Date.parse("2026-05-01T08:00:00Z"), // minutes: past 30 days; hours and events: kept (365 days)
      Date.parse("2026-05-21T13:00:00Z"), // minutes: its day ends after the cut-off (05-21 12:00): kept
      Date.parse("2025-05-10T08:00:00Z"), // everything past retention
      Date.parse("2025-06-25T08:00:00Z"), // hours and events: its month ends after the cut-off (2025-06-20 12:00): kept
      Date.parse("2026-06-19T08:00:00Z"), // recent
    ];
    for (const ms of old) await historyAt(ms);
    expect(await partitionsRepo(server.db).existing("reading_minutes")).toContain("reading_minutes_p20250510");

    const report = await runMaintenance(server.db, { nowMs: NOW, retention, abandonAfterMs: 60_000 });
    expect(report.errors).toEqual([]);
    expect(report.dropped.sort()).toEqual(
      ["reading_minutes_p20260501", "reading_minutes_p20250510", "reading_minutes_p20250625", "reading_hours_p202505", "device_state_events_p202505"].sort(),
    );
    const minutes = await partitionsRepo(server.db).existing("reading_minutes");
    expect(minutes).not.toContain("reading_minutes_p20260501");
    expect(minutes).toEqual(expect.arrayContaining(["reading_minutes_p20260521", "reading_minutes_p20260619", "reading_minutes_p20260620"]));
    expect(await partitionsRepo(server.db).existing("reading_hours")).toEqual(expect.arrayContaining(["reading_hours_p202506", "reading_hours_p202605", "reading_hours_p202606"]));
    expect(await partitionsRepo(server.db).existing("reading_hours")).not.toContain("reading_hours_p202505");
    const [gone] = await server.db.query<{ t: string | null }>("select to_regclass('reading_minutes_p20260501')::text as t");
    expect(gone!.t).toBeNull();

    const buckets = (table: string) =>
      server.db.query<{ b: Date }>(`select bucket as b from ${table} where mcu_id = $1 order by bucket`, [mcuId]).then((r) => r.map((x) => new Date(x.b).toISOString()));
    expect(await buckets("reading_minutes")).toEqual(["2026-05-21T13:00:00.000Z", "2026-06-19T08:00:00.000Z", "2026-06-23T23:59:00.000Z"]);
    expect(await buckets("reading_hours")).toEqual([
      "2025-06-25T08:00:00.000Z",
      "2026-05-01T08:00:00.000Z",
      "2026-05-21T13:00:00.000Z",
      "2026-06-19T08:00:00.000Z",
      "2026-06-23T23:00:00.000Z",
    ]);
    expect(await count("device_state_events")).toBe(5);
  });

  it("drops the command log's months wholly older than retention (the tables, not rows), keeps the newer rows, and finishes commands a stopped node left pending", async () => {
    const at = {
      gone: Date.parse("2025-05-10T08:00:00Z"), // its month ended before the cut-off (2025-06-20 12:00)
      lastOfMonth: Date.parse("2025-05-31T23:59:59.999Z"),
      straddling: Date.parse("2025-06-10T08:00:00Z"), // past retention, but its month ends after the cut-off: kept with its month
      kept: Date.parse("2026-01-15T08:00:00Z"),
      abandoned: NOW - 5 * 60_000,
      inFlight: NOW - 10_000,
    };
    await ensurePartitions(server.db, "command_log", Object.values(at));
    await command("gone", at.gone);
    await command("last-of-month", at.lastOfMonth, "pending");
    await command("straddling", at.straddling);
    await command("kept", at.kept);
    await command("abandoned", at.abandoned, "pending");
    await command("in-flight", at.inFlight, "pending");
    const [before] = await server.db.query<{ n: number }>("select count(*)::int as n from command_log");

    const report = await runMaintenance(server.db, { nowMs: NOW, retention, abandonAfterMs: 65_000 });
    expect(report.errors).toEqual([]);
    expect(report.dropped).toEqual(["command_log_p202505"]);
    // Only pending rows still in the log are swept: the one of the dropped month went with it.
    expect(report.commandsAbandoned).toBe(1);
    const months = await partitionsRepo(server.db).existing("command_log");
    expect(months).not.toContain("command_log_p202505");
    expect(months).toEqual(expect.arrayContaining(["command_log_p202506", "command_log_p202601", "command_log_p202606", "command_log_p202607"]));
    const [gone] = await server.db.query<{ t: string | null }>("select to_regclass('command_log_p202505')::text as t");
    expect(gone!.t).toBeNull();
    const rows = await server.db.query<{ command_id: string; outcome: string; reason: string | null }>("select command_id, outcome, reason from command_log where mcu_id = $1 order by at", [mcuId]);
    expect(rows).toEqual([
      { command_id: "straddling", outcome: "acknowledged", reason: null },
      { command_id: "kept", outcome: "acknowledged", reason: null },
      { command_id: "abandoned", outcome: "timed_out", reason: ABANDONED_REASON },
      { command_id: "in-flight", outcome: "pending", reason: null },
    ]);
    const [after] = await server.db.query<{ n: number }>("select count(*)::int as n from command_log");
    expect(before!.n - after!.n).toBe(2);

    // Past the straddling month's end plus retention, it goes too; the rest stays.
    const later = await runMaintenance(server.db, { nowMs: Date.parse("2026-07-01T00:00:00Z"), retention, abandonAfterMs: 65_000 });
    expect(later.dropped).toContain("command_log_p202506");
    expect((await server.db.query<{ command_id: string }>("select command_id from command_log where mcu_id = $1 order by at", [mcuId])).map((r) => r.command_id)).toEqual([
      "kept",
      "abandoned",
      "in-flight",
    ]);
  });
  it("deletes config changes as old as the command log's retention, but never an MCU's latest", async () => {
    const changes = batchesRepo(server.db);
    const record = (daysAgo: number, co2: number) =>
      changes.recordConfigChange({ mcu_id: mcuId, at: new Date(NOW - daysAgo * DAY_MS), cause: "profile", batch_id: null, detail: "Pinning", config: { ...sampleConfig, ventilation: { co2_threshold: co2 } } as never });
    await record(500, 1000);
    await record(400, 1100);
    await record(10, 1200);
    const report = await runMaintenance(server.db, { nowMs: NOW, retention, abandonAfterMs: 60_000 });
    expect(report.configChangesDropped).toBe(2);
    expect((await changes.configChanges(clientId, mcuId, 10)).map((c) => c.config?.ventilation.co2_threshold)).toEqual([1200]);
    // Alone and old, it stays: it is what the MCU runs on.
    await server.db.query("delete from config_changes where mcu_id = $1", [mcuId]);
    await record(600, 900);
    expect((await runMaintenance(server.db, { nowMs: NOW, retention, abandonAfterMs: 60_000 })).configChangesDropped).toBe(0);
  });
});
