import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { Server } from "socket.io";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachDeliveries, type Delivery } from "../devices/delivery.ts";
import { deliveredBy, FRAME, sharedAdapter, takePublished } from "./shared-adapter.ts";

const ready = Boolean(process.env.REDIS_URL);
if (process.env.CI && !ready) throw new Error("CI must provide Redis (REDIS_URL) for the shared adapter's test");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PRESENCE_MS = 100;

/**
 * The nodes' shared adapter: a frame of readings (volatile) goes to another node only while that
 * node has a socket of its client; everything else goes to every node; a browser gets the same
 * events as from Socket.IO's own adapter.
 */
describe.skipIf(!ready)("the nodes' shared Socket.IO adapter", () => {
  const stream = `test-adapter-${process.pid}-${Date.now()}`;
  const redises: Redis[] = [];
  const https: HttpServer[] = [];
  const nodes: Server[] = [];
  const sockets: Socket[] = [];
  let admin: Redis;
  /** Frames published to the stream so far, by room. */
  const framesTo = async (room: string) =>
    (await admin.xrange(`${stream}`, "-", "+")).filter(([, f]) => f[f.indexOf("type") + 1] === String(FRAME) && f[f.indexOf("rooms") + 1]!.includes(`"${room}"`)).length;

  beforeAll(async () => {
    admin = new Redis(process.env.REDIS_URL!);
    for (let i = 0; i < 2; i++) {
      const redis = new Redis(process.env.REDIS_URL!);
      redises.push(redis);
      const http = createServer();
      https.push(http);
      const node = new Server(http, { transports: ["websocket"], adapter: sharedAdapter(redis, { streamName: stream, announced: (r) => r.startsWith("client:"), presenceMs: PRESENCE_MS }) });
      node.on("connection", (s) => void s.join(String(s.handshake.query.room)));
      nodes.push(node);
      await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
    }
    // Each node reads the stream (its reader starts once its own Redis connection is up) ...
    for (const [from, to] of [[0, 1], [1, 0]] as const) {
      const probe = await open(to, `probe:${to}`);
      let heard = false;
      probe.on("probe", () => (heard = true));
      for (let i = 0; i < 250 && !heard; i++) {
        nodes[from]!.to(`probe:${to}`).emit("probe");
        await sleep(20);
      }
      probe.close();
      if (!heard) throw new Error(`node ${to} does not hear node ${from}`);
    }
    await sleep(2 * PRESENCE_MS); // ... and is past its start, when a node sends everything.
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const n of nodes) {
      n.engine.close();
      await n.of("/").adapter.close();
    }
    for (const h of https) h.close();
    await sleep(50); // a last announcement of the rooms the sockets left
    await admin.del(stream);
    for (const r of [...redises, admin]) r.disconnect();
  });

  function open(node: number, room: string) {
    const socket = connect(`http://127.0.0.1:${(https[node]!.address() as AddressInfo).port}`, { transports: ["websocket"], forceNew: true, reconnection: false, query: { room } });
    sockets.push(socket);
    return new Promise<Socket>((resolve, reject) => {
      socket.once("connect", () => resolve(socket));
      socket.once("connect_error", reject);
    });
  }

  it("keeps a frame of readings on its node while no other node has a socket of its client, and sends it once one has", async () => {
    nodes[1]!.to("client:1").volatile.emit("realtimeBatch", { data: [{ deviceId: "AA", payload: { temperature: 20 } }] });
    await sleep(PRESENCE_MS);
    expect(await framesTo("client:1")).toBe(0);

    const socket = await open(0, "client:1");
    const heard: unknown[] = [];
    socket.on("realtimeBatch", (b) => heard.push(b));
    // Node B hears of the socket within a moment; from then on its frames reach it, as sent.
    for (let i = 0; i < 150 && heard.length === 0; i++) {
      nodes[1]!.to("client:1").volatile.emit("realtimeBatch", { data: [{ deviceId: "AA", payload: { temperature: 21, note: "é ✓" } }] });
      await sleep(20);
    }
    expect(heard[0]).toEqual({ data: [{ deviceId: "AA", payload: { temperature: 21, note: "é ✓" } }] });
    expect(await framesTo("client:1")).toBeGreaterThan(0);

    // The socket leaves: node B stops sending the client's frames.
    socket.close();
    await sleep(3 * PRESENCE_MS);
    const before = await framesTo("client:1");
    nodes[1]!.to("client:1").volatile.emit("realtimeBatch", { data: [] });
    await sleep(PRESENCE_MS);
    expect(await framesTo("client:1")).toBe(before);
  });

  it("sends every other broadcast to every node, and a node's own sockets get its frames without the stream", async () => {
    const socketA = await open(0, "client:2");
    const socketB = await open(1, "client:2");
    const heardA: unknown[] = [];
    const heardB: unknown[] = [];
    socketA.on("deviceStatusUpdate", (s) => heardA.push(s));
    socketB.on("deviceStatusUpdate", (s) => heardB.push(s));
    nodes[1]!.to("client:2").emit("deviceStatusUpdate", { deviceId: "BB", status: "online" });
    await expect.poll(() => heardA.length).toBe(1);
    expect(heardB).toEqual([{ deviceId: "BB", status: "online" }]);
    expect(heardA).toEqual(heardB);

    nodes[1]!.to("client:3").emit("notification", { title: "nobody here" });
    await expect.poll(() => framesTo("client:3")).toBe(1);
  });

  it("drops a malformed message and goes on reading the stream", async () => {
    const socket = await open(0, "client:4");
    const heard: unknown[] = [];
    socket.on("deviceStatusUpdate", (s) => heard.push(s));
    await admin.xadd(stream, "*", "uid", "another-node", "nsp", "/", "type", String(FRAME), "rooms", "not json", "except", "[]", "flags", "{}", "text", "2[]");
    nodes[1]!.to("client:4").emit("deviceStatusUpdate", { deviceId: "CC", status: "online" });
    await expect.poll(() => heard).toEqual([{ deviceId: "CC", status: "online" }]);
  });

  it("names the packet ids of a frame's QoS 1 readings in the stream, and the write can be awaited", async () => {
    const socket = await open(0, "client:5");
    const heard: unknown[] = [];
    socket.on("realtimeBatch", (b) => heard.push(b));
    const delivery = (session: string, packetId: number): Delivery => ({ session, packetId, settle: () => {} });
    // Node B sends (once it heard of the socket) a frame of readings from two MQTT sessions.
    for (let i = 0; i < 150 && heard.length === 0; i++) {
      const payload = { data: [{ deviceId: "DD", payload: { co2: i } }] };
      attachDeliveries(payload, [delivery("server-b", 10 + i), delivery("server-b", 20000 + i), delivery("server-x", 7)]);
      nodes[1]!.to("client:5").volatile.emit("realtimeBatch", payload);
      const published = takePublished(nodes[1]!.of("/").adapter);
      if (published) await published;
      await sleep(20);
    }
    // The browser gets the payload without them.
    expect(heard[0]).toEqual({ data: [{ deviceId: "DD", payload: { co2: expect.any(Number) } }] });
    const ids = await deliveredBy(admin, stream, "server-b");
    const i = (heard[0] as { data: { payload: { co2: number } }[] }).data[0]!.payload.co2;
    expect(ids.has(10 + i) && ids.has(20000 + i)).toBe(true);
    expect(ids.has(7)).toBe(false);
    expect([...(await deliveredBy(admin, stream, "server-x"))]).toEqual([7]);
    expect(takePublished(nodes[1]!.of("/").adapter)).toBeUndefined();
  });
});
