import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Alarm } from "../../src/contract/alarms-values.ts";
import type { Notification } from "../../src/contract/entities.ts";
import type { Language } from "../../src/contract/language-values.ts";
import type { RotaShift } from "../../src/contract/rota.ts";
import { notificationsRepo } from "../db/notifications-repo.ts";
import { preferencesRepo } from "../db/preferences-repo.ts";
import type { McuEntry } from "../devices/mcu-directory.ts";
import { memberOf } from "../test-support/team.ts";
import { createTestServer, sampleConfig, type TestClient, type TestServer } from "../test-support/test-server.ts";
import { ENGLISH, write, type Words } from "../texts.ts";
import { createAlerts } from "./alerts.ts";
import { createEscalation } from "./escalation.ts";
import type { PushMessage } from "./push-sender.ts";

/**
 * What the server writes for people is in the language and digits of whoever reads it: the
 * account's notifications and pushes in the account's, a call-out in the language of each person
 * called (members of one farm may read different languages); an alarm itself keeps the server's
 * English, which the app says again for each reader. English stays as it always was.
 */
describe("texts in the reader's language", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  const always = (client_id: number): RotaShift => ({ client_id, days: [0, 1, 2, 3, 4, 5, 6], start: "00:00", end: "00:00" });

  /** A person reading `language` (with Arabic-Indic digits for Arabic), a farm and an MCU of theirs, and the alarm engine hearing it. */
  async function grower(language: Language) {
    const client = await server.signUp({ language, digits: language === "ar" ? "arab" : "latn" });
    const farmId = (await client.post("/api/farms", { name: "Farm", location: "Byblos", client_id: client.clientId })).json().farm_id as number;
    const device = await client.mcuDevice();
    const res = await client.post("/api/mcus", { name: "Room A", ...device, farm_id: farmId, status: "active" });
    expect(res.statusCode, res.body).toBe(201);
    const entry: McuEntry = { mcuId: res.json().mcu_id, clientId: client.clientId, farmId, mac: device.mac, name: "Room A", farmName: "Farm", status: "online", config: { ...sampleConfig, ac: { based_on: "room_temp", target_temp: 18 } } };
    const heard = { notes: [] as Notification[], alarms: [] as Alarm[], pushes: [] as (PushMessage & { clientId: number })[] };
    const alerts = createAlerts({
      db: server.db,
      now: () => new Date(server.clock.now),
      notify: (_c, n) => heard.notes.push(n),
      alarmChanged: (_c, a) => heard.alarms.push(a),
      push: async (clientId, m) => void heard.pushes.push({ clientId, ...m }),
      preferences: (clientId) => preferencesRepo(server.db).get(clientId),
    });
    return { client, farmId, entry, heard, alerts };
  }

  /** The MCU's battery reads 21.6 %: a low-battery alarm opens at once. */
  async function lowBattery(g: Awaited<ReturnType<typeof grower>>) {
    g.alerts.onReading(g.entry, { batteryLevel: 21.6 });
    await g.alerts.idle();
    return { alarm: g.heard.alarms.at(-1)!, note: g.heard.notes.at(-1)!, push: g.heard.pushes.at(-1)! };
  }

  it("writes an English reader's alarm, notification and push as before", async () => {
    const g = await grower("en");
    const { alarm, note, push } = await lowBattery(g);
    expect(alarm).toMatchObject({ title: "Room A: battery low", body: "Battery at 22%. Replace or charge it soon." });
    expect(note).toMatchObject({ title: "Room A: battery low", body: "Battery at 22%. Replace or charge it soon." });
    expect(push).toMatchObject({ clientId: g.client.clientId, title: "Room A: battery low", body: "Battery at 22%. Replace or charge it soon." });
    g.alerts.onStatus(g.entry, "offline");
    await g.alerts.idle();
    expect(g.heard.pushes.at(-1)).toMatchObject({ title: "Room A went offline", body: "Room A (Farm) stopped reporting." });
  });

  it("writes a French reader's stored notification and push in French", async () => {
    const g = await grower("fr");
    const { alarm, note, push } = await lowBattery(g);
    const french = { title: "Room A : batterie faible", body: "Batterie à 22 %. Remplacez-la ou rechargez-la bientôt." };
    // The alarm itself keeps the server's English: the app says it again for each reader.
    expect(alarm).toMatchObject({ title: "Room A: battery low", body: "Battery at 22%. Replace or charge it soon." });
    expect(note).toMatchObject(french);
    expect(push).toMatchObject(french);
    // Stored so: the bell lists it in French, with the alarm's words, which the app says in whatever language its reader reads now.
    const listed = (await g.client.get(`/notifications/${g.client.clientId}`)).json() as Notification[];
    expect(listed.find((n) => n.notification_id === note.notification_id)).toEqual({ ...note, ...french, words: alarm.words });
    expect(alarm.words).toEqual({ title: { key: "alarms.batteryLow.title", values: { name: "Room A" } }, body: { key: "alarms.batteryLow.body", values: { level: 22 } } });
    g.alerts.onStatus(g.entry, "offline");
    await g.alerts.idle();
    expect(g.heard.pushes.at(-1)).toMatchObject({ title: "Room A est hors ligne", body: "Room A (Farm) n’envoie plus de mesures." });
  });

  it("writes an Arabic reader's notification and push in Arabic, with the digits they chose", async () => {
    const g = await grower("ar");
    const { alarm, note, push } = await lowBattery(g);
    const arabic = { title: "Room A: البطارية منخفضة", body: "البطارية عند ٢٢%. استبدلها أو اشحنها قريبًا." };
    expect(alarm).toMatchObject({ title: "Room A: battery low" });
    expect(note).toMatchObject(arabic);
    expect(push).toMatchObject(arabic);
    expect((await g.client.put(`/api/clients/${g.client.clientId}`, { digits: "latn" })).statusCode).toBe(200);
    g.alerts.onStatus(g.entry, "offline");
    await g.alerts.idle();
    expect(g.heard.pushes.at(-1)).toMatchObject({ title: "Room A غير متصل", body: "توقف Room A (Farm) عن إرسال القراءات." });
  });

  it("calls each person of a rota in their own language, whatever the farm's account reads", async () => {
    const g = await grower("ar");
    const french: TestClient = await memberOf(server, g.client, g.farmId, "grower", await server.signUp({ language: "fr" }));
    const english: TestClient = await memberOf(server, g.client, g.farmId, "grower");
    const rota = await g.client.put(`/api/farms/${g.farmId}/rota`, { time_zone: "Asia/Beirut", repeat_minutes: 5, escalate_minutes: 15, shifts: [always(french.clientId), always(english.clientId)] });
    expect(rota.statusCode, rota.body).toBe(200);
    const calls: { person: number; title: string; body: string }[] = [];
    const bells: { person: number; title: string; body: string }[] = [];
    const bellWords: Notification["words"][] = [];
    const escalation = createEscalation({
      db: server.db,
      now: () => new Date(server.clock.now),
      push: async (person, m) => void calls.push({ person, title: m.title, body: m.body }),
      async inApp(person, alarm, at) {
        const n = await notificationsRepo(server.db).create(person, { type: alarm.kind, title: alarm.title, body: alarm.body, words: alarm.words ?? undefined }, at, {
          mcuId: alarm.mcu_id,
          alarmId: alarm.alarm_id,
        });
        bells.push({ person, title: n.title, body: n.body });
        bellWords.push(n.words);
      },
    });
    const { alarm, note } = await lowBattery(g);
    expect(note.title).toBe("Room A: البطارية منخفضة");
    await escalation.alarmChanged(alarm);
    expect(calls).toEqual([{ person: french.clientId, title: "Room A : batterie faible", body: "Batterie à 22 %. Remplacez-la ou rechargez-la bientôt." }]);
    expect(bells).toEqual(calls);

    server.clock.advance(5 * 60_000);
    await escalation.tick();
    expect(calls.at(-1)).toMatchObject({ person: french.clientId, title: "Room A : batterie faible (toujours pas acquittée)" });
    server.clock.advance(10 * 60_000);
    await escalation.tick();
    expect(calls.find((c) => c.person === english.clientId)).toMatchObject({ title: "Room A: battery low (nobody acknowledged it: calling backup)", body: "Battery at 22%. Replace or charge it soon." });
    expect(calls.at(-2)).toMatchObject({ person: french.clientId, title: "Room A : batterie faible (personne ne l’a acquittée : appel du suppléant)" });
    // Each call's bell keeps the words it was written from: the alarm's, within why it is called again.
    expect(bellWords[0]).toEqual(alarm.words);
    expect(bellWords.at(-1)).toEqual({
      title: { key: "escalation.escalation", values: { title: alarm.words!.title, step: { key: "escalation.steps.backup" } } },
      body: alarm.words!.body,
    });
    expect(write(bellWords.at(-1)!.title as Words, ENGLISH)).toBe("Room A: battery low (nobody acknowledged it: calling backup)");
    await escalation.close();
  });

  it("tells an account's owner of a registration with their email in the owner's language", async () => {
    const owner = await server.signUp({ language: "ar", digits: "arab" });
    const res = await server.app.inject({ method: "POST", url: "/api/clients", payload: { ...owner.registration, username: `${owner.registration.username}_2`, language: "en" } });
    expect(res.statusCode).toBe(201);
    const [note] = (await owner.get(`/notifications/${owner.clientId}`)).json() as Notification[];
    expect(note).toMatchObject({ type: "account", title: "حاول أحدهم التسجيل ببريدك الإلكتروني" });
    expect(note!.words).toEqual({ title: { key: "account.registerAttempt.title" }, body: { key: "account.registerAttempt.body", values: { email: owner.registration.email } } });
    expect(note!.body).toContain(owner.registration.email);
  });
});
