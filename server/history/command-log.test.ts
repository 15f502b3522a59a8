import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import { TOPICS } from "../../src/contract/mqtt.ts";
import type { CommandAck } from "../../src/contract/realtime.ts";
import { createTestSystem, nextData, nextStatus, sleep, type TestOwner, type TestSystem } from "../test-support/test-system.ts";
import { createTestServer, seedClientData, type TestServer } from "../test-support/test-server.ts";
import { createCommandLog } from "./command-log.ts";
import { partitionsRepo } from "./partitions-repo.ts";

interface LogRow {
  command_id: string;
  client_id: number | null;
  source: string;
  actor: string | null;
  target: string;
  type: string;
  on_off: boolean;
  at: Date;
  outcome: string;
  reason: string | null;
  answered_at: Date | null;
}

/** Waits until `read` answers something `done` accepts (at most ~5 s), and answers it. */
async function poll<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  let v = await read();
  for (let i = 0; i < 50 && !done(v); i++) {
    await sleep(100);
    v = await read();
  }
  return v;
}

describe("the command log: every command sent from the app and its outcome, and the automation's own changes", () => {
  let t: TestSystem;
  let owner: TestOwner;
  let socket: Socket;
  let username: string;

  beforeAll(async () => {
    t = await createTestSystem({ commandTimeoutMs: 1500 });
    owner = await t.signUp();
    ({ socket } = await owner.socket());
    [{ username }] = (await t.db.query<{ username: string }>("select username from clients where client_id = $1", [owner.clientId])) as [{ username: string }];
  });
  afterAll(() => t?.close());

  const send = (mac: string, type: "auto" | "status", onOff: boolean, target = "Humidifier") =>
    new Promise<CommandAck>((resolve) => socket.emit("sendCommand", { deviceId: mac, type, value: { type, onOff, target } }, resolve));
  const log = (mcuId: number) =>
    t.db.query<LogRow>(
      "select command_id, client_id, source, actor, target, type, on_off, at, outcome, reason, answered_at from command_log where mcu_id = $1 order by at",
      [mcuId],
    );

  it("logs a command the device acknowledged and one it refused, with who sent them and the device's reason", async () => {
    const dev = await owner.device();
    const online = nextStatus(socket, (p) => p.deviceId === dev.mac && p.status === "online");
    await dev.sim.start();
    await online;
    const before = Date.now();
    expect(await send(dev.mac, "status", true)).toEqual({ ok: false, message: "Turn Automation off to switch Humidifier by hand", reason: "device_refused" });
    expect(await send(dev.mac, "auto", false)).toEqual({ ok: true });
    await t.system.history.flush();
    const rows = await log(dev.mcuId);
    expect(rows.map(({ command_id, at, answered_at, ...r }) => r)).toEqual([
      { client_id: owner.clientId, source: "user", actor: username, target: "Humidifier", type: "status", on_off: true, outcome: "refused", reason: "Turn Automation off to switch Humidifier by hand" },
      { client_id: owner.clientId, source: "user", actor: username, target: "Humidifier", type: "auto", on_off: false, outcome: "acknowledged", reason: null },
    ]);
    for (const r of rows) {
      expect(r.command_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Date(r.at).getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(new Date(r.answered_at!).getTime()).toBeGreaterThanOrEqual(new Date(r.at).getTime());
    }
  });

  it("logs a command the device never answered as pending, then timed out", async () => {
    const silent = await owner.device();
    const raw = await t.rawMqtt(silent.mac, silent.key);
    const online = nextStatus(socket, (p) => p.deviceId === silent.mac && p.status === "online");
    await raw.publishAsync(TOPICS.status(silent.mac), "online", { retain: true, qos: 1 });
    await online;
    const answer = send(silent.mac, "auto", true, "Ventilation");
    // Written within the log's second, before any answer.
    const pending = await poll(
      () => log(silent.mcuId),
      (rows) => rows.length > 0,
    );
    expect(pending.map((r) => [r.outcome, r.answered_at])).toEqual([["pending", null]]);
    expect(await answer).toMatchObject({ ok: false, message: `MCU ${silent.mac.slice(-5)} did not answer in time`, reason: "device_no_answer" });
    await t.system.history.flush();
    const [row] = await log(silent.mcuId);
    expect(row).toMatchObject({ command_id: pending[0]!.command_id, outcome: "timed_out", reason: `MCU ${silent.mac.slice(-5)} did not answer in time`, actor: username, type: "auto", on_off: true });
    expect(new Date(row!.answered_at!).getTime() - new Date(row!.at).getTime()).toBeGreaterThanOrEqual(1400);
  });

  it("logs a command to an offline MCU, never sent, as failed with the message the user got", async () => {
    const sleeping = await owner.device();
    expect(await send(sleeping.mac, "status", false, "AC")).toEqual({ ok: false, message: `MCU ${sleeping.mac.slice(-5)} is offline`, reason: "device_offline", params: { name: `MCU ${sleeping.mac.slice(-5)}` } });
    await t.system.history.flush();
    expect((await log(sleeping.mcuId)).map((r) => [r.source, r.actor, r.target, r.type, r.on_off, r.outcome, r.reason])).toEqual([
      ["user", username, "AC", "status", false, "failed", `MCU ${sleeping.mac.slice(-5)} is offline`],
    ]);
  });

  it("logs a change the device's automation made and reported, and shows it on the timeline within about a second", async () => {
    const dev = await owner.device();
    const raw = await t.rawMqtt(dev.mac, dev.key);
    const report = async (humidifier: boolean) => {
      const heard = nextData(socket, (p) => p.deviceId === dev.mac && p.payload.Humidifier?.status === humidifier);
      await raw.publishAsync(TOPICS.telemetry(dev.mac), JSON.stringify({ DHT: { temperature: 19, humidity: 80, count: 1 }, Humidifier: { status: humidifier, auto: true }, batteryLevel: 70 }));
      await heard;
    };
    await report(false);
    await report(false);
    // The switch in a later second than the first state: within one second only a controller's latest state is kept.
    await sleep(1000 - (Date.now() % 1000) + 20);
    const switchedAt = Date.now();
    await report(true);
    // No flush asked for: the state events' own beat writes it.
    const events = await poll(
      () => t.db.query<{ status: boolean }>("select status from device_state_events where mcu_id = $1 order by at", [dev.mcuId]),
      (rows) => rows.length === 2,
    );
    expect(events.map((e) => e.status)).toEqual([false, true]);
    expect(Date.now() - switchedAt).toBeLessThan(3000);
    const rows = await poll(
      () => log(dev.mcuId),
      (r) => r.length > 0,
    );
    expect(rows.map((r) => [r.source, r.actor, r.target, r.type, r.on_off, r.outcome, r.reason, r.client_id])).toEqual([
      ["automation", null, "Humidifier", "status", true, "reported", null, owner.clientId],
    ]);
  });
});

describe("the command log's monthly partitions", () => {
  let server: TestServer;
  let mcuId: number;
  let clientId: number;
  beforeAll(async () => {
    server = await createTestServer();
    const c = await server.signUp();
    clientId = c.clientId;
    mcuId = (await seedClientData(c)).mcu.mcu_id;
  });
  afterAll(() => server?.close());

  const row = (id: string) =>
    server.db.query<{ outcome: string; reason: string | null; answered_at: Date | null; part: string }>(
      "select outcome, reason, answered_at, tableoid::regclass::text as part from command_log where command_id = $1",
      [id],
    );

  it("writes a command sent in a month that has no partition yet, and its outcome answered in the next month into the same row", async () => {
    expect(await partitionsRepo(server.db).existing("command_log")).toEqual([]);
    const log = createCommandLog();
    const sentAt = Date.parse("2026-06-30T23:59:59.500Z");
    const answeredAt = Date.parse("2026-07-01T00:00:00.700Z");
    log.recorder.sent({ commandId: "midnight", mcuId, clientId, actor: "grower", target: "AC", type: "status", onOff: true, at: sentAt });
    expect(await log.flush(server.db, sentAt)).toBe(1);
    expect(await partitionsRepo(server.db).existing("command_log")).toEqual(["command_log_p202606"]);
    expect(await row("midnight")).toEqual([{ outcome: "pending", reason: null, answered_at: null, part: "command_log_p202606" }]);

    log.recorder.answered("midnight", "refused", "Turn Automation off to switch AC by hand", answeredAt);
    expect(await log.flush(server.db, answeredAt)).toBe(1);
    // Keyed by the time it was sent: the outcome updates its row, it does not start one in July.
    expect(await row("midnight")).toEqual([{ outcome: "refused", reason: "Turn Automation off to switch AC by hand", answered_at: new Date(answeredAt), part: "command_log_p202606" }]);
    expect(await partitionsRepo(server.db).existing("command_log")).toEqual(["command_log_p202606"]);
    expect(log.waiting()).toBe(0);
  });

  it("writes a command answered before its pending row was written once, with its outcome, into a month created for it", async () => {
    const log = createCommandLog();
    const at = Date.parse("2026-09-03T10:00:00Z");
    log.recorder.sent({ commandId: "quick", mcuId, clientId, actor: "grower", target: "Humidifier", type: "auto", onOff: false, at });
    log.recorder.answered("quick", "acknowledged", null, at + 300);
    expect(await log.flush(server.db, at + 1000)).toBe(1);
    expect(await row("quick")).toEqual([{ outcome: "acknowledged", reason: null, answered_at: new Date(at + 300), part: "command_log_p202609" }]);
  });
});
