import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Socket } from "node:net";
import { io } from "socket.io-client";
import { TOPICS } from "../../src/contract/mqtt.ts";
import type { RealtimeBatchPayload, RealtimeDataPayload } from "../../src/contract/realtime.ts";
import { mqttConnect, mqttFixedHeader, mqttPublish } from "../test-support/mqtt-packet.ts";
import { mosquittoAvailable, startMosquitto, type MosquittoProcess } from "../test-support/mosquitto-process.ts";
import { createTestSystem, nextData, nextEvent, nextStatus, record, sampleConfig, sleep, type TestSystem } from "../test-support/test-system.ts";

/** Waits until `check` holds (at most 5 s), then asserts it. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await sleep(50);
  expect(check()).toBe(true);
}

const modes = ["embedded Aedes broker", "external Mosquitto broker"] as const;
if (process.env.CI && !mosquittoAvailable()) throw new Error("CI must provide Mosquitto with its dynamic-security plugin");

const reading = (humidity: number, extra: object = {}) => ({
  DHT: { temperature: 19.5, humidity, count: 1 },
  CO2: { co2: 900, count: 1 },
  Humidifier: { status: false, auto: true },
  batteryLevel: 80,
  ...extra,
});

describe.each(modes)("device gateway and realtime over the %s", (mode) => {
  const external = mode === "external Mosquitto broker";
  let mosquitto: MosquittoProcess | undefined;
  let t: TestSystem;

  beforeAll(async () => {
    if (external) mosquitto = await startMosquitto();
    t = await createTestSystem({ mosquitto });
  });
  afterAll(async () => {
    await t?.close();
    await mosquitto?.stop();
  });

  describe.skipIf(external && !mosquittoAvailable())("", () => {
    it("delivers a device's telemetry to its owner's socket only", async () => {
      const a = await t.signUp();
      const b = await t.signUp();
      const dev = await a.device();
      const { socket: sa } = await a.socket();
      const { socket: sb } = await b.socket();
      const bLog = record(sb, ["realtimeData", "realtimeBatch", "deviceStatusUpdate"]);
      const raw = await t.rawMqtt(dev.mac, dev.key);
      const got = nextData(sa, (p) => p.deviceId === dev.mac && p.payload.DHT?.humidity === 81.5);
      await raw.publishAsync(TOPICS.telemetry(dev.mac), JSON.stringify(reading(81.5)));
      const data = await got;
      expect(data.payload).toMatchObject({ DHT: { temperature: 19.5, humidity: 81.5, count: 1 }, batteryLevel: 80 });
      expect(Date.parse(data.payload.lastUpdated!)).toBeGreaterThan(Date.now() - 10_000);
      await sleep(300);
      expect(bLog.events).toEqual([]);

      // The reading is stored as the MCU's latest readings.
      await t.system.readings.flush();
      const mcus = (await a.http.get(`/api/mcus/by-client/${a.clientId}`)).json();
      expect(mcus[0].readings.DHT.humidity).toBe(81.5);
      expect(mcus[0].lastSeen).not.toBeNull();
    });

    it("refuses a device with a wrong key or a client id that is not its MAC", async () => {
      const { mac, key } = await t.provision();
      await expect(t.rawMqtt(mac, "not-the-key")).rejects.toThrow(/not authori[sz]ed|bad username or password/i);
      await expect(t.rawMqtt(mac, key, { clientId: "someone-else" })).rejects.toThrow();
      const ok = await t.rawMqtt(mac, key);
      expect(ok.connected).toBe(true);
    });

    it("lets nothing through when a device uses another device's topics", async () => {
      const owner = await t.signUp();
      const victim = await owner.device();
      const { socket } = await owner.socket();
      const log = record(socket, ["realtimeData", "realtimeBatch"]);
      const intruder = await t.provision();
      const attacker = await t.rawMqtt(intruder.mac, intruder.key);

      // Subscribing to the victim's command topic, or to everything, is refused (granted QoS 128).
      for (const topic of [TOPICS.command(victim.mac), "devices/#", "#", "$SYS/#"]) {
        const refused = await new Promise<{ err: Error | null | undefined; granted: { qos: number }[] | undefined }>((resolve) =>
          attacker.subscribe(topic, (err, granted) => resolve({ err, granted })),
        );
        expect(refused.err ?? refused.granted?.[0]?.qos === 128, topic).toBeTruthy();
      }
      const heard: string[] = [];
      attacker.on("message", (topic) => heard.push(topic));

      // Publishing as the victim never reaches the victim's owner.
      await attacker.publishAsync(TOPICS.telemetry(victim.mac), JSON.stringify(reading(12))).catch(() => undefined);
      await sleep(500);
      expect(log.events).toEqual([]);

      // A command for the victim is not heard by the attacker.
      await victim.sim.start();
      await nextData(socket, (p) => p.deviceId === victim.mac);
      const ack = await new Promise((resolve) =>
        socket.emit("sendCommand", { deviceId: victim.mac, type: "auto", value: { type: "auto", onOff: false, target: "AC" } }, resolve),
      );
      expect(ack).toEqual({ ok: true });
      await sleep(200);
      expect(heard).toEqual([]);
    });

    it("runs a command round trip: the device receives it, acts, acknowledges, and reports the change", async () => {
      const owner = await t.signUp();
      const dev = await owner.device();
      const { socket } = await owner.socket();
      const online = nextStatus(socket, (p) => p.deviceId === dev.mac && p.status === "online");
      await dev.sim.start();
      await online;
      const send = (type: "auto" | "status", onOff: boolean) =>
        new Promise((resolve) => socket.emit("sendCommand", { deviceId: dev.mac, type, value: { type, onOff, target: "Humidifier" } }, resolve));

      expect(await send("status", true)).toEqual({ ok: false, message: "Turn Automation off to switch Humidifier by hand", reason: "device_refused" });
      expect(await send("auto", false)).toEqual({ ok: true });
      const reported = nextData(socket, (p) => p.deviceId === dev.mac && p.payload.Humidifier?.status === true);
      expect(await send("status", true)).toEqual({ ok: true });
      expect(dev.sim.room.actuators.Humidifier).toEqual({ status: true, auto: false });
      expect((await reported).payload.Humidifier).toEqual({ status: true, auto: false });
    });

    it("answers ok:false for an offline device, a silent device, and another client's device", async () => {
      const owner = await t.signUp();
      const other = await t.signUp();
      const { socket } = await owner.socket();
      const send = (deviceId: string) =>
        new Promise<{ ok: boolean; message?: string }>((resolve) =>
          socket.emit("sendCommand", { deviceId, type: "auto", value: { type: "auto", onOff: true, target: "Ventilation" } }, resolve),
        );

      const sleeping = await owner.device();
      const r1 = await send(sleeping.mac);
      expect(r1).toEqual({ ok: false, message: `MCU ${sleeping.mac.slice(-5)} is offline`, reason: "device_offline", params: { name: `MCU ${sleeping.mac.slice(-5)}` } });

      // Connected and online, but it never acknowledges: the command times out.
      const silent = await owner.device();
      const raw = await t.rawMqtt(silent.mac, silent.key);
      const online = nextStatus(socket, (p) => p.deviceId === silent.mac);
      await raw.publishAsync(TOPICS.status(silent.mac), "online", { retain: true, qos: 1 });
      await online;
      await raw.subscribeAsync(TOPICS.command(silent.mac));
      const received = new Promise<string>((resolve) => raw.once("message", (_t, p) => resolve(p.toString())));
      const started = Date.now();
      const r2 = await send(silent.mac);
      expect(r2).toEqual({ ok: false, message: `MCU ${silent.mac.slice(-5)} did not answer in time`, reason: "device_no_answer", params: { name: `MCU ${silent.mac.slice(-5)}` } });
      expect(Date.now() - started).toBeLessThan(4000);
      const command = JSON.parse(await received);
      expect(command).toMatchObject({ type: "auto", target: "Ventilation", onOff: true });
      expect(typeof command.id).toBe("string");
      expect(command.expiresAt).toBeGreaterThan(started);

      const foreign = await other.device();
      await foreign.sim.start();
      expect(await send(foreign.mac)).toEqual({ ok: false, message: "Unknown device", reason: "unknown_device" });
      expect(foreign.sim.commandsHandled).toBe(0);
    });

    it("says why it refuses a switch or a refresh it cannot read, as every refusal does", async () => {
      const owner = await t.signUp();
      const { socket } = await owner.socket();
      const ask = (event: string, payload: unknown) => new Promise<{ ok: boolean; message?: string; reason?: string }>((resolve) => socket.emit(event, payload, resolve));
      expect(await ask("sendCommand", { deviceId: 5, type: "auto", value: { type: "auto", onOff: true, target: "Ventilation" } })).toEqual({
        ok: false,
        message: expect.stringContaining("deviceId must be a string"),
        reason: "invalid_message",
      });
      expect(await ask("refresh", { deviceId: "x" })).toEqual({ ok: false, message: expect.any(String), reason: "invalid_message" });
      expect(await ask("refresh", { deviceId: "x", mac: 7 })).toEqual({ ok: false, message: expect.any(String), reason: "invalid_message" });
    });

    it("takes a device that reports without having said online as online: status, MCU list and commands follow", async () => {
      const owner = await t.signUp();
      const dev = await owner.device();
      const { socket } = await owner.socket();
      // A device whose "online" was never heard: it only reports, and obeys and acknowledges commands.
      const raw = await t.rawMqtt(dev.mac, dev.key);
      await raw.subscribeAsync(TOPICS.command(dev.mac), { qos: 1 });
      raw.on("message", (_topic, payload) => {
        const { id } = JSON.parse(payload.toString()) as { id: string };
        void raw.publishAsync(TOPICS.commandAck(dev.mac), JSON.stringify({ id, ok: true }), { qos: 1 });
      });
      const online = nextStatus(socket, (p) => p.deviceId === dev.mac && p.status === "online");
      await raw.publishAsync(TOPICS.telemetry(dev.mac), JSON.stringify(reading(85)));
      await online;

      const mcus = (await owner.http.get(`/api/mcus/by-client/${owner.clientId}`)).json();
      expect(mcus.find((m: { mac: string }) => m.mac === dev.mac).status).toBe("online");
      const ack = await new Promise((resolve) =>
        socket.emit("sendCommand", { deviceId: dev.mac, type: "auto", value: { type: "auto", onOff: false, target: "Ventilation" } }, resolve),
      );
      expect(ack).toEqual({ ok: true });
      const { authenticated } = await owner.socket();
      expect((authenticated as { devices: { deviceId: string; status: string }[] }).devices).toEqual([expect.objectContaining({ deviceId: dev.mac, status: "online" })]);
    });

    it("re-reads the retained status a device published before its MCU was claimed", async () => {
      const owner = await t.signUp();
      const { socket } = await owner.socket();
      const { mac, key, claim_code } = await t.provision();
      const raw = await t.rawMqtt(mac, key);
      await raw.subscribeAsync(TOPICS.command(mac), { qos: 1 });
      raw.on("message", (_topic, payload) => {
        const { id } = JSON.parse(payload.toString()) as { id: string };
        void raw.publishAsync(TOPICS.commandAck(mac), JSON.stringify({ id, ok: true }), { qos: 1 });
      });
      // Said before anyone owned it: the gateway drops it (unknown device), the broker keeps it.
      const dropped = t.system.gateway.stats().dropped.unknownDevice;
      await raw.publishAsync(TOPICS.status(mac), "online", { qos: 1, retain: true });
      await until(() => t.system.gateway.stats().dropped.unknownDevice > dropped);

      const online = nextStatus(socket, (p) => p.deviceId === mac && p.status === "online");
      const res = await owner.http.post("/api/mcus", { name: "Claimed", mac, claim_code, farm_id: owner.farmId, status: "active" });
      expect(res.json()).toMatchObject({ mac, status: "active" });
      await online;
      const mcus = (await owner.http.get(`/api/mcus/by-client/${owner.clientId}`)).json();
      expect(mcus.map((m: { mac: string; status: string }) => [m.mac, m.status])).toEqual([[mac, "online"]]);
      const { authenticated } = await owner.socket();
      expect((authenticated as { devices: { deviceId: string; status: string }[] }).devices).toEqual([expect.objectContaining({ deviceId: mac, status: "online" })]);
      const ack = await new Promise((resolve) =>
        socket.emit("sendCommand", { deviceId: mac, type: "status", value: { type: "status", onOff: true, target: "AC" } }, resolve),
      );
      expect(ack).toEqual({ ok: true });
    });

    it("re-reads the retained status of the device an MCU is moved to, and raises no alert for a device never heard", async () => {
      const owner = await t.signUp();
      const first = await owner.device();
      const { socket } = await owner.socket();
      const log = record(socket, ["notification"]);
      const offline = await t.provision();
      const gone = await t.rawMqtt(offline.mac, offline.key);
      await gone.publishAsync(TOPICS.status(offline.mac), "offline", { qos: 1, retain: true });
      const next = await t.provision();
      const raw = await t.rawMqtt(next.mac, next.key);
      await raw.publishAsync(TOPICS.status(next.mac), "online", { qos: 1, retain: true });

      // Moved to a device whose last word was offline: offline, without "went offline" (it never was online here).
      const said = nextStatus(socket, (p) => p.deviceId === offline.mac && p.status === "offline");
      await owner.http.put(`/api/mcus/${first.mcuId}`, { name: "Moved", mac: offline.mac, claim_code: offline.claim_code, farm_id: owner.farmId });
      await said;
      // Moved again, to a device that said online.
      const online = nextStatus(socket, (p) => p.deviceId === next.mac && p.status === "online");
      const moved = (await owner.http.put(`/api/mcus/${first.mcuId}`, { name: "Moved", mac: next.mac, claim_code: next.claim_code, farm_id: owner.farmId })).json();
      expect(moved).toMatchObject({ mac: next.mac, status: "active" });
      await online;
      const mcus = (await owner.http.get(`/api/mcus/by-client/${owner.clientId}`)).json();
      expect(mcus.map((m: { mac: string; status: string }) => [m.mac, m.status])).toEqual([[next.mac, "online"]]);
      await sleep(300);
      expect(log.events).toEqual([]);
    });

    it("refuses authenticateUser for another client and disconnects", async () => {
      const owner = await t.signUp();
      const other = await t.signUp();
      const { socket } = await owner.socket();
      const unauthorized = nextEvent(socket, "unauthorized");
      const disconnected = new Promise((resolve) => socket.once("disconnect", resolve));
      socket.emit("authenticateUser", other.clientId);
      await unauthorized;
      await disconnected;
      expect(socket.connected).toBe(false);
    });

    it("holds one socket to its budget: a flood of authenticateUser gets a few answers and a disconnect, another client's commands are answered meanwhile", async () => {
      const flooder = await t.signUp();
      const owner = await t.signUp();
      const dev = await owner.device();
      const { socket: own } = await owner.socket();
      const online = nextStatus(own, (p) => p.deviceId === dev.mac && p.status === "online");
      await dev.sim.start();
      await online;

      const { socket } = await flooder.socket(); // its first authenticateUser was answered
      const answers = record(socket, ["authenticated"]);
      const disconnected = new Promise((resolve) => socket.once("disconnect", resolve));
      const droppedBefore = t.system.realtime.droppedEvents();
      for (let i = 0; i < 5000 && socket.connected; i++) {
        socket.emit("authenticateUser", flooder.clientId);
        if (i % 100 === 0) await sleep(1);
      }
      const started = Date.now();
      const acks: unknown[] = [];
      for (let i = 0; i < 5; i++) {
        acks.push(await new Promise((resolve) => own.emit("sendCommand", { deviceId: dev.mac, type: "auto", value: { type: "auto", onOff: i % 2 === 0, target: "AC" } }, resolve)));
      }
      expect(acks).toEqual(Array(5).fill({ ok: true }));
      expect(Date.now() - started).toBeLessThan(5_000);
      await disconnected;
      // The burst of 5 less the one spent on connecting, then nothing: a fleet snapshot each is what a flood would cost.
      expect(answers.events.length).toBeLessThanOrEqual(5);
      expect(t.system.realtime.droppedEvents() - droppedBefore).toBeGreaterThanOrEqual(100);
    });

    it("answers commands beyond a socket's budget with a reason, without sending them", async () => {
      const owner = await t.signUp();
      const dev = await owner.device();
      const { socket } = await owner.socket();
      const acks = await Promise.all(
        Array.from({ length: 60 }, () => new Promise((resolve) => socket.emit("sendCommand", { deviceId: dev.mac, type: "auto", value: { type: "auto", onOff: true, target: "AC" } }, resolve))),
      );
      const slowDown = acks.filter((a) => (a as { message?: string }).message === "Too many requests. Please slow down.");
      expect(slowDown.length).toBeGreaterThanOrEqual(25);
      expect(slowDown.length).toBeLessThanOrEqual(30);
      expect(socket.connected).toBe(true);
    });

    it("refuses a socket without a session, with a made-up session, or from a foreign origin", async () => {
      const owner = await t.signUp();
      const attempt = (headers: Record<string, string>) =>
        new Promise<string>((resolve) => {
          const s = io(t.system.url, { transports: ["websocket"], extraHeaders: headers, reconnection: false, forceNew: true });
          s.once("connect", () => {
            s.close();
            resolve("connected");
          });
          s.once("connect_error", (err) => {
            s.close();
            resolve(`refused: ${err.message}`);
          });
        });
      expect(await attempt({})).toBe("refused: unauthorized");
      expect(await attempt({ cookie: "sid=made-up" })).toBe("refused: unauthorized");
      expect(await attempt({ cookie: owner.cookie, origin: "https://evil.example" })).toMatch(/^refused/);
      expect(await attempt({ cookie: owner.cookie, origin: "https://farm.example.com" })).toBe("connected");
    });

    it("disconnects the session's sockets at logout", async () => {
      const owner = await t.signUp();
      const { socket } = await owner.socket();
      const disconnected = new Promise((resolve) => socket.once("disconnect", resolve));
      expect((await owner.http.post("/api/clients/logout", {})).statusCode).toBe(200);
      await disconnected;
      expect(socket.connected).toBe(false);
    });

    it("delivers the linked profile's config on link, refresh, edit and unlink", async () => {
      const owner = await t.signUp();
      const dev = await owner.device();
      const { socket } = await owner.socket();
      await dev.sim.start();
      const profile = (await owner.http.post("/api/setting-profiles", { name: "Fruiting", client_id: owner.clientId, config: sampleConfig })).json();
      const waitFor = async (check: () => boolean) => {
        for (let i = 0; i < 50 && !check(); i++) await sleep(50);
        expect(check()).toBe(true);
      };

      const link = (await owner.http.post("/api/setting-profiles/link", { mcu_id: dev.mcuId, profile_id: profile.profile_id })).json();
      await waitFor(() => dev.sim.configReceived?.ventilation.co2_threshold === 1200);
      expect(dev.sim.configReceived).toEqual(sampleConfig);

      dev.sim.configReceived = undefined;
      expect(await new Promise((resolve) => socket.emit("refresh", { deviceId: dev.mac, mac: dev.mac }, resolve))).toEqual({ ok: true });
      await waitFor(() => dev.sim.configReceived !== undefined);
      expect(dev.sim.configReceived).toEqual(sampleConfig);

      const edited = { ...sampleConfig, ventilation: { co2_threshold: 950 } };
      await owner.http.put(`/api/setting-profiles/${profile.profile_id}`, { name: "Fruiting", client_id: owner.clientId, config: edited });
      await waitFor(() => dev.sim.configReceived?.ventilation.co2_threshold === 950);

      await owner.http.del(`/api/setting-profiles/link/${link.id}`);
      await waitFor(() => dev.sim.configReceived === null);
    });

    it("publishes every linked config again, as after a start of the embedded broker that lost them", async () => {
      const owner = await t.signUp();
      const dev = await owner.device();
      await dev.sim.start();
      const profile = (await owner.http.post("/api/setting-profiles", { name: "Pinning", client_id: owner.clientId, config: sampleConfig })).json();
      await owner.http.post("/api/setting-profiles/link", { mcu_id: dev.mcuId, profile_id: profile.profile_id });
      await until(() => dev.sim.configReceived?.ventilation.co2_threshold === 1200);
      // The broker forgets the retained config (an in-memory broker restarted): the device runs on its defaults.
      await t.system.gateway.publishConfig(dev.mac, null);
      await until(() => dev.sim.configReceived === null);
      await t.system.publishLinkedConfigs();
      await until(() => dev.sim.configReceived?.ventilation.co2_threshold === 1200);
      expect(dev.sim.config).toEqual(sampleConfig);
    });

    it("reports a device that vanished without a clean disconnect: status offline and a notification", async () => {
      const owner = await t.signUp();
      const dev = await owner.device({ keepalive: 1 });
      const { socket } = await owner.socket();
      const online = nextStatus(socket, (p) => p.deviceId === dev.mac && p.status === "online");
      await dev.sim.start();
      await online;
      const offline = nextStatus(socket, (p) => p.deviceId === dev.mac && p.status === "offline", 10_000);
      const notified = nextEvent<{ type: string; title: string }>(socket, "notification", (n) => n.type === "mcu_offline", 10_000);
      await dev.sim.stop({ clean: false });
      await offline;
      expect((await notified).title).toBe(`MCU ${dev.mac.slice(-5)} went offline`);
      const mcus = (await owner.http.get(`/api/mcus/by-client/${owner.clientId}`)).json();
      expect(mcus.find((m: { mac: string }) => m.mac === dev.mac).status).toBe("offline");
      const stored = (await owner.http.get(`/notifications/${owner.clientId}`)).json();
      expect(stored[0]).toMatchObject({ type: "mcu_offline", read_status: false });
    });

    it.skipIf(external)("takes a device's plain telemetry around the broker's parser, keeps the device connected past its keepalive, and leaves the rest to the broker", async () => {
      const broker = t.system.broker!;
      const owner = await t.signUp();
      const dev = await owner.device();
      const { socket } = await owner.socket();
      const humidities: number[] = [];
      socket.on("realtimeData", (p: RealtimeDataPayload) => p.deviceId === dev.mac && humidities.push(p.payload.DHT!.humidity));
      socket.on("realtimeBatch", (b: RealtimeBatchPayload) => b.data.forEach((p) => p.deviceId === dev.mac && humidities.push(p.payload.DHT!.humidity)));
      // The broker closes a connection silent for 1.5 keepalives; this device publishes and sends no pings after the first.
      const device = connect(broker.port, "127.0.0.1");
      let closed = false;
      device.on("close", () => (closed = true));
      const connack = new Promise<Buffer>((resolve) => device.once("data", resolve));
      device.write(mqttConnect({ clientId: dev.mac, username: dev.mac, password: dev.key, keepalive: 2 }));
      expect([...(await connack)]).toEqual([0x20, 2, 0, 0]);
      // The lane opens a moment after the CONNACK is written; a ping's round trip waits that out.
      const pingresp = new Promise<Buffer>((resolve) => device.once("data", resolve));
      device.write(Buffer.from([0xc0, 0x00]));
      expect([...(await pingresp)]).toEqual([0xd0, 0x00]);
      const before = broker.fastLaneMessages();
      // 16 readings over 4 s: past the 3 s the broker allows a silent connection.
      for (let i = 0; i < 16; i++) {
        device.write(mqttPublish(TOPICS.telemetry(dev.mac), JSON.stringify(reading(60 + i))));
        await sleep(250);
      }
      expect(closed).toBe(false);
      await until(() => humidities.length === 16);
      expect(humidities).toEqual(Array.from({ length: 16 }, (_, i) => 60 + i));
      expect(broker.fastLaneMessages() - before).toBe(16);

      // Retained or QoS 1 telemetry passes through the broker, as does a publish cut across two writes.
      const viaBroker = broker.fastLaneMessages();
      device.write(mqttPublish(TOPICS.telemetry(dev.mac), JSON.stringify(reading(90)), { qos: 1 }));
      device.write(mqttPublish(TOPICS.telemetry(dev.mac), JSON.stringify(reading(91)), { flags: 1 }));
      const cut = mqttPublish(TOPICS.telemetry(dev.mac), JSON.stringify(reading(92)));
      device.write(cut.subarray(0, 20));
      await sleep(100);
      device.write(cut.subarray(20));
      expect(closed).toBe(false);
      await until(() => humidities.length === 19);
      // (The broker handles the packets of one read side by side: their order may change.)
      expect(humidities.slice(16).sort()).toEqual([90, 91, 92]);
      expect(broker.fastLaneMessages()).toBe(viaBroker);
      device.destroy();
    });

    it("drops malformed telemetry and keeps serving", async () => {
      const owner = await t.signUp();
      const dev = await owner.device();
      const { socket } = await owner.socket();
      const log = record(socket, ["realtimeData", "realtimeBatch"]);
      const raw = await t.rawMqtt(dev.mac, dev.key);
      const before = t.system.gateway.stats().dropped.invalid;
      const bads = [
        "not json",
        "{",
        "[]",
        "null",
        JSON.stringify({ DHT: { temperature: "hot", humidity: 50, count: 1 } }),
        JSON.stringify({ batteryLevel: 400 }),
        // JSON.parse reads 1e309 as Infinity, which would be stored and served as null.
        '{"DHT":{"temperature":1e309,"humidity":50,"count":1}}',
        '{"CO2":{"co2":-1e309,"count":1}}',
        JSON.stringify({ MOISTURE: { soil_moisture: 250, count: 1 } }),
        JSON.stringify({ DHT: { temperature: 21, humidity: 50, count: -1 } }),
      ];
      for (const bad of bads) await raw.publishAsync(TOPICS.telemetry(dev.mac), bad);
      await sleep(300);
      expect(log.events).toEqual([]);
      expect(t.system.gateway.stats().dropped.invalid - before).toBe(bads.length);
      const listed = (await owner.http.get(`/api/mcus/by-client/${owner.clientId}`)).json();
      expect(JSON.stringify(listed.find((m: { mac: string }) => m.mac === dev.mac).readings ?? null)).not.toContain("null,");

      // A payload over the limit is refused too (the embedded broker drops the device's connection for it).
      const huge = await t.rawMqtt(dev.mac, dev.key, { clientId: dev.mac });
      await huge.publishAsync(TOPICS.telemetry(dev.mac), JSON.stringify({ DHT: { temperature: 1, humidity: 1, count: 1 }, pad: "x".repeat(100_000) })).catch(() => undefined);
      await sleep(300);
      expect(log.events).toEqual([]);

      const good = await t.rawMqtt(dev.mac, dev.key);
      const arrived = nextData(socket, (p) => p.deviceId === dev.mac);
      await good.publishAsync(TOPICS.telemetry(dev.mac), JSON.stringify(reading(88)));
      expect((await arrived).payload.DHT?.humidity).toBe(88);
    });

    it.skipIf(external)("closes an unauthenticated CONNECT that declares 200 MB at its header, and caps an address's connections that have not authenticated", async () => {
      const port = t.system.broker!.port;
      const open = () =>
        new Promise<{ socket: Socket; closed: Promise<number> }>((resolve, reject) => {
          const socket = connect(port, "127.0.0.1");
          const started = Date.now();
          const closed = new Promise<number>((done) => socket.once("close", () => done(Date.now() - started)));
          socket.on("error", () => undefined);
          socket.once("connect", () => resolve({ socket, closed }));
          socket.once("error", reject);
        });
      // CONNECT (0x10) with a remaining length of 200 MB (varint), then the start of its body.
      const huge = Buffer.concat([mqttFixedHeader(0x10, 200 * 1024 * 1024), Buffer.alloc(64 * 1024, 0x61)]);
      const rssBefore = process.memoryUsage().rss;
      const attacks = await Promise.all(Array.from({ length: 12 }, () => open()));
      for (const { socket } of attacks) socket.write(huge);
      const closedAfter = await Promise.all(attacks.map((a) => a.closed));
      expect(Math.max(...closedAfter)).toBeLessThan(2_000);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);

      // 256 silent connections from one address are held (until the connect timeout); the next is closed at once.
      const silent = await Promise.all(Array.from({ length: 256 }, () => open()));
      const extra = await open();
      expect(await extra.closed).toBeLessThan(1_000);
      // A silent connection is closed once the connect timeout (5 s) has passed.
      const closedIn = await silent[0]!.closed;
      expect(closedIn).toBeGreaterThan(4_000);
      expect(closedIn).toBeLessThan(8_000);
      for (const { socket } of silent) socket.destroy();
      // A device still connects and reports.
      const owner = await t.signUp();
      const dev = await owner.device();
      const raw = await t.rawMqtt(dev.mac, dev.key);
      expect(raw.connected).toBe(true);
    }, 20_000);

    it("raises low battery and a sustained threshold breach once, not on every reading", async () => {
      const owner = await t.signUp();
      const dev = await owner.device();
      const profile = (await owner.http.post("/api/setting-profiles", { name: "Alerting", client_id: owner.clientId, config: sampleConfig })).json();
      await owner.http.post("/api/setting-profiles/link", { mcu_id: dev.mcuId, profile_id: profile.profile_id });
      const { socket } = await owner.socket();
      const log = record(socket, ["notification"]);
      const raw = await t.rawMqtt(dev.mac, dev.key);
      // Humidity 50% is below humidity_on_below (80) and the battery is at 20%: both persist past the 200 ms grace.
      for (let i = 0; i < 8; i++) {
        await raw.publishAsync(TOPICS.telemetry(dev.mac), JSON.stringify(reading(50, { batteryLevel: 20 })));
        await sleep(100);
      }
      await sleep(300);
      const types = log.events.map((e) => (e.payload as { type: string }).type).sort();
      expect(types).toEqual(["battery_low", "humidity_low"]);
      const humidity = log.events.find((e) => (e.payload as { type: string }).type === "humidity_low")!.payload as { body: string };
      expect(humidity.body).toBe("Humidity is 50%, below 80%.");
    });

    it("coalesces a burst from many devices into a few socket messages", async () => {
      const owner = await t.signUp();
      const devices = await Promise.all(Array.from({ length: 12 }, () => owner.device()));
      const { socket } = await owner.socket();
      const log = record(socket, ["realtimeData", "realtimeBatch"]);
      const clients = await Promise.all(devices.map((d) => t.rawMqtt(d.mac, d.key)));
      const started = Date.now();
      for (let round = 0; round < 10; round++) {
        await Promise.all(clients.map((c, i) => c.publishAsync(TOPICS.telemetry(devices[i]!.mac), JSON.stringify(reading(60 + round)))));
      }
      const latest = () => {
        const byDevice = new Map<string, number>();
        for (const e of log.events) {
          const items = e.name === "realtimeBatch" ? (e.payload as RealtimeBatchPayload).data : [e.payload as RealtimeDataPayload];
          for (const item of items) byDevice.set(item.deviceId, item.payload.DHT!.humidity);
        }
        return devices.map((d) => byDevice.get(d.mac));
      };
      // Waits for the last round (however busy the machine is), then two more coalescing windows.
      await until(() => latest().every((h) => h === 69));
      const elapsed = Date.now() - started;
      await sleep(40);
      // 120 readings arrive as at most one message per 20 ms window, and the last of each device wins.
      expect(log.events.length).toBeLessThanOrEqual(Math.ceil(elapsed / 20) + 3);
      expect(log.events.length).toBeLessThan(120);
      expect(latest()).toEqual(devices.map(() => 69));
    });

    it("skips frames of readings for a socket that stops reading, counts them, and still delivers its statuses", async () => {
      const owner = await t.signUp();
      const dev = await owner.device();
      const { socket: slow } = await owner.socket();
      const { socket: fast } = await owner.socket();
      const fastLog = record(fast, ["realtimeData", "realtimeBatch"]);
      const metrics = async () => (await t.system.app.inject({ method: "GET", url: "/api/metrics" })).json();
      const shedBefore = (await metrics()).sockets.shedFrames;
      // The slow socket's TCP connection stops being read (a phone on a weak link): the server's writes back up.
      const tcp = (slow.io.engine.transport as unknown as { ws: { _socket: { pause(): void; resume(): void } } }).ws._socket;
      tcp.pause();
      const big = (n: number) => ({ ...reading(50 + (n % 40)), lastUpdated: new Date().toISOString(), pad: "x".repeat(200_000) }) as never;
      for (let n = 0; n < 80; n++) {
        t.system.realtime.reading(owner.clientId, dev.mac, big(n));
        if (n === 40) t.system.realtime.status(owner.clientId, dev.mac, "offline");
        await sleep(30);
      }
      const shed = (await metrics()).sockets.shedFrames - shedBefore;
      expect(shed).toBeGreaterThan(10);
      // The socket that reads got the readings (its last one included) and was not held back by the other.
      await until(() => fastLog.events.length > 60);
      // Once the slow socket reads again it gets the status sent meanwhile, then live readings again.
      const status = nextStatus(slow, (p) => p.deviceId === dev.mac && p.status === "offline", 15_000);
      tcp.resume();
      await status;
      const live = nextData(slow, (p) => p.deviceId === dev.mac && p.payload.DHT?.humidity === 99, 15_000);
      t.system.realtime.reading(owner.clientId, dev.mac, { ...reading(99), lastUpdated: new Date().toISOString() } as never);
      await live;
    }, 60_000);

    it("answers its metrics to this machine only", async () => {
      const local = await t.system.app.inject({ method: "GET", url: "/api/metrics" });
      expect(local.statusCode).toBe(200);
      expect(local.json()).toMatchObject({ gateway: { telemetry: expect.any(Number) }, loop: { p99Ms: expect.any(Number) }, sockets: { connected: expect.any(Number) } });
      const remote = await t.system.app.inject({ method: "GET", url: "/api/metrics", remoteAddress: "198.51.100.7" });
      expect(remote.statusCode).toBe(404);
      expect(remote.body).not.toContain("telemetry");
    });
  });
});
