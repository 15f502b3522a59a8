import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import type { ProfileConfig } from "../../src/contract/entities.ts";
import { HISTORY_PATHS, type CommandLog } from "../../src/contract/history.ts";
import { TOPICS, type TelemetryMessage } from "../../src/contract/mqtt.ts";
import type { CommandAck } from "../../src/contract/realtime.ts";
import { reasonText } from "../../src/contract/switch-reasons.ts";
import { insertRunningBatch, steadyPhase } from "../test-support/running-batch.ts";
import { createTestSystem, nextData, sleep, type TestOwner, type TestSystem } from "../test-support/test-system.ts";

const PROFILE: ProfileConfig = {
  irrigation: { on_cycle_hours: 6, off_cycle_liters: 15, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 1000 },
  ac: { based_on: "room_temp", target_temp: 20 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 92 },
};
/** A phase whose humidifier band differs from the profile's: an inference must read the plan's. */
const FRUITING: ProfileConfig = { ...PROFILE, humidifier: { humidity_on_below: 90, humidity_off_above: 95 } };

describe("why each switch happened, kept in the command log", () => {
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

  /** A device on a raw connection, and a way to publish a reading from it and wait until the server heard it. */
  async function device(profile: ProfileConfig | null) {
    const dev = await owner.device();
    const raw = await t.rawMqtt(dev.mac, dev.key);
    if (profile) {
      const created = (await owner.http.post("/api/setting-profiles", { name: `Profile ${dev.mac}`, client_id: owner.clientId, config: profile })).json();
      await owner.http.post("/api/setting-profiles/link", { mcu_id: dev.mcuId, profile_id: created.profile_id });
    }
    let n = 0;
    const publish = async (reading: TelemetryMessage) => {
      const battery = 50 + (n++ % 40);
      const heard = nextData(socket, (p) => p.deviceId === dev.mac && p.payload.batteryLevel === battery);
      await raw.publishAsync(TOPICS.telemetry(dev.mac), JSON.stringify({ ...reading, batteryLevel: battery }));
      await heard;
    };
    /** A state, then (in a later second: a second keeps only a controller's latest state) the switch. */
    const switchHumidifier = async (humidity: number, humidifier: TelemetryMessage["Humidifier"]) => {
      await publish({ DHT: { temperature: 20, humidity, count: 1 }, Humidifier: { status: !humidifier!.status, auto: true } });
      await sleep(1000 - (Date.now() % 1000) + 20);
      await publish({ DHT: { temperature: 20, humidity, count: 1 }, Humidifier: humidifier });
      await t.system.history.flush();
    };
    return { ...dev, raw, publish, switchHumidifier };
  }

  const logOf = async (mcuId: number) => {
    const res = await owner.http.get(`/api/mcus/${mcuId}/commands`);
    expect(res.statusCode).toBe(200);
    return (res.json() as CommandLog).entries;
  };

  it("keeps the rule the device reported with its switch, and the API answers it", async () => {
    const dev = await device(PROFILE);
    await dev.switchHumidifier(84.1, { status: true, auto: true, why: { rule: "humidity_below_on", value: 84.1, limit: 85 } });
    const [entry] = await logOf(dev.mcuId);
    expect(entry).toMatchObject({ source: "automation", target: "Humidifier", on_off: true, why: { rule: "humidity_below_on", value: 84.1, limit: 85, inferred: false, phase: null } });
    expect(reasonText({ target: entry!.target, on: entry!.on_off, source: entry!.source, actor: entry!.actor, why: entry!.why })).toBe("Humidifier on: humidity 84.1 % below 85 %");
    // The CSV export says it in its reason column.
    const csv = (await owner.http.get(HISTORY_PATHS.commandsCsv(dev.mcuId))).body;
    expect(csv).toContain(",automation,,Humidifier,status,on,reported,Humidifier on: humidity 84.1 % below 85 %,");
  });

  it("infers the rule of an automation switch the device did not explain, from the linked profile and the reading, and marks it", async () => {
    const dev = await device(PROFILE);
    await dev.switchHumidifier(92.6, { status: false, auto: true });
    const [entry] = await logOf(dev.mcuId);
    expect(entry).toMatchObject({ source: "automation", on_off: false, why: { rule: "humidity_above_off", value: 92.6, limit: 92, inferred: true, phase: null } });
  });

  it("keeps no reason when nothing explains the switch: no config known, or a reading inside the band", async () => {
    const bare = await device(null);
    await bare.switchHumidifier(80, { status: true, auto: true });
    const inside = await device(PROFILE);
    await inside.switchHumidifier(88, { status: true, auto: true });
    for (const dev of [bare, inside]) expect((await logOf(dev.mcuId)).map((e) => [e.source, e.why])).toEqual([["automation", null]]);
  });

  it("adds the running batch's phase and day, and infers from the plan's config rather than the profile's", async () => {
    const reported = await device(PROFILE);
    const inferred = await device(PROFILE);
    await insertRunningBatch(t.db, {
      clientId: owner.clientId,
      mcuIds: [reported.mcuId, inferred.mcuId],
      phases: [steadyPhase("Spawn run", 14, PROFILE), steadyPhase("Fruiting", 7, FRUITING)],
      phaseIndex: 1,
      phaseStartedAt: new Date(Date.now() - 2.5 * 86_400_000),
    });
    await reported.switchHumidifier(89.5, { status: true, auto: true, why: { rule: "humidity_below_on", value: 89.5, limit: 90 } });
    // 88 % is inside the profile's band (85–92) but below the phase's on-below (90).
    await inferred.switchHumidifier(88, { status: true, auto: true });
    const [a] = await logOf(reported.mcuId);
    const [b] = await logOf(inferred.mcuId);
    expect(a!.why).toEqual({ rule: "humidity_below_on", value: 89.5, limit: 90, inferred: false, phase: "Fruiting, day 3" });
    expect(b!.why).toEqual({ rule: "humidity_below_on", value: 88, limit: 90, inferred: true, phase: "Fruiting, day 3" });
    expect(reasonText({ target: "Humidifier", on: true, source: "automation", actor: null, why: b!.why })).toBe("Humidifier on: humidity 88.0 % below 90 % (inferred) — Fruiting, day 3");
  });

  it("logs a person's switch with its actor and no rule, even when the device's reading carries one", async () => {
    const dev = await device(PROFILE);
    await dev.raw.subscribeAsync(TOPICS.command(dev.mac), { qos: 1 });
    dev.raw.on("message", (topic, payload) => {
      if (topic !== TOPICS.command(dev.mac)) return;
      const { id } = JSON.parse(payload.toString()) as { id: string };
      void dev.raw.publishAsync(TOPICS.commandAck(dev.mac), JSON.stringify({ id, ok: true }));
    });
    await dev.publish({ DHT: { temperature: 20, humidity: 84, count: 1 }, Humidifier: { status: false, auto: true } });
    await sleep(1000 - (Date.now() % 1000) + 20);
    const ack = await new Promise<CommandAck>((resolve) =>
      socket.emit("sendCommand", { deviceId: dev.mac, type: "status", value: { type: "status", onOff: true, target: "Humidifier" } }, resolve),
    );
    expect(ack).toMatchObject({ ok: true });
    await dev.publish({ DHT: { temperature: 20, humidity: 84, count: 1 }, Humidifier: { status: true, auto: true, why: { rule: "humidity_below_on", value: 84, limit: 85 } } });
    await t.system.history.flush();
    const entries = await logOf(dev.mcuId);
    expect(entries.map((e) => [e.source, e.actor, e.on_off, e.why])).toEqual([["user", username, true, null]]);
    expect(reasonText({ target: "Humidifier", on: true, source: "user", actor: entries[0]!.actor, why: null })).toBe(`Humidifier on: switched by ${username}`);
  });

  it("answers each change of the timeline with who made it and why", async () => {
    const dev = await device(PROFILE);
    await dev.switchHumidifier(84.1, { status: true, auto: true, why: { rule: "humidity_below_on", value: 84.1, limit: 85 } });
    const from = new Date(Date.now() - 60_000).toISOString();
    const res = await owner.http.get(`/api/mcus/${dev.mcuId}/timeline?from=${from}&to=${new Date(Date.now() + 1000).toISOString()}`);
    const events = (res.json() as { events: { status: boolean; cause?: unknown }[] }).events;
    expect(events.map((e) => [e.status, e.cause ?? null])).toEqual([
      [false, null],
      [true, { source: "automation", actor: null, why: { rule: "humidity_below_on", value: 84.1, limit: 85, inferred: false, phase: null } }],
    ]);
  });
});
