import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveReading } from "../../src/contract/entities.ts";
import { createTestServer, seedClientData, type TestServer } from "../test-support/test-server.ts";
import { ensurePartitions } from "./partitions.ts";
import { insertStateChanges } from "./state-events-repo.ts";
import { StateTracker, type StateChange } from "./state-tracker.ts";

const T0 = Date.parse("2026-06-01T10:00:00Z");
const s = (seconds: number) => T0 + seconds * 1000;

const controllers = (over: Partial<LiveReading> = {}): LiveReading => ({
  DHT: { temperature: 20, humidity: 85, count: 1 },
  Irrigation: { status: false, auto: true, session: false },
  AC: { status: false, auto: true },
  Ventilation: { status: true, auto: true },
  Humidifier: { status: false, auto: false },
  ...over,
});

const brief = (changes: StateChange[]) => changes.map((c) => [c.mcuId, c.at - T0, c.target, c.status, c.auto, c.session]);

describe("controller state changes heard in readings", () => {
  it("records each controller's first state, then only changes, once each", () => {
    const tracker = new StateTracker();
    tracker.observe(1, controllers(), s(0));
    expect(brief(tracker.take())).toEqual([
      [1, 0, "Irrigation", false, true, false],
      [1, 0, "AC", false, true, null],
      [1, 0, "Ventilation", true, true, null],
      [1, 0, "Humidifier", false, false, null],
    ]);
    for (let i = 1; i <= 50; i++) tracker.observe(1, controllers(), s(i));
    expect(tracker.take()).toEqual([]);

    tracker.observe(1, controllers({ AC: { status: true, auto: true } }), s(60));
    tracker.observe(1, controllers({ AC: { status: true, auto: true } }), s(61));
    tracker.observe(1, controllers({ AC: { status: true, auto: false } }), s(62));
    tracker.observe(1, controllers({ AC: { status: true, auto: false }, Irrigation: { status: true, auto: true, session: true } }), s(63));
    expect(brief(tracker.take())).toEqual([
      [1, 60_000, "AC", true, true, null],
      [1, 62_000, "AC", true, false, null],
      [1, 63_000, "Irrigation", true, true, true],
    ]);
  });

  it("keeps each MCU apart, and a reading without controllers changes nothing", () => {
    const tracker = new StateTracker();
    tracker.observe(1, controllers(), s(0));
    tracker.observe(2, controllers(), s(0));
    tracker.take();
    tracker.observe(2, { DHT: { temperature: 30, humidity: 50, count: 1 } }, s(1));
    tracker.observe(2, { Humidifier: { status: true, auto: false } }, s(2));
    tracker.observe(1, controllers(), s(3));
    expect(brief(tracker.take())).toEqual([[2, 2000, "Humidifier", true, false, null]]);
  });

  it("asks whether a user's command asked for the change", () => {
    const asked: unknown[] = [];
    const tracker = new StateTracker((mcuId, target, status, at) => (asked.push([mcuId, target, status, at - T0]), target === "AC"));
    tracker.observe(1, controllers(), s(0));
    tracker.take();
    asked.length = 0;
    tracker.observe(1, controllers({ AC: { status: true, auto: true }, Ventilation: { status: false, auto: true } }), s(5));
    expect(asked).toEqual([
      [1, "AC", true, 5000],
      [1, "Ventilation", false, 5000],
    ]);
    expect(tracker.take().map((c) => [c.target, c.userCaused])).toEqual([
      ["AC", true],
      ["Ventilation", false],
    ]);
  });

  it("puts changes whose write failed back in front of newer ones, up to a limit", () => {
    const tracker = new StateTracker();
    tracker.observe(1, controllers(), s(0));
    const failed = tracker.take();
    tracker.observe(1, controllers({ AC: { status: true, auto: true } }), s(1));
    expect(tracker.putBack(failed, 3)).toBe(2);
    expect(brief(tracker.take()).map((c) => c[2])).toEqual(["Ventilation", "Humidifier", "AC"]);
  });

  it("keeps at most one change per controller and second, the latest state of that second", () => {
    const tracker = new StateTracker();
    tracker.observe(1, controllers(), s(0));
    tracker.take();
    // 1 000 flips of the AC within second 10, ending switched on; the humidifier flips and flips back.
    for (let i = 0; i < 1000; i++) tracker.observe(1, controllers({ AC: { status: i % 2 === 0, auto: true } }), s(10) + i * 0.9);
    tracker.observe(1, controllers({ Humidifier: { status: true, auto: false } }), s(10) + 950);
    tracker.observe(1, controllers(), s(10) + 960);
    tracker.observe(1, controllers({ AC: { status: true, auto: true } }), s(10) + 999);
    // Within the second it is held; once the second is over, its last state goes out, stamped with its time.
    expect(tracker.take(s(10) + 999)).toEqual([]);
    expect(tracker.pendingCount).toBe(2);
    expect(brief(tracker.take(s(11)))).toEqual([
      [1, 10_999, "AC", true, true, null],
      [1, 10_960, "Humidifier", false, false, null],
    ]);
    expect(tracker.pendingCount).toBe(0);
  });

  it("lets a change of the next second push the previous second's out, and a flush take the current one", () => {
    const tracker = new StateTracker();
    tracker.observe(1, controllers(), s(0));
    tracker.take();
    for (let second = 20; second < 25; second++) {
      for (let i = 0; i < 50; i++) tracker.observe(1, controllers({ AC: { status: i % 2 === 1, auto: true } }), s(second) + i * 10);
    }
    // Seconds 20 to 23 are over (a change in the next one came); 24 is still held at its own time.
    expect(brief(tracker.take(s(24) + 600))).toEqual([20, 21, 22, 23].map((sec) => [1, sec * 1000 + 490, "AC", true, true, null]));
    expect(brief(tracker.take())).toEqual([[1, 24_490, "AC", true, true, null]]);
  });
});

