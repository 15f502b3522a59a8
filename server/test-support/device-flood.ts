import type { IClientOptions, MqttClient } from "mqtt";
import type { Socket } from "socket.io-client";
import type { RealtimeBatchPayload, RealtimeDataPayload } from "../../src/contract/realtime.ts";
import type { Database } from "../db/database.ts";
import type { System, SystemOptions } from "../system.ts";
import type { MosquittoProcess } from "./mosquitto-process.ts";
import { createTestSystem } from "./test-system.ts";

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
  connect(options?: IClientOptions): Promise<MqttClient>;
}

export async function startFloodSystem(o: { deviceBudget?: SystemOptions["deviceBudget"]; mosquitto?: MosquittoProcess } = {}): Promise<FloodSystem> {
  // Alerts wait a minute: only the sending-too-much notice a test looks for is told within it.
  const t = await createTestSystem({ mosquitto: o.mosquitto, deviceBudget: o.deviceBudget, alerts: { graceMs: 60_000, repeatMs: 60_000 } });

  async function owner(): Promise<FloodOwner> {
    const signedUp = await t.signUp();
    return {
      clientId: signedUp.clientId,
      async device() {
        const { mac, key, mcuId, name } = await signedUp.device();
        return {
          mac,
          key,
          name,
          mcuId,
          async connect(options = {}) {
            const client = await t.rawMqtt(mac, key, options);
            // A flooding device is cut off by the server: its client's error is what the test expects.
            client.on("error", () => undefined);
            return client;
          },
        };
      },
      async socket() {
        const { socket } = await signedUp.socket();
        const readings = new Map<string, number>();
        const count = (p: RealtimeDataPayload) => readings.set(p.deviceId, (readings.get(p.deviceId) ?? 0) + 1);
        socket.on("realtimeData", count);
        socket.on("realtimeBatch", (b: RealtimeBatchPayload) => b.data.forEach(count));
        return { socket, readings };
      },
    };
  }

  return { system: t.system, db: t.db, owner, close: () => t.close() };
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
