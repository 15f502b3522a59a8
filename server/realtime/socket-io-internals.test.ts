import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server, type Socket } from "socket.io";
import { io as connect, type Socket as ClientSocket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkSocketIoParser,
  checkSocketIoSocket,
  encodeAsString,
  engineBacklog,
  interceptEngineWrites,
  socketIoInternalsBroken,
  socketIoParser,
  writePreEncoded,
  type EngineWriteOptions,
} from "./socket-io-internals.ts";
import { sleep, until } from "../test-support/until.ts";

/** What each assertion checks, as the error the adapter itself would throw. */
const broken = (library: string, member: string, why: string) => socketIoInternalsBroken(library, member, why).message;

/** The contract of socket-io-internals.ts with the installed Socket.IO, engine.io and socket.io-parser. */
describe("what the realtime server relies on of Socket.IO", () => {
  let http: HttpServer;
  let io: Server;
  let url: string;
  const clients: ClientSocket[] = [];

  beforeAll(async () => {
    http = createServer();
    io = new Server(http, { transports: ["websocket"] });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await io.close();
  });

  /** A browser's socket, and the server's socket for it (before anything is written to it). */
  async function connected(setUp: (socket: Socket) => void = () => {}): Promise<{ client: ClientSocket; socket: Socket }> {
    const arrived = new Promise<Socket>((resolve) =>
      io.once("connection", (socket) => {
        setUp(socket);
        resolve(socket);
      }),
    );
    const client = connect(url, { transports: ["websocket"], forceNew: true });
    clients.push(client);
    const socket = await arrived;
    await new Promise<void>((resolve) => (client.connected ? resolve() : client.once("connect", () => resolve())));
    return { client, socket };
  }

  it("socket.io-parser: the copy this file loads is the one Socket.IO encodes with, and its Encoder has encodeAsString", () => {
    expect(() => checkSocketIoParser()).not.toThrow();
    expect(io.encoder, broken("socket.io-parser", "Encoder", "Socket.IO encodes with another copy of the parser than the one this file loads")).toBeInstanceOf(socketIoParser.Encoder);
  });

  it("socket.io-parser: encodeAsString gives the same text as encode, for a packet without binary", () => {
    const encoder = new socketIoParser.Encoder();
    const packet = { type: socketIoParser.PacketType.EVENT, nsp: "/", data: ["realtimeData", { deviceId: "AA", payload: { t: 21.5, on: true, s: "x" } }] };
    expect(encodeAsString(encoder, packet), broken("socket.io-parser", "Encoder.encodeAsString", "it no longer gives the text encode gives")).toBe(encoder.encode(packet)[0]);
  });

  it("names the library and the member when one is gone", () => {
    expect(() => checkSocketIoSocket({ client: {}, conn: { writeBuffer: [] } } as unknown as Socket)).toThrow("Socket.IO no longer has `writeToEngine`");
    expect(() => checkSocketIoSocket({ client: { writeToEngine() {} }, conn: {} } as unknown as Socket)).toThrow("engine.io no longer has `writeBuffer`");
  });

  it("writeToEngine: every packet for a socket passes there, its own emits and its rooms' broadcasts, volatile ones marked; what it does not write never arrives", async () => {
    const writes: EngineWriteOptions[] = [];
    const { client, socket } = await connected((socket) => {
      expect(() => checkSocketIoSocket(socket)).not.toThrow();
      interceptEngineWrites(socket, (write) => (packets, opts) => {
        writes.push(opts);
        if (typeof packets === "object" && JSON.stringify(packets).includes("dropped")) return;
        // (Socket.IO's own would drop a volatile packet while the transport is mid-write, as it is here.)
        write(packets, { ...opts, volatile: false });
      });
    });
    const heard: string[] = [];
    client.onAny((event: string) => heard.push(event));
    await socket.join("room");
    socket.emit("own");
    io.to("room").emit("broadcast");
    io.to("room").volatile.emit("volatile");
    socket.emit("dropped");
    socket.emit("last");
    await until("the last event", () => heard.includes("last"));
    expect(heard, broken("Socket.IO", "writeToEngine", "what it did not write still arrived, or what it wrote did not")).toEqual(["own", "broadcast", "volatile", "last"]);
    expect(
      writes.map((o) => Boolean(o.volatile)),
      broken("Socket.IO", "writeToEngine", "not every packet for the socket passes through it, or a volatile one is not marked"),
    ).toEqual([false, false, true, false, false]);
  });

  it("writeBuffer: holds the packets written while the transport is busy", async () => {
    const { client, socket } = await connected();
    const heard: string[] = [];
    client.onAny((event: string) => heard.push(event));
    expect(engineBacklog(socket)).toBe(0);
    // The first goes to the websocket at once; the transport is busy until it is sent, and the rest wait.
    for (let i = 0; i < 5; i++) socket.emit(`e${i}`);
    expect(engineBacklog(socket), broken("engine.io", "writeBuffer", "packets written while the transport is busy are not there")).toBeGreaterThan(0);
    await until("every event", () => heard.length === 5);
    expect(engineBacklog(socket), broken("engine.io", "writeBuffer", "packets already written are still there")).toBe(0);
  });

  it("writeToEngine with a pre-encoded packet: the browser gets the event", async () => {
    const { client, socket } = await connected();
    const heard: unknown[] = [];
    client.on("preEncoded", (payload: unknown) => heard.push(payload));
    const [text] = io.encoder.encode({ type: socketIoParser.PacketType.EVENT, nsp: "/", data: ["preEncoded", { n: 1 }] });
    writePreEncoded(socket, text as string, { preEncoded: true });
    await until("the event", () => heard.length === 1);
    expect(heard, broken("Socket.IO", "writeToEngine", "a pre-encoded packet written there did not arrive as its event")).toEqual([{ n: 1 }]);
  });
});