describe("state changes in the database", () => {
  let server: TestServer;
  let mcuId: number;
  beforeAll(async () => {
    server = await createTestServer();
    mcuId = (await seedClientData(await server.signUp())).mcu.mcu_id;
    await ensurePartitions(server.db, ["device_state_events", "command_log"], [T0]);
  });
  afterAll(() => server.close());

  const change = (seconds: number, target: StateChange["target"], status: boolean, auto = true, userCaused = false): StateChange => ({
    mcuId,
    at: s(seconds),
    target,
    status,
    auto,
    session: target === "Irrigation" ? status : null,
    userCaused,
    why: null,
    values: {},
  });
  const events = () =>
    server.db
      .query<{ at: Date; target: string; status: boolean; auto: boolean; session: boolean | null }>(
        "select at, target, status, auto, session from device_state_events where mcu_id = $1 order by at, target",
        [mcuId],
      )
      .then((rows) => rows.map((r) => [(new Date(r.at).getTime() - T0) / 1000, r.target, r.status, r.auto, r.session]));
  const automation = () =>
    server.db
      .query<{ at: Date; target: string; on_off: boolean; actor: string | null; outcome: string; type: string; client_id: number | null }>(
        "select at, target, on_off, actor, outcome, type, client_id from command_log where mcu_id = $1 and source = 'automation' order by at",
        [mcuId],
      )
      .then((rows) => rows.map((r) => [(new Date(r.at).getTime() - T0) / 1000, r.target, r.on_off, r.type, r.outcome, r.actor, r.client_id !== null]));

  it("stores changes, drops those that repeat the stored state (a restart, a second node), and logs the automation's switching", async () => {
    const db = server.db;
    expect(await insertStateChanges(db, [change(0, "AC", false), change(0, "Irrigation", false)])).toEqual({ events: 2, automation: 0 });
    // After a restart the first reading of each controller counts as a change in memory: the same state is not stored again.
    expect(await insertStateChanges(db, [change(30, "AC", false), change(30, "Irrigation", false)])).toEqual({ events: 0, automation: 0 });
    // Several changes of one controller in one batch, out of order: each compared with the one before it.
    expect(await insertStateChanges(db, [change(62, "AC", false), change(61, "AC", true), change(60, "Irrigation", true)])).toEqual({ events: 3, automation: 3 });
    // Automation off: the grower's doing, not logged as the automation's.
    expect(await insertStateChanges(db, [change(90, "AC", true, false)])).toEqual({ events: 1, automation: 0 });
    // Automation on again (status unchanged), then it switches off: logged.
    expect(await insertStateChanges(db, [change(120, "AC", true, true), change(150, "AC", false, true)])).toEqual({ events: 2, automation: 1 });
    expect(await events()).toEqual([
      [0, "AC", false, true, null],
      [0, "Irrigation", false, true, false],
      [60, "Irrigation", true, true, true],
      [61, "AC", true, true, null],
      [62, "AC", false, true, null],
      [90, "AC", true, false, null],
      [120, "AC", true, true, null],
      [150, "AC", false, true, null],
    ]);
    expect(await automation()).toEqual([
      [60, "Irrigation", true, "status", "reported", null, true],
      [61, "AC", true, "status", "reported", null, true],
      [62, "AC", false, "status", "reported", null, true],
      [150, "AC", false, "status", "reported", null, true],
    ]);
  });

  it("does not log a change a user's command asked for as the automation's: this node's flag, or a user command in the log", async () => {
    const db = server.db;
    await insertStateChanges(db, [change(200, "Ventilation", false)]);
    expect(await insertStateChanges(db, [change(210, "Ventilation", true, true, true)])).toEqual({ events: 1, automation: 0 });
    // Sent from another node: its row is in the command log.
    await db.query(
      "insert into command_log (command_id, mcu_id, source, actor, target, type, on_off, at, outcome) values ('other-node', $1, 'user', 'grower', 'Ventilation', 'status', false, $2, 'acknowledged')",
      [mcuId, new Date(s(215)).toISOString()],
    );
    expect(await insertStateChanges(db, [change(218, "Ventilation", false)])).toEqual({ events: 1, automation: 0 });
    // Long after that command, the automation's own switching is logged again.
    expect(await insertStateChanges(db, [change(400, "Ventilation", true)])).toEqual({ events: 1, automation: 1 });
  });

  it("finds the user's command sent in the month before the change it asked for (the log is partitioned by month)", async () => {
    const db = server.db;
    const room = (await seedClientData(await server.signUp())).mcu.mcu_id;
    await ensurePartitions(db, ["device_state_events", "command_log"], [Date.parse("2026-05-31T23:00:00Z")]);
    const at = (iso: string): StateChange => ({ ...change(0, "Humidifier", false), mcuId: room, at: Date.parse(iso) });
    expect(await insertStateChanges(db, [at("2026-05-31T23:00:00Z")])).toEqual({ events: 1, automation: 0 });
    await db.query(
      "insert into command_log (command_id, mcu_id, source, actor, target, type, on_off, at, outcome) values ('before-midnight', $1, 'user', 'grower', 'Humidifier', 'status', true, '2026-05-31T23:59:50Z', 'acknowledged')",
      [room],
    );
    // 15 s later, in June: the grower's doing.
    expect(await insertStateChanges(db, [{ ...at("2026-06-01T00:00:05Z"), status: true }])).toEqual({ events: 1, automation: 0 });
    // The automation switching it back 10 minutes later is its own.
    expect(await insertStateChanges(db, [at("2026-06-01T00:10:00Z")])).toEqual({ events: 1, automation: 1 });
    const logged = await db.query<{ command_id: string; source: string; part: string }>(
      "select command_id, source, tableoid::regclass::text as part from command_log where mcu_id = $1 order by at",
      [room],
    );
    expect(logged.map((r) => [r.command_id === "before-midnight" ? r.command_id : "uuid", r.source, r.part])).toEqual([
      ["before-midnight", "user", "command_log_p202605"],
      ["uuid", "automation", "command_log_p202606"],
    ]);
  });

  it("skips the changes of an MCU deleted before they were written", async () => {
    const other = (await seedClientData(await server.signUp())).mcu.mcu_id;
    await server.db.query("delete from profile_links where mcu_id = $1", [other]);
    await server.db.query("delete from mcus where mcu_id = $1", [other]);
    expect(await insertStateChanges(server.db, [{ ...change(500, "AC", true), mcuId: other }, change(500, "Humidifier", true)])).toEqual({ events: 1, automation: 0 });
  });
});
