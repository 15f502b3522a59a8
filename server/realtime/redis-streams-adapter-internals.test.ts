import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdapter } from "@socket.io/redis-streams-adapter";
import { Redis } from "ioredis";
import { Server, type Socket } from "socket.io";
import { io as connect, type Socket as ClientSocket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkStreamsAdapter,
  encodePacket,
  forEachLocalSocket,
  interceptBroadcast,
  interceptEncode,
  interceptRawMessages,
  nodeUid,
  publishToStream,
  streamsAdapterInternalsBroken,
  type BroadcastOptions,
  type RawMessage,
  type StreamsAdapter,
} from "./redis-streams-adapter-internals.ts";
import { sleep, until } from "../test-support/until.ts";

const ready = Boolean(process.env.REDIS_URL);
if (process.env.CI && !ready) throw new Error("CI must provide Redis (REDIS_URL) for the Redis Streams adapter's contract test");

/** What each assertion checks, as the error the adapter itself would throw. */
const broken = (member: string, why: string) => streamsAdapterInternalsBroken(member, why).message;

/** Our message type for these tests (Socket.IO's own are 0-11). */
const OURS = 150;

/** The contract of redis-streams-adapter-internals.ts with the installed adapter and a real Redis. */
describe.skipIf(!ready)("what the shared adapter relies on of the Redis Streams adapter", () => {
  const stream = `test-adapter-internals-${process.pid}-${Date.now()}`;
  let redis: Redis;
  let admin: Redis;
  let http: HttpServer;
  let io: Server;
  let adapter: StreamsAdapter;
  let client: ClientSocket;
  let socket: Socket;
  /** Entries read from the stream as the adapter handed them over. */
  const read: { raw: RawMessage; offset: string }[] = [];
  const broadcasts: { packet: { data?: unknown[] }; opts: BroadcastOptions }[] = [];

  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL!);
    admin = new Redis(process.env.REDIS_URL!);
    http = createServer();
    io = new Server(http, { transports: ["websocket"], adapter: createAdapter(redis, { streamName: stream }) });
    adapter = io.of("/").adapter as unknown as StreamsAdapter;
    interceptEncode(adapter, (own) => (message) => (message.type === OURS ? { uid: message.uid, nsp: message.nsp, type: String(message.type), ours: JSON.stringify(message.data) } : own(message)));
    interceptRawMessages(adapter, (own) => (raw, offset) => {
      read.push({ raw, offset });
      return Number(raw.type) === OURS ? undefined : own(raw, offset);
    });
    interceptBroadcast(adapter, (own) => (packet, opts) => {
      broadcasts.push({ packet, opts });
      return own(packet, opts);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const arrived = new Promise<Socket>((resolve) => io.once("connection", resolve));
    client = connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ["websocket"] });
    socket = await arrived;
    await socket.join("room");
  });
  afterAll(async () => {
    client?.close();
    await io?.close();
    redis?.disconnect();
    await admin?.del(stream);
    admin?.disconnect();
  });

  it("an adapter has every member the shared adapter checks", () => {
    expect(() => checkStreamsAdapter(adapter)).not.toThrow();
  });

  it("names the library and the member when one is gone", () => {
    expect(() => checkStreamsAdapter({ uid: "node" } as unknown as StreamsAdapter)).toThrow("@socket.io/redis-streams-adapter no longer has `encoder`");
  });

  it("publishAndReturnOffset and encode: a message of ours goes into the stream as our encode gives it, with the node's uid; the offset is its entry's id", async () => {
    const offset = await publishToStream(adapter, { type: OURS, data: { n: 1 } });
    const [entry] = await admin.xrange(stream, offset, offset);
    expect(entry, broken("publishAndReturnOffset", "the offset it resolves with is not the id of the entry it added")).toBeDefined();
    const fields = Object.fromEntries(entry![1].reduce<[string, string][]>((pairs, v, i, all) => (i % 2 === 0 ? [...pairs, [v, all[i + 1]!]] : pairs), []));
    expect(fields, broken("encode", "a message added to the stream is not written as our encode gives it")).toEqual({ uid: nodeUid(adapter), nsp: "/", type: String(OURS), ours: '{"n":1}' });
    expect(typeof nodeUid(adapter), broken("uid", "the node has no id")).toBe("string");
  });

  it("onRawMessage: every entry read from the stream passes there with its fields and id, another node's and the node's own", async () => {
    const id = await admin.xadd(stream, "*", "uid", "another-node", "nsp", "/", "type", String(OURS), "ours", "{}");
    await until("the entry to be read", () => read.some((r) => r.offset === id));
    expect(read.find((r) => r.offset === id)?.raw, broken("onRawMessage", "an entry read from the stream is not handed over with its fields")).toEqual({ uid: "another-node", nsp: "/", type: String(OURS), ours: "{}" });
    const own = await publishToStream(adapter, { type: OURS, data: {} });
    await until("the node's own entry to be read back", () => read.some((r) => r.offset === own));
    expect(read.find((r) => r.offset === own)?.raw.uid, broken("onRawMessage", "the node's own entries are not read back with its uid")).toBe(nodeUid(adapter));
  });

  it("encoder: a packet encodes as the server encodes it for its sockets", () => {
    const packet = { type: 2, nsp: "/", data: ["event", { a: 1 }] };
    expect(encodePacket(adapter, packet), broken("encoder", "the adapter's encoder is not the server's")).toEqual(io.encoder.encode(packet));
  });

  it("apply: hands over the node's sockets a broadcast reaches, and only those", () => {
    const reached = (rooms: string[]) => {
      const ids: string[] = [];
      forEachLocalSocket(adapter, { rooms: new Set(rooms) }, (s) => ids.push(s.id));
      return ids;
    };
    expect(reached(["room"]), broken("apply", "a socket in the broadcast's room is not handed over")).toEqual([socket.id]);
    expect(reached(["elsewhere"]), broken("apply", "a socket outside the broadcast's rooms is handed over")).toEqual([]);
  });

  it("broadcast: a room's broadcast passes there with its packet and rooms, and the adapter's own still delivers it", async () => {
    const heard: unknown[] = [];
    client.on("news", (p: unknown) => heard.push(p));
    io.to("room").emit("news", { n: 2 });
    await until("the broadcast", () => heard.length === 1);
    const seen = broadcasts.find((b) => b.packet.data?.[0] === "news");
    expect(seen?.opts.rooms, broken("broadcast", "a room's broadcast does not pass through it")).toEqual(new Set(["room"]));
    expect(heard).toEqual([{ n: 2 }]);
  });
});
