import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_NOTIFICATION_PREFERENCES, type Alarm } from "../../src/contract/alarms-values.ts";
import type { RotaShift } from "../../src/contract/rota.ts";
import { recordOpenAlert } from "../db/alerts-repo.ts";
import { notificationsRepo } from "../db/notifications-repo.ts";
import { memberOf } from "../test-support/team.ts";
import { createTestServer, seedClientData, type TestClient, type TestServer } from "../test-support/test-server.ts";
import { createEscalation, type EscalationEngine } from "./escalation.ts";
import type { PushMessage } from "./push-sender.ts";

const MINUTE = 60_000;
/** A shift on every day, all day (it ends where it starts: across midnight). */
const always = (client_id: number): RotaShift => ({ client_id, days: [0, 1, 2, 3, 4, 5, 6], start: "00:00", end: "00:00" });

let server: TestServer;
let owner: TestClient;
let first: TestClient;
let backup: TestClient;
let manager: TestClient;
let viewer: TestClient;
let fx: Awaited<ReturnType<typeof seedClientData>>;
let pushes: { person: number; message: PushMessage }[];
let bells: { person: number; title: string }[];

const engine = (): EscalationEngine =>
  createEscalation({
    db: server.db,
    now: () => new Date(server.clock.now),
    push: async (person, message) => void pushes.push({ person, message }),
    inApp: async (person, alarm) => void bells.push({ person, title: alarm.title }),
  });

async function openAlarm(): Promise<Alarm> {
  const n = await notificationsRepo(server.db).create(owner.clientId, { type: "humidity_low", title: "Room A: humidity low", body: "Humidity is 70%, below 85%." }, new Date(server.clock.now), { mcuId: fx.mcu.mcu_id });
  await server.db.query("update alerts set state = 'resolved', resolved_at = now() where mcu_id = $1 and state <> 'resolved'", [fx.mcu.mcu_id]);
  await recordOpenAlert(server.db, { clientId: owner.clientId, mcuId: fx.mcu.mcu_id, type: "humidity_low" }, n.notification_id, new Date(server.clock.now));
  const [row] = await server.db.query<{ alert_id: number }>("select alert_id from alerts where mcu_id = $1 and state = 'open'", [fx.mcu.mcu_id]);
  return { alarm_id: row!.alert_id, state: "open", farm_id: fx.farm.farm_id, mcu_id: fx.mcu.mcu_id } as Alarm;
}

async function rota(shifts: RotaShift[]) {
  const res = await owner.put(`/api/farms/${fx.farm.farm_id}/rota`, { time_zone: "Asia/Beirut", repeat_minutes: 5, escalate_minutes: 15, shifts });
  expect(res.statusCode, res.body).toBe(200);
}

const called = () => pushes.map((p) => p.person);
async function at(minutes: number, e: EscalationEngine) {
  server.clock.advance(minutes * MINUTE);
  await e.tick();
}

beforeAll(async () => {
  server = await createTestServer();
  owner = await server.signUp();
  fx = await seedClientData(owner);
  first = await memberOf(server, owner, fx.farm.farm_id, "grower");
  backup = await memberOf(server, owner, fx.farm.farm_id, "grower");
  manager = await memberOf(server, owner, fx.farm.farm_id, "manager");
  viewer = await memberOf(server, owner, fx.farm.farm_id, "viewer");
});
afterAll(async () => server?.close());
beforeEach(() => {
  pushes = [];
  bells = [];
});

