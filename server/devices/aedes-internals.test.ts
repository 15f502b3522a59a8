import { createRequire } from "node:module";
import { connect as netConnect, createServer, type Server, type Socket } from "node:net";
import { Aedes, type Client, type PublishPacket } from "aedes";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  aedesInternalsBroken,
  brokerReadAll,
  checkAedes,
  checkAedesClient,
  connectedClient,
  interceptPublishes,
  keepaliveRestarter,
  retainedMessages,
  type AedesPublish,
} from "./aedes-internals.ts";
import { sleep, until } from "../test-support/until.ts";

/** What each assertion checks, as the error the adapter itself would throw. */
const broken = (member: string, why: string) => aedesInternalsBroken(member, why).message;

/** The MQTT codec Aedes itself uses: raw packets for a client that does exactly what a test says. */
const mqttPacket = createRequire(createRequire(import.meta.url).resolve("aedes"))("mqtt-packet") as {
  generate(packet: object): Buffer;
};

/** The contract of aedes-internals.ts with the installed Aedes. */
describe("what the embedded broker relies on of Aedes", () => {
  let broker: Aedes;
  let server: Server;
  let url: string;
  let port: number;
  /** Publishes as the intercept saw them, with the id of the client that sent them (null: none). */
  const intercepted: { topic: string; clientId: string | null; hasDone: boolean }[] = [];
  let own: AedesPublish;

  beforeAll(async () => {
    broker = await Aedes.createBroker();
    own = interceptPublishes(broker, (publish) => (packet, client, done) => {
      if (packet.topic.startsWith("$SYS")) return publish(packet, client, done);
      intercepted.push({ topic: packet.topic, clientId: client?.id ?? null, hasDone: typeof done === "function" });
      // "dropped/…" is taken here, as the server takes telemetry: never routed.
      if (packet.topic.startsWith("dropped/")) return done?.();
      publish(packet, client, done);
    });
    server = createServer((socket) => broker.handle(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
    url = `mqtt://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A connected client of its own, with the broker's Client object for it. */
  async function connected(clientId: string, options: mqtt.IClientOptions = {}) {
    const joined = new Promise<Client>((resolve) => broker.on("client", (c) => c.id === clientId && resolve(c)));
    const client = await mqtt.connectAsync(url, { clientId, ...options });
    return { client, brokerClient: await joined };
  }

  it("a started broker and a connected client have every member the adapter checks", async () => {
    expect(() => checkAedes(broker)).not.toThrow();
    const { client, brokerClient } = await connected("check-1");
    expect(() => checkAedesClient(brokerClient)).not.toThrow();
    await client.endAsync();
  });

  it("names the library and the member when one is gone", () => {
    expect(() => checkAedes({ persistence: { createRetainedStream() {} }, publish(_packet: unknown, _client: unknown, _done: unknown) {} } as unknown as Aedes)).toThrow("Aedes no longer has `clients`");
    expect(() => checkAedesClient({} as Client)).toThrow("Aedes no longer has `_keepaliveTimer`");
  });

  it("`clients` holds each connected client by its client id, until it is gone", async () => {
    const { client, brokerClient } = await connected("by-id-1");
    expect(connectedClient(broker, "by-id-1"), broken("clients", "a connected client is not found by its id")).toBe(brokerClient);
    await client.endAsync();
    await until("the client to be gone", () => connectedClient(broker, "by-id-1") === undefined);
  });

  it("`_keepaliveTimer`: restarting it keeps a client that sends nothing connected past its keepalive", async () => {
    // Keepalive 1 s: Aedes closes the connection after 1.5 s without a packet.
    const rawClient = async (clientId: string) => {
      const socket: Socket = netConnect(port, "127.0.0.1");
      const joined = new Promise<Client>((resolve) => broker.on("client", (c) => c.id === clientId && resolve(c)));
      socket.write(mqttPacket.generate({ cmd: "connect", protocolId: "MQTT", protocolVersion: 4, clean: true, clientId, keepalive: 1 }));
      socket.resume(); // (the CONNACK read, so that the socket's close is seen)
      const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now())));
      return { socket, brokerClient: await joined, closed };
    };
    const kept = await rawClient("keepalive-kept");
    const left = await rawClient("keepalive-left");
    const restart = keepaliveRestarter(kept.brokerClient);
    const started = Date.now();
    let leftClosedAt = 0;
    let keptClosedAt = 0;
    void left.closed.then((t) => (leftClosedAt = t));
    void kept.closed.then((t) => (keptClosedAt = t));
    while (Date.now() - started < 2500) {
      restart();
      await sleep(250);
    }
    expect(leftClosedAt, "the control: a client that sends nothing is closed after its keepalive").toBeGreaterThan(0);
    expect(keptClosedAt, broken("_keepaliveTimer", "restarting it no longer keeps a quiet client connected")).toBe(0);
    kept.socket.destroy();
  });

  it("reads a connection in paused mode, so what it has yet to read is the socket's readable buffer", async () => {
    const { client, brokerClient } = await connected("paused-1");
    const conn = brokerClient.conn as Socket;
    expect(conn.listenerCount("data"), "Aedes no longer reads a connection in paused mode: it has a 'data' listener (the telemetry lane would overtake it)").toBe(0);
    expect(conn.readableFlowing, "Aedes no longer reads a connection in paused mode (the telemetry lane would overtake it)").not.toBe(true);
    await client.publishAsync("paused/x", "1", { qos: 1 });
    expect(brokerReadAll(conn), "Aedes left bytes it had read in the socket's readable buffer").toBe(true);
    await client.endAsync();
  });

  it("`publish(packet, client, done)`: every publish a client sends passes there, with the client; the broker's own publish routes it", async () => {
    const { client: subscriber } = await connected("sub-1");
    const heard: string[] = [];
    subscriber.on("message", (topic, payload) => heard.push(`${topic} ${payload.toString()}`));
    await subscriber.subscribeAsync(["routed/#", "dropped/#"], { qos: 1 });
    const { client: publisher } = await connected("pub-1");
    await publisher.publishAsync("dropped/a", "0", { qos: 0 });
    await publisher.publishAsync("dropped/b", "1", { qos: 1 });
    await publisher.publishAsync("routed/c", "1", { qos: 1 });
    await new Promise<void>((resolve, reject) => own({ cmd: "publish", topic: "routed/server", payload: Buffer.from("own"), qos: 1, retain: false, dup: false } as PublishPacket, null, (err) => (err ? reject(err) : resolve())));
    await until("the routed messages", () => heard.length === 2);
    const mine = intercepted.filter((p) => p.clientId === "pub-1");
    expect(mine, broken("publish(packet, client, done)", "a client's publish no longer passes through the broker's publish with its client")).toEqual([
      { topic: "dropped/a", clientId: "pub-1", hasDone: true },
      { topic: "dropped/b", clientId: "pub-1", hasDone: true },
      { topic: "routed/c", clientId: "pub-1", hasDone: true },
    ]);
    expect(heard.sort(), broken("publish(packet, client, done)", "the broker's own publish no longer routes a packet to its subscribers")).toEqual(["routed/c 1", "routed/server own"]);
    await Promise.all([publisher.endAsync(), subscriber.endAsync()]);
  });

  it("`publish(packet, client, done)`: a will passes there too, with the client that left it", async () => {
    const { client } = await connected("will-1", { will: { topic: "dropped/will", payload: Buffer.from("gone"), qos: 1, retain: false } });
    (client as unknown as { stream: Socket }).stream.destroy();
    await until("the will", () => intercepted.some((p) => p.topic === "dropped/will"));
    expect(intercepted.find((p) => p.topic === "dropped/will")?.clientId, broken("publish(packet, client, done)", "a will no longer passes through the broker's publish")).toBe("will-1");
    client.end(true);
  });

  it("`persistence.createRetainedStream`: gives the retained message of a topic", async () => {
    await new Promise<void>((resolve, reject) => own({ cmd: "publish", topic: "kept/status", payload: Buffer.from("online"), qos: 1, retain: true, dup: false } as PublishPacket, null, (err) => (err ? reject(err) : resolve())));
    const found: string[] = [];
    for await (const packet of retainedMessages(broker, "kept/status")) found.push(`${packet.topic} ${packet.payload.toString()}`);
    expect(found, broken("persistence.createRetainedStream", "the retained message of a topic is not streamed")).toEqual(["kept/status online"]);
  });
});
