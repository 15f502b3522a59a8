import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOPICS } from "../../src/contract/mqtt.ts";
import { flood, readingsTaken, startFloodSystem, until, type FloodDevice, type FloodSystem } from "../test-support/device-flood.ts";
import { SENDS_TOO_MUCH } from "../alerts/alerts.ts";
import { mosquittoAvailable, startMosquitto, type MosquittoProcess } from "../test-support/mosquitto-process.ts";
import { mqttConnect, mqttPublish } from "../test-support/mqtt-packet.ts";

const reading = (i: number) => JSON.stringify({ DHT: { temperature: 18 + (i % 10) / 10, humidity: 85, count: 1 }, batteryLevel: 70 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The device's notifications of sending too much, with their text. */
const tooMuchOf = (t: FloodSystem, clientId: number) =>
  t.db.query<{ title: string; body: string }>("select title, body from notifications where client_id = $1 and type = $2", [clientId, SENDS_TOO_MUCH]);

describe("one device flooding the embedded broker", { timeout: 60_000 }, () => {
  let t: FloodSystem;
  // The defaults' rate and burst; cut off after 3 s over budget (10 s by default) to keep the test short.
  const RATE = 20;
  const BURST = 40;
  beforeAll(async () => {
    t = await startFloodSystem({ deviceBudget: { perSecond: RATE, burst: BURST, overLimitSeconds: 3, cooldownMs: 60_000 } });
  });
  afterAll(() => t?.close());

  it("gets rate × time + burst of its QoS 0 readings through, the rest dropped and counted; it is disconnected, refused for its cooldown, and its owner told once; another tenant's device goes on", async () => {
    const flooder = await t.owner();
    const mcu = await flooder.device();
    const other = await t.owner();
    const calm = await other.device();
    const { readings: seen } = await other.socket();
    const calmClient = await calm.connect();
    /** The calm device reports 10 times a second, each acknowledged (QoS 1), `n` times. */
    const report = async (n: number) => {
      for (let i = 0; i < n; i++) {
        await calmClient.publishAsync(TOPICS.telemetry(calm.mac), reading(i), { qos: 1 });
        await sleep(100);
      }
    };

    // A quiet baseline: what the calm device's owner receives while no one floods.
    await report(20);
    await sleep(300);
    const quietSeen = seen.get(calm.mac) ?? 0;
    expect(quietSeen).toBeGreaterThan(0);

    const before = t.system.gateway.stats();
    const laneBefore = t.system.broker!.fastLaneMessages();
    const client = await mcu.connect();
    const started = Date.now();
    const [result] = await Promise.all([flood(client, TOPICS.telemetry(mcu.mac), reading, { max: 20_000, ms: 5000 }), report(20)]);
    const floodSeconds = (Date.now() - started) / 1000;
    await sleep(200);
    await t.system.history.flush();
    const after = t.system.gateway.stats();

    // Cut off: its connection closed by the server before its 20 000 were sent.
    expect(result.closed).toBe(true);
    expect(result.sent).toBeLessThan(20_000);
    const accepted = await readingsTaken(t.db, mcu.mcuId);
    const dropped = after.dropped.overBudget - before.dropped.overBudget;
    expect(accepted).toBeLessThanOrEqual(RATE * Math.ceil(floodSeconds) + BURST);
    expect(accepted).toBeGreaterThanOrEqual(BURST);
    // Every message the server read from it was either taken or dropped and counted.
    const lane = t.system.broker!.fastLaneMessages() - laneBefore;
    expect(accepted + dropped).toBeGreaterThanOrEqual(lane);
    expect(accepted + dropped).toBeLessThanOrEqual(result.sent);
    expect(dropped).toBeGreaterThan(10 * accepted);
    expect(after.cutOff.total - before.cutOff.total).toBe(1);
    expect(after.cutOff.now).toBeGreaterThanOrEqual(1);

    // Refused while its cooldown lasts.
    const again = await mcu.connect().then(
      () => "connected",
      (err: Error) => err.message,
    );
    expect(again).toMatch(/Server unavailable/i);

    // Its owner is told once, in words a farmer reads; the other owner nothing.
    const told = await until(
      () => tooMuchOf(t, flooder.clientId),
      (rows) => rows.length > 0,
    );
    expect(told).toHaveLength(1);
    expect(told[0]!.title).toBe(`MCU "${mcu.name}" sends too much`);
    expect(told[0]!.body).toMatch(new RegExp(`^MCU "${mcu.name}" sends too much: [\\d,]+ messages in \\d+ s, its limit is 20/s\\. It was disconnected for 1 minute\\.$`));
    expect(await tooMuchOf(t, other.clientId)).toHaveLength(0);

    // The other tenant's device: every reading taken, and its owner received them as in the quiet baseline.
    expect(await readingsTaken(t.db, calm.mcuId)).toBe(40);
    const floodSeen = (seen.get(calm.mac) ?? 0) - quietSeen;
    expect(floodSeen).toBeGreaterThanOrEqual(quietSeen * 0.8);
  });

  it("closes a connection that sends a QoS 1 publish with packet id 0 (a protocol error), without taking or acknowledging it", async () => {
    const o = await t.owner();
    const mcu = await o.device();
    const telemetryBefore = t.system.gateway.stats().telemetry;
    const url = new URL(t.system.mqttUrl);
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const received: Buffer[] = [];
    socket.on("data", (d) => received.push(d));
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(mqttConnect({ clientId: mcu.mac, username: mcu.mac, password: mcu.key, keepalive: 30 }));
    await until(
      async () => Buffer.concat(received).length,
      (n) => n >= 4,
    );
    expect([...Buffer.concat(received)]).toEqual([0x20, 0x02, 0x00, 0x00]); // CONNACK, accepted
    socket.write(mqttPublish(TOPICS.telemetry(mcu.mac), reading(0), { qos: 1, packetId: 0 }));
    // (Bounded: the broker's keepalive would close it too, after 45 s.)
    const closedByServer = await Promise.race([closed.then(() => true), sleep(5000).then(() => false)]);
    socket.destroy();
    expect(closedByServer).toBe(true);
    // Nothing after the CONNACK: no PUBACK.
    expect(Buffer.concat(received).length).toBe(4);
    await sleep(100);
    await t.system.history.flush();
    expect(await readingsTaken(t.db, mcu.mcuId)).toBe(0);
    expect(t.system.gateway.stats().telemetry).toBe(telemetryBefore);
  });
});

describe.skipIf(!mosquittoAvailable())("one device flooding through an external broker (Mosquitto)", { timeout: 60_000 }, () => {
  let mosquitto: MosquittoProcess;
  let t: FloodSystem;
  beforeAll(async () => {
    mosquitto = await startMosquitto();
    t = await startFloodSystem({ mosquitto, deviceBudget: { perSecond: 20, burst: 40, overLimitSeconds: 3, cooldownMs: 60_000 } });
  });
  afterAll(async () => {
    await t?.close();
    await mosquitto?.stop();
  });

  it("gets rate × time + burst of its readings through (the broker keeps its connection: the rest is dropped for its cooldown), and its owner is told once", async () => {
    const o = await t.owner();
    const mcu = await o.device();
    const client = await mcu.connect();
    const before = t.system.gateway.stats();
    const started = Date.now();
    const { sent } = await flood(client, TOPICS.telemetry(mcu.mac), reading, { max: 20_000, ms: 5000 });
    const seconds = Math.ceil((Date.now() - started) / 1000);
    // What the broker still holds for the gateway arrives, and is dropped too.
    const after = await until(
      async () => t.system.gateway.stats(),
      (s) => s.dropped.overBudget - before.dropped.overBudget + s.telemetry - before.telemetry >= sent * 0.9,
    );
    await t.system.history.flush();
    const accepted = await readingsTaken(t.db, mcu.mcuId);
    expect(accepted).toBeLessThanOrEqual(20 * seconds + 40);
    expect(accepted).toBeGreaterThanOrEqual(40);
    expect(after.dropped.overBudget - before.dropped.overBudget).toBeGreaterThan(10 * accepted);
    expect(after.cutOff.total - before.cutOff.total).toBe(1);
    const told = await until(
      () => tooMuchOf(t, o.clientId),
      (rows) => rows.length > 0,
    );
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toMatch(new RegExp(`^MCU "${mcu.name}" sends too much: [\\d,]+ messages in \\d+ s, its limit is 20/s\\. Its messages are ignored for 1 minute\\.$`));
  });
});

describe("a device flipping a controller in every reading", { timeout: 60_000 }, () => {
  let t: FloodSystem;
  // A budget that takes everything: the state table must stay small by itself.
  beforeAll(async () => {
    t = await startFloodSystem({ deviceBudget: { perSecond: 1_000_000, burst: 1_000_000 } });
  });
  afterAll(() => t?.close());

  it("writes at most one state change per controller and second, and keeps the state it ended in", async () => {
    const o = await t.owner();
    const mcu: FloodDevice = await o.device();
    const client = await mcu.connect();
    const flip = (i: number) => JSON.stringify({ AC: { status: i % 2 === 0, auto: true }, Humidifier: { status: i % 3 === 0, auto: false }, batteryLevel: 70 });
    const started = Date.now();
    const { sent } = await flood(client, TOPICS.telemetry(mcu.mac), flip, { max: 6000, ms: 3000 });
    // Its last word, acknowledged: the AC off, the humidifier on.
    await client.publishAsync(TOPICS.telemetry(mcu.mac), JSON.stringify({ AC: { status: false, auto: true }, Humidifier: { status: true, auto: false }, batteryLevel: 70 }), { qos: 1 });
    const seconds = Math.ceil((Date.now() - started) / 1000);
    await sleep(200);
    await t.system.history.flush();
    const accepted = await readingsTaken(t.db, mcu.mcuId);
    // Nearly every flip was taken: the flips are many, the rows are not.
    expect(accepted).toBeGreaterThan(sent * 0.9);
    const rows = await t.db.query<{ target: string; status: boolean }>("select target, status from device_state_events where mcu_id = $1 order by at", [mcu.mcuId]);
    const per = (target: string) => rows.filter((r) => r.target === target);
    for (const target of ["AC", "Humidifier"]) {
      // One a second it ran in (the first and the last seconds are partial: +1), never one a flip.
      expect(per(target).length, target).toBeLessThanOrEqual(seconds + 1);
      expect(per(target).length, target).toBeGreaterThan(0);
    }
    expect(per("AC").at(-1)!.status).toBe(false);
    expect(per("Humidifier").at(-1)!.status).toBe(true);
  });
});