describe("alarms called out by the on-call rota", () => {
  it("calls who is on call, repeats every 5 minutes, then the backup, then every Manager and Owner, until acknowledged", async () => {
    await rota([always(first.clientId), always(backup.clientId)]);
    const e = engine();
    const alarm = await openAlarm();
    await e.alarmChanged(alarm);
    expect(called()).toEqual([first.clientId]);
    expect(pushes[0]!.message).toMatchObject({ urgency: "high", alarmId: alarm.alarm_id, title: "Room A: humidity low" });
    expect(bells).toEqual([{ person: first.clientId, title: "Room A: humidity low" }]);

    pushes = [];
    await at(4, e);
    expect(called()).toEqual([]);
    await at(1, e);
    expect(called()).toEqual([first.clientId]);
    expect(pushes[0]!.message.title).toBe("Room A: humidity low (still not acknowledged)");

    pushes = [];
    await at(5, e); // 10 min: a repeat
    await at(5, e); // 15 min: the backup, and the first again
    expect(called()).toEqual([first.clientId, first.clientId, backup.clientId]);
    expect(pushes[2]!.message.title).toBe("Room A: humidity low (nobody acknowledged it: calling backup)");

    pushes = [];
    await at(15, e); // 30 min: every Manager and Owner; a Viewer is never called
    expect(new Set(called())).toEqual(new Set([first.clientId, backup.clientId, owner.clientId, manager.clientId]));
    expect(called()).not.toContain(viewer.clientId);

    const notices = (await owner.get(`/api/alarms/${alarm.alarm_id}/notices`)).json() as { client_id: number; step: number; reason: string }[];
    expect(notices.map((n) => n.reason)).toEqual(["first", "repeat", "repeat", "escalation", "escalation", "escalation", "escalation", "escalation", "escalation"]);

    // Acknowledged: no repeat and no escalation any more.
    expect((await first.post(`/api/alarms/${alarm.alarm_id}/acknowledge`, { comment: "on my way" })).statusCode).toBe(200);
    await e.alarmChanged({ ...alarm, state: "acknowledged" });
    pushes = [];
    await at(60, e);
    expect(called()).toEqual([]);
  });

  it("stops when the alarm is acknowledged elsewhere, even if its event never reached this node", async () => {
    await rota([always(first.clientId)]);
    const e = engine();
    const alarm = await openAlarm();
    await e.alarmChanged(alarm);
    expect((await owner.post(`/api/alarms/${alarm.alarm_id}/acknowledge`, {})).statusCode).toBe(200);
    pushes = [];
    await at(30, e);
    expect(called()).toEqual([]);
    expect(await server.db.query("select 1 from alarm_escalations where alarm_id = $1", [alarm.alarm_id])).toEqual([]);
  });

  it("calls through the person's quiet hours: being on call overrides them", async () => {
    const quiet = { ...DEFAULT_NOTIFICATION_PREFERENCES, quiet_hours: { enabled: true, start: "00:00", end: "23:59", time_zone: "Asia/Beirut" } };
    expect((await first.put("/api/notification-preferences", quiet)).statusCode).toBe(200);
    await rota([always(first.clientId)]);
    const e = engine();
    await e.alarmChanged(await openAlarm());
    expect(called()).toEqual([first.clientId]);
    await at(15, e);
    expect(called()).toContain(owner.clientId);
  });

  it("goes straight to every Manager and Owner when nobody is on call", async () => {
    const now = new Date(server.clock.now);
    const otherDay = (now.getUTCDay() + 3) % 7;
    await rota([{ client_id: first.clientId, days: [otherDay], start: "09:00", end: "10:00" }]);
    const e = engine();
    await e.alarmChanged(await openAlarm());
    expect(new Set(called())).toEqual(new Set([owner.clientId, manager.clientId]));
  });

  it("leaves a farm without a rota as it was (its account told as its preferences say)", async () => {
    await rota([]);
    const e = engine();
    await e.alarmChanged(await openAlarm());
    await at(60, e);
    expect(called()).toEqual([]);
  });

  it("makes each call once when two nodes tick together", async () => {
    await rota([always(first.clientId)]);
    const a = engine();
    const b = engine();
    const alarm = await openAlarm();
    await Promise.all([a.alarmChanged(alarm), b.alarmChanged(alarm)]);
    server.clock.advance(5 * MINUTE);
    await Promise.all([a.tick(), b.tick()]);
    expect(called()).toEqual([first.clientId, first.clientId]);
  });

  it("stops calling a Grower on call once they are removed from the farm; their past calls stay", async () => {
    const grower = await memberOf(server, owner, fx.farm.farm_id, "grower");
    await rota([always(grower.clientId), always(backup.clientId)]);
    const e = engine();
    const alarm = await openAlarm();
    await e.alarmChanged(alarm);
    await at(15, e); // the backup, and the Grower again
    expect(called()).toEqual([grower.clientId, grower.clientId, backup.clientId]);

    expect((await owner.del(`/api/farms/${fx.farm.farm_id}/members/${grower.clientId}`)).statusCode).toBe(200);
    pushes = [];
    await at(5, e); // a repeat, to the backup only
    expect(called()).toEqual([backup.clientId]);
    await at(10, e); // every Manager and Owner, the removed Grower not among them
    expect(new Set(called())).toEqual(new Set([backup.clientId, owner.clientId, manager.clientId]));

    const notices = (await owner.get(`/api/alarms/${alarm.alarm_id}/notices`)).json() as { client_id: number; reason: string }[];
    expect(notices.filter((n) => n.client_id === grower.clientId).map((n) => n.reason)).toEqual(["first", "escalation"]);
  });

  it("stops calling a Grower on call once they are made a Viewer", async () => {
    const grower = await memberOf(server, owner, fx.farm.farm_id, "grower");
    await rota([always(grower.clientId), always(backup.clientId)]);
    const e = engine();
    await e.alarmChanged(await openAlarm());
    await at(5, e);
    expect(called()).toEqual([grower.clientId, grower.clientId]);

    expect((await owner.put(`/api/farms/${fx.farm.farm_id}/members/${grower.clientId}`, { role: "viewer" })).statusCode).toBe(200);
    pushes = [];
    await at(5, e); // nobody called can acknowledge it any more: the backup at once
    await at(5, e);
    await at(20, e);
    expect(called()).not.toContain(grower.clientId);
    expect(called()).toContain(backup.clientId);
    expect(called()).toContain(owner.clientId);
  });

  it("calls the next step at the next tick when the only person called is removed, not after the escalation time", async () => {
    const grower = await memberOf(server, owner, fx.farm.farm_id, "grower");
    await rota([always(grower.clientId), always(backup.clientId)]);
    const e = engine();
    const alarm = await openAlarm();
    await e.alarmChanged(alarm);
    await at(1, e);
    expect(called()).toEqual([grower.clientId]);

    expect((await owner.del(`/api/farms/${fx.farm.farm_id}/members/${grower.clientId}`)).statusCode).toBe(200);
    pushes = [];
    await at(0.25, e);
    expect(called()).toEqual([backup.clientId]);
    expect(pushes[0]!.message.title).toBe("Room A: humidity low (nobody acknowledged it: calling backup)");

    // The backup's step runs its full time from there.
    pushes = [];
    await at(5, e);
    await at(5, e);
    await at(4.5, e);
    expect(called()).toEqual([backup.clientId, backup.clientId]);
    await at(0.5, e);
    expect(new Set(called().slice(2))).toEqual(new Set([backup.clientId, owner.clientId, manager.clientId]));
  });

  it("calls every Manager and Owner at the next tick when the only person on call is removed and there is no backup", async () => {
    const grower = await memberOf(server, owner, fx.farm.farm_id, "grower");
    await rota([always(grower.clientId)]);
    const e = engine();
    await e.alarmChanged(await openAlarm());
    expect(called()).toEqual([grower.clientId]);

    expect((await owner.del(`/api/farms/${fx.farm.farm_id}/members/${grower.clientId}`)).statusCode).toBe(200);
    pushes = [];
    await at(0.25, e);
    expect(new Set(called())).toEqual(new Set([owner.clientId, manager.clientId]));
  });

  it("refuses a rota with someone who cannot acknowledge alarms", async () => {
    const res = await owner.put(`/api/farms/${fx.farm.farm_id}/rota`, { time_zone: "Asia/Beirut", repeat_minutes: 5, escalate_minutes: 15, shifts: [always(viewer.clientId)] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: "shifts.0.client_id", message: "Choose a member of this farm who is not a Viewer", reason: "rota_not_callable" }]);
    const bad = await owner.put(`/api/farms/${fx.farm.farm_id}/rota`, { time_zone: "Mars/Olympus", repeat_minutes: 0, escalate_minutes: 15, shifts: [] });
    expect(bad.statusCode).toBe(400);
  });
});
