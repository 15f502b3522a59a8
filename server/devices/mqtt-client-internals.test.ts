import { createRequire } from "node:module";
import { connect as netConnect, createServer, type Server, type Socket } from "node:net";
import { Aedes, type PublishPacket } from "aedes";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkMqttClient, mqttClientInternalsBroken, mqttClientOver, pubacks } from "./mqtt-client-internals.ts";
import { interceptReads } from "./node-socket-internals.ts";
import { sleep, until } from "../test-support/until.ts";

/** What each assertion checks, as the error the adapter itself would throw. */
const broken = (member: string, why: string) => mqttClientInternalsBroken(member, why).message;

/** The MQTT codec mqtt.js itself parses its broker's packets with. */
const mqttPacket = createRequire(createRequire(import.meta.url).resolve("mqtt"))("mqtt-packet") as {
  parser(o: { protocolVersion: number }): { on(event: "packet", fn: (p: { cmd: string; messageId?: number; reasonCode?: number }) => void): void; parse(b: Buffer): void };
};

/** The contract of mqtt-client-internals.ts with the installed mqtt.js (and a real broker). */
describe("what the gateway's MQTT client relies on of mqtt.js", () => {
  let broker: Aedes;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    broker = await Aedes.createBroker();
    server = createServer((socket) => broker.handle(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("the client is built from a stream builder", () => {
    expect(() => checkMqttClient()).not.toThrow();
  });

  it("its parser reads the PUBACKs the gateway writes, in MQTT 3.1.1 and 5", () => {
    for (const protocolVersion of [4, 5]) {
      const parsed: { cmd: string; messageId?: number; reasonCode?: number }[] = [];
      const parser = mqttPacket.parser({ protocolVersion });
      parser.on("packet", (p) => parsed.push({ cmd: p.cmd, messageId: p.messageId, ...(protocolVersion === 5 ? { reasonCode: p.reasonCode } : {}) }));
      parser.parse(pubacks([1, 7, 65535]));
      const ok = protocolVersion === 5 ? { reasonCode: 0 } : {};
      expect(parsed, `MQTT ${protocolVersion}: mqtt-packet no longer reads the gateway's PUBACK bytes as PUBACKs (server/devices/mqtt-client-internals.ts)`).toEqual([
        { cmd: "puback", messageId: 1, ...ok },
        { cmd: "puback", messageId: 7, ...ok },
        { cmd: "puback", messageId: 65535, ...ok },
      ]);
    }
  });

  it("reads its broker through the builder's socket: a QoS 1 publish taken from it is never seen by the client, and the PUBACK written beside its own packets is the broker's acknowledgement", async () => {
    const acked: number[] = [];
    broker.on("ack", (packet) => packet && "messageId" in packet && acked.push((packet as PublishPacket).messageId!));
    const received: PublishPacket[] = [];
    broker.on("publish", (packet, client) => client?.id === "lane-client" && received.push(packet));
    let socket: Socket | undefined;
    const taken: number[] = [];
    const client = mqttClientOver(
      () => {
        socket = netConnect(port, "127.0.0.1");
        interceptReads(socket, (push) => (chunk, encoding) => {
          // A whole QoS 1 PUBLISH to "lane" (type 0x32, a one-byte remaining length): taken here.
          if (Buffer.isBuffer(chunk) && chunk[0] === 0x32 && chunk.length === 2 + chunk[1]! && chunk.toString("latin1", 4, 8) === "lane") {
            taken.push(chunk.readUInt16BE(8));
            return true;
          }
          return push(chunk, encoding);
        });
        return socket;
      },
      // A kept session, as the gateway's: the broker holds the publish until it is acknowledged, and its 'ack' event names it.
      { clientId: "lane-client", protocolVersion: 4, clean: false, reconnectPeriod: 0 },
    );
    const heard: string[] = [];
    client.on("message", (topic) => heard.push(topic));
    await new Promise<void>((resolve, reject) => {
      client.once("connect", () => resolve());
      client.once("error", reject);
    });
    await client.subscribeAsync("lane", { qos: 1 });
    const publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: "lane-publisher" });
    await publisher.publishAsync("lane", "reading", { qos: 1 });
    await until("the publish to be taken", () => taken.length === 1);
    // The PUBACK goes out between the client's own publishes (written in one turn of the loop).
    setImmediate(() => socket!.write(pubacks(taken)));
    for (let i = 0; i < 20; i++) client.publish("from-client", String(i), { qos: 0 });
    await until("the broker's acknowledgement", () => acked.length === 1);
    await until("the client's publishes", () => received.filter((p) => p.topic === "from-client").length === 20);
    expect(acked, broken("MqttClient(streamBuilder, options)", "the broker did not take the gateway's PUBACK written beside the client's packets")).toEqual(taken);
    expect(heard, broken("MqttClient(streamBuilder, options)", "the client saw a publish taken from its socket")).toEqual([]);
    await Promise.all([client.endAsync(), publisher.endAsync()]);
  });
});
