import mqtt, { type MqttClient } from "mqtt";
import { io, type Socket } from "socket.io-client";
import type { DeviceStatusPayload, RealtimeBatchPayload, RealtimeDataPayload } from "../../src/contract/realtime.ts";
import { createPasswordHasher } from "../auth/password.ts";
import type { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { applyDynsec, dynsecDeviceCommands } from "../devices/mosquitto-dynsec.ts";
import type { MosquittoProcess } from "./mosquitto-process.ts";
import { provisionDevices } from "../devices/provisioning.ts";
import { DEFAULT_SESSION } from "../http/session.ts";
import { SimulatedMcu } from "../simulator/simulated-mcu.ts";
import { startSystem, type System, type SystemOptions } from "../system.ts";
import { cookieOf, openTestDatabase, registration, requester, sampleConfig, uniqueMac } from "./test-server.ts";

/**
 * The whole server on loopback with a real broker (embedded Aedes, or a Mosquitto started by the
 * test) and real MQTT and Socket.IO clients.
 */
export interface TestSystem {
  system: System;
  db: Database;
  /** A signed-in client with a farm; `device()` registers an MCU for it. */
  signUp(): Promise<TestOwner>;
  /** Provisions a MAC with a device key (in the broker too, when it is Mosquitto). */
  provision(): Promise<{ mac: string; key: string; claim_code: string }>;
  /** A raw MQTT connection as `username` with `password` (and client id = username). */
  rawMqtt(username: string, password: string, options?: mqtt.IClientOptions): Promise<MqttClient>;
  close(): Promise<void>;
}

export interface TestOwner {
  clientId: number;
  cookie: string;
  farmId: number;
  http: ReturnType<typeof requester>;
  /** Registers a provisioned MCU for this client and returns a simulated device for it (not started). */
  device(options?: { keepalive?: number }): Promise<{ mac: string; key: string; claim_code: string; mcuId: number; name: string; sim: SimulatedMcu }>;
  /** A socket signed in as this client, after `authenticated` arrived. */
  socket(): Promise<{ socket: Socket; authenticated: unknown }>;
}

export async function createTestSystem(options: { mosquitto?: MosquittoProcess } & Partial<Pick<SystemOptions, "alerts" | "commandTimeoutMs" | "coalesceMs" | "deviceBudget">> = {}): Promise<TestSystem> {
  const { db, drop } = await openTestDatabase();
  await migrate(db);
  const m = options.mosquitto;
  const system = await startSystem({
    db,
    hasher: createPasswordHasher({ log2N: 10 }),
    http: { host: "127.0.0.1", port: 0, allowedOrigins: ["https://farm.example.com"], session: DEFAULT_SESSION, loginGuard: { perAddressPerMinute: 100_000 } },
    mqtt: m ? { mode: "external", url: m.url, username: m.gateway.username, password: m.gateway.password, shareGroup: "test-gateway" } : { mode: "embedded", host: "127.0.0.1", port: 0 },
    alerts: options.alerts ?? { graceMs: 200, repeatMs: 60_000 },
    commandTimeoutMs: options.commandTimeoutMs ?? 1500,
    coalesceMs: options.coalesceMs ?? 20,
    readingsFlushMs: 100,
    deviceBudget: options.deviceBudget,
  });
  const sockets: Socket[] = [];
  const mqttClients: MqttClient[] = [];
  const sims: SimulatedMcu[] = [];

  async function provision() {
    const [d] = await provisionDevices(db, [{ mac: uniqueMac(), kind: "mcu", type: null }]);
    if (m) await applyDynsec(m.url, m.admin, dynsecDeviceCommands(d!.mac, d!.key));
    return { mac: d!.mac, key: d!.key, claim_code: d!.claimCode! };
  }

  async function signUp(): Promise<TestOwner> {
    const { clientId, cookie, farmId, http } = await signUpWithFarm(system.app);
    return {
      clientId,
      cookie,
      farmId,
      http,
      async device({ keepalive = 1 } = {}) {
        const { mac, key, claim_code } = await provision();
        const name = `MCU ${mac.slice(-5)}`;
        const res = await http.post("/api/mcus", { name, mac, claim_code, farm_id: farmId, status: "active" });
        if (res.statusCode !== 201) throw new Error(`MCU registration failed: ${res.body}`);
        const sim = new SimulatedMcu({ url: system.mqttUrl, device: { mac, key, counts: { DHT: 1, SOIL_TEMP: 1, CO2: 1, MOISTURE: 1 }, seed: 7 }, keepalive });
        sims.push(sim);
        return { mac, key, claim_code, mcuId: res.json().mcu_id as number, name, sim };
      },
      async socket() {
        const socket = io(system.url, { transports: ["websocket"], extraHeaders: { cookie }, reconnection: false, forceNew: true });
        sockets.push(socket);
        await new Promise<void>((resolve, reject) => {
          socket.once("connect", () => resolve());
          socket.once("connect_error", reject);
        });
        const authenticated = new Promise<unknown>((resolve) => socket.once("authenticated", resolve));
        socket.emit("authenticateUser", clientId);
        return { socket, authenticated: await authenticated };
      },
    };
  }

  return {
    system,
    db,
    signUp,
    provision,
    async rawMqtt(username, password, opts = {}) {
      const client = await mqtt.connectAsync(system.mqttUrl, { clientId: username, username, password, reconnectPeriod: 0, connectTimeout: 5000, ...opts });
      mqttClients.push(client);
      return client;
    },
    async close() {
      for (const s of sockets) s.close();
      await Promise.all(sims.map((s) => s.stop({ clean: true }).catch(() => undefined)));
      await Promise.all(mqttClients.map((c) => c.endAsync(true).catch(() => undefined)));
      await system.close();
      await db.close();
      await drop();
    },
  };
}

/** A new client registered and signed in on `app`, with one farm: what a test needs to act as an owner. */
export async function signUpWithFarm(app: System["app"]) {
  const reg = registration();
  await app.inject({ method: "POST", url: "/api/clients", payload: reg });
  const login = await app.inject({ method: "POST", url: "/api/clients/login", payload: { username: reg.username, password: reg.password } });
  const cookie = cookieOf(login);
  const clientId = login.json().client.client_id as number;
  const http = requester(app, cookie);
  const farmId = (await http.post("/api/farms", { name: "Test farm", location: "Loopback", client_id: clientId })).json().farm_id as number;
  return { clientId, cookie, farmId, http };
}

/** Resolves with the first event `name` whose payload passes `match`, or rejects after `ms`. */
export function nextEvent<T = unknown>(socket: Socket, name: string, match: (payload: T) => boolean = () => true, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(name, on);
      reject(new Error(`no ${name} within ${ms} ms`));
    }, ms);
    const on = (payload: T) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      socket.off(name, on);
      resolve(payload);
    };
    socket.on(name, on);
  });
}

