import mqtt, { type MqttClient } from "mqtt";
import { io, type Socket } from "socket.io-client";
import type { RealtimeBatchPayload, RealtimeDataPayload } from "../../src/contract/realtime.ts";
import { createPasswordHasher } from "../auth/password.ts";
import type { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { applyDynsec, dynsecDeviceCommands } from "../devices/mosquitto-dynsec.ts";
import type { MosquittoProcess } from "./mosquitto-process.ts";
import { provisionDevices } from "../devices/provisioning.ts";
import { DEFAULT_SESSION } from "../http/session.ts";
import { signUpWithFarm } from "./test-system.ts";
import { startSystem, type System, type SystemOptions } from "../system.ts";
import { openTestDatabase, uniqueMac } from "./test-server.ts";

/**
 * A whole server on loopback (embedded broker, or a Mosquitto the test started) with the device
 * message budget the test chooses, owners with registered MCUs, and raw MQTT connections as those
 * MCUs: what a test needs to flood the server from one device and watch everyone else.
 */
export interface FloodSystem {
  system: System;
  db: Database;
  owner(): Promise<FloodOwner>;
  close(): Promise<void>;
}

export interface FloodOwner {
  clientId: number;
  /** Registers a new provisioned MCU for this owner. */
  device(): Promise<FloodDevice>;
  /** A signed-in socket counting the readings it receives per MAC (realtimeData and batch entries). */
  socket(): Promise<{ socket: Socket; readings: Map<string, number> }>;
}

export interface FloodDevice {
  mac: string;
  key: string;
  mcuId: number;
  name: string;
  /** An MQTT connection as this device (no reconnect). */
  connect(options?: mqtt.IClientOptions): Promise<MqttClient>;
}

export async function startFloodSystem(o: { deviceBudget?: SystemOptions["deviceBudget"]; mosquitto?: MosquittoProcess } = {}): Promise<FloodSystem> {
  const { db, drop } = await openTestDatabase();
  await migrate(db);
  const m = o.mosquitto;
  const system = await startSystem({
    db,
    hasher: createPasswordHasher({ log2N: 10 }),
    http: { host: "127.0.0.1", port: 0, allowedOrigins: ["https://farm.example.com"], session: DEFAULT_SESSION, loginGuard: { perAddressPerMinute: 100_000 } },
    mqtt: m ? { mode: "external", url: m.url, username: m.gateway.username, password: m.gateway.password, shareGroup: "flood-test" } : { mode: "embedded", host: "127.0.0.1", port: 0 },
    alerts: { graceMs: 60_000, repeatMs: 60_000 },
    commandTimeoutMs: 1500,
    coalesceMs: 20,
    readingsFlushMs: 100,
    deviceBudget: o.deviceBudget,
  });
  const clients: MqttClient[] = [];
  const sockets: Socket[] = [];

  async function owner(): Promise<FloodOwner> {
    const { clientId, cookie, farmId, http } = await signUpWithFarm(system.app);
    return {
      clientId,
      async device() {
        const [d] = await provisionDevices(db, [{ mac: uniqueMac(), kind: "mcu", type: null }]);
        const { mac, key } = { mac: d!.mac, key: d!.key };
        if (m) await applyDynsec(m.url, m.admin, dynsecDeviceCommands(mac, key));
        const name = `Room ${mac.slice(-5)}`;
        const res = await http.post("/api/mcus", { name, mac, claim_code: d!.claimCode, farm_id: farmId, status: "active" });
        if (res.statusCode !== 201) throw new Error(`MCU registration failed: ${res.body}`);
        return {
          mac,
          key,
          name,
          mcuId: res.json().mcu_id as number,
          async connect(options = {}) {
            const client = await mqtt.connectAsync(system.mqttUrl, { clientId: mac, username: mac, password: key, reconnectPeriod: 0, connectTimeout: 5000, ...options });
            client.on("error", () => undefined);
            clients.push(client);
            return client;
          },
        };
      },
      async socket() {
        const socket = io(system.url, { transports: ["websocket"], extraHeaders: { cookie }, reconnection: false, forceNew: true });
        sockets.push(socket);
        await new Promise<void>((resolve, reject) => {
          socket.once("connect", () => resolve());
          socket.once("connect_error", reject);
        });
        const authenticated = new Promise((resolve) => socket.once("authenticated", resolve));
        socket.emit("authenticateUser", clientId);
        await authenticated;
        const readings = new Map<string, number>();
        const count = (p: RealtimeDataPayload) => readings.set(p.deviceId, (readings.get(p.deviceId) ?? 0) + 1);
        socket.on("realtimeData", count);
        socket.on("realtimeBatch", (b: RealtimeBatchPayload) => b.data.forEach(count));
        return { socket, readings };
      },
    };
  }

  return {
    system,
    db,
    owner,
    async close() {
      for (const s of sockets) s.close();
      await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
      await system.close();
      await db.close();
      await drop();
    },
  };
}

/**
 * Publishes `max` QoS 0 messages spread over `ms` (in a batch every 10 ms), or fewer if the
 * connection closes first; answers how many were handed to the socket and whether it closed.
 */
export async function flood(client: MqttClient, topic: string, payloadOf: (i: number) => string, { max, ms }: { max: number; ms: number }): Promise<{ sent: number; closed: boolean }> {
  let closed = false;
  client.once("close", () => (closed = true));
  const started = Date.now();
  const batch = Math.max(1, Math.ceil((max * 10) / ms));
  let sent = 0;
  while (sent < max && !closed && Date.now() - started < ms) {
    for (let i = 0; i < batch && sent < max && client.connected; i++) client.publish(topic, payloadOf(sent++), { qos: 0 });
    await new Promise((r) => setTimeout(r, 10));
  }
  return { sent, closed };
}

/** Readings of `mcuId` the server took in (each carries one battery level), once its history is written. */
export async function readingsTaken(db: Database, mcuId: number): Promise<number> {
  const [row] = await db.query<{ n: number }>("select coalesce(sum(battery_n), 0)::int as n from reading_minutes where mcu_id = $1", [mcuId]);
  return row!.n;
}

/** Polls `read` until `done` says so (at most `ms`), and answers its last value. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
