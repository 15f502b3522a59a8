import { Redis } from "ioredis";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RealtimeBatchPayload, RealtimeDataPayload } from "../../src/contract/realtime.ts";
import { createPasswordHasher } from "../auth/password.ts";
import { migrate } from "../db/migrate.ts";
import { applyDynsec, dynsecDeviceCommands } from "../devices/mosquitto-dynsec.ts";
import { mosquittoAvailable, startMosquitto, type MosquittoProcess } from "../test-support/mosquitto-process.ts";
import { provisionDevices } from "../devices/provisioning.ts";
import { DEFAULT_SESSION } from "../http/session.ts";
import { SimulatedMcu } from "../simulator/simulated-mcu.ts";
import { startSystem, type System } from "../system.ts";
import { openTestDatabase, uniqueMac } from "../test-support/test-server.ts";
import { signUpWithFarm } from "../test-support/test-system.ts";

const ready = Boolean(process.env.REDIS_URL) && mosquittoAvailable();
if (process.env.CI && !ready) throw new Error("CI must provide Redis (REDIS_URL) and Mosquitto for the two-node test");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Scaling out: two server nodes behind one Mosquitto (a shared subscription splits the
 * devices' messages between them) and one Redis (the Socket.IO adapter): a browser connected to
 * node A hears every reading, whichever node ingested it, and its commands are acknowledged.
 */
describe.skipIf(!ready)("two server nodes: Mosquitto, Redis, one database", () => {
  let mosquitto: MosquittoProcess;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  const nodes: System[] = [];
  const redises: Redis[] = [];
  let sim: SimulatedMcu | undefined;
  let socket: Socket | undefined;
  const stream = `test-${process.pid}-${Date.now()}:socket.io`;

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    database = await openTestDatabase();
    await migrate(database.db);
    const hasher = createPasswordHasher({ log2N: 10 });
    for (let i = 0; i < 2; i++) {
      const redis = new Redis(process.env.REDIS_URL!);
      redises.push(redis);
      nodes.push(
        await startSystem({
          db: database.db,
          hasher,
          http: { host: "127.0.0.1", port: 0, allowedOrigins: [], session: DEFAULT_SESSION, loginGuard: { perAddressPerMinute: 100_000 } },
          mqtt: { mode: "external", url: mosquitto.url, username: mosquitto.gateway.username, password: mosquitto.gateway.password, shareGroup: "two-nodes" },
          socketRedis: redis,
          // Its own stream: another run of this suite (PGlite and PostgreSQL) may share the Redis.
          socketRedisStream: stream,
          coalesceMs: 10,
          commandTimeoutMs: 3000,
        }),
      );
    }
  });
  afterAll(async () => {
    socket?.close();
    await sim?.stop({ clean: true }).catch(() => undefined);
    for (const n of nodes) await n.close();
    await redises[0]?.del(stream);
    for (const r of redises) r.disconnect();
    await database?.db.close();
    await database?.drop();
    await mosquitto?.stop();
  });

  it("a socket on node A gets every reading, ingested by A or B, once; a command through A is acknowledged", async () => {
    const [a, b] = nodes as [System, System];
    const { clientId, cookie, farmId, http } = await signUpWithFarm(a.app);
    const [device] = await provisionDevices(database.db, [{ mac: uniqueMac(), kind: "mcu", type: null }]);
    await applyDynsec(mosquitto.url, mosquitto.admin, dynsecDeviceCommands(device!.mac, device!.key));
    const mac = device!.mac;
    expect((await http.post("/api/mcus", { name: "Shared", mac, claim_code: device!.claimCode, farm_id: farmId })).statusCode).toBe(201);

    socket = io(a.url, { transports: ["websocket"], extraHeaders: { cookie }, reconnection: false, forceNew: true });
    const authenticated = new Promise((r) => socket!.once("authenticated", r));
    await new Promise<void>((resolve, reject) => {
      socket!.once("connect", () => resolve());
      socket!.once("connect_error", reject);
    });
    socket.emit("authenticateUser", clientId);
    await authenticated;
    const received: string[] = [];
    socket.on("realtimeData", (p: RealtimeDataPayload) => p.deviceId === mac && received.push(String(p.payload.lastUpdated)));
    socket.on("realtimeBatch", (p: RealtimeBatchPayload) => p.data.forEach((d) => d.deviceId === mac && received.push(String(d.payload.lastUpdated))));

    sim = new SimulatedMcu({ url: mosquitto.url, device: { mac, key: device!.key, counts: { DHT: 1, SOIL_TEMP: 1, CO2: 1, MOISTURE: 1 }, seed: 3 }, keepalive: 5 });
    await sim.start(); // reports once on connect
    const sent = 40;
    for (let i = 1; i < sent; i++) {
      await sleep(60);
      sim.report();
    }
    for (let i = 0; i < 100 && received.length < sent; i++) await sleep(50);
    await sleep(300);
    // Both nodes took a share of the device's messages, and the socket on A heard all of them, each once.
    expect(a.gateway.stats().telemetry).toBeGreaterThan(0);
    expect(b.gateway.stats().telemetry).toBeGreaterThan(0);
    expect(a.gateway.stats().telemetry + b.gateway.stats().telemetry).toBe(sent);
    expect(received.length).toBe(sent);
    expect(new Set(received).size).toBe(sent);

    const ack = await new Promise((resolve) => socket!.emit("sendCommand", { deviceId: mac, type: "auto", value: { type: "auto", onOff: false, target: "AC" } }, resolve));
    expect(ack).toEqual({ ok: true });
  });
});