/**
 * The next reading (realtimeData, or an entry of a realtimeBatch) that passes `match`: the server
 * sends a device's updates in a batch when several arrive within one coalescing window.
 */
export function nextData(socket: Socket, match: (p: RealtimeDataPayload) => boolean, ms = 5000): Promise<RealtimeDataPayload> {
  return nextOf(socket, "realtimeData", "data", match, ms);
}

/** The next status update (deviceStatusUpdate, or an entry of a realtimeBatch) that passes `match`. */
export function nextStatus(socket: Socket, match: (p: DeviceStatusPayload) => boolean, ms = 5000): Promise<DeviceStatusPayload> {
  return nextOf(socket, "deviceStatusUpdate", "status", match, ms);
}

function nextOf<T>(socket: Socket, single: string, field: "data" | "status", match: (p: T) => boolean, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = (p: T) => {
      clearTimeout(timer);
      socket.off(single, onSingle);
      socket.off("realtimeBatch", onBatch);
      resolve(p);
    };
    const onSingle = (p: T) => match(p) && done(p);
    const onBatch = (b: RealtimeBatchPayload) => {
      const hit = (b[field] as T[]).find(match);
      if (hit) done(hit);
    };
    const timer = setTimeout(() => {
      socket.off(single, onSingle);
      socket.off("realtimeBatch", onBatch);
      reject(new Error(`no ${single} within ${ms} ms`));
    }, ms);
    socket.on(single, onSingle);
    socket.on("realtimeBatch", onBatch);
  });
}

/** Everything a socket receives of `names`, from now on. */
/** Every event of `names` the socket receives, with when it arrived (ms). */
export function record(socket: Socket, names: string[]): { events: { name: string; payload: unknown; at: number }[] } {
  const log = { events: [] as { name: string; payload: unknown; at: number }[] };
  for (const name of names) socket.on(name, (payload: unknown) => log.events.push({ name, payload, at: Date.now() }));
  return log;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export { sampleConfig };
