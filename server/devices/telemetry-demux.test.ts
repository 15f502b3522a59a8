import { describe, expect, it } from "vitest";
import { mqttFixedHeader, mqttPublish } from "../test-support/mqtt-packet.ts";
import { telemetryDemux } from "./telemetry-demux.ts";

const MAC = "AA:BB:CC:DD:EE:01";
const telemetry = (mac: string, body: string) => mqttPublish(`devices/${mac}/telemetry`, body);

/** Feeds `stream` cut every `cut` bytes; what went to the lane and the bytes handed on. */
function run(stream: Buffer, cut: number) {
  const taken: string[] = [];
  const passed: Buffer[] = [];
  const feed = telemetryDemux(
    (mac, bytes, start, end) => taken.push(`${mac} ${bytes.toString("utf8", start, end)}`),
    (bytes) => passed.push(Buffer.from(bytes)),
  );
  for (let i = 0; i < stream.length; i += cut) feed(stream.subarray(i, i + cut));
  return { taken, passed: Buffer.concat(passed) };
}

describe("the MQTT client's telemetry demultiplexer", () => {
  const others = [
    Buffer.from([0x20, 0x02, 0x00, 0x00]), // CONNACK
    Buffer.concat([mqttFixedHeader(0x90, 3), Buffer.from([0x00, 0x01, 0x00])]), // SUBACK
    mqttPublish(`devices/${MAC}/status`, "online", { qos: 1 }),
    mqttPublish(`devices/${MAC}/telemetry`, '{"retained":true}', { flags: 1 }),
    mqttPublish(`devices/${MAC}/command/ack`, '{"id":"1","ok":true}', { qos: 1 }),
    mqttPublish("devices/aa:bb:cc:dd:ee:01/telemetry", "lower-case MAC"),
    mqttPublish("devices/AA:BB:CC:DD:EE:0/telemetryx", "same length, not a MAC"),
    mqttPublish(`devices/${MAC}/telemetry`, "y".repeat(16 * 1024 + 1)),
    Buffer.from([0xd0, 0x00]), // PINGRESP
  ];
  const lane = [telemetry(MAC, '{"a":1}'), telemetry("AA:BB:CC:DD:EE:02", '{"b":2}'), telemetry(MAC, "z".repeat(300))];
  // Interleaved: lane, other, lane, other …
  const stream = Buffer.concat(others.flatMap((o, i) => [lane[i % lane.length]!, o]));

  it("takes the plain telemetry publishes and hands every other packet on whole and in order, however the stream is cut", () => {
    const expectedTaken = others.map((_, i) => [`${MAC} {"a":1}`, `AA:BB:CC:DD:EE:02 {"b":2}`, `${MAC} ${"z".repeat(300)}`][i % 3]);
    for (const cut of [1, 2, 3, 5, 17, 64, 1000, 4096, stream.length]) {
      const { taken, passed } = run(stream, cut);
      expect(taken, `cut ${cut}`).toEqual(expectedTaken);
      expect(passed.equals(Buffer.concat(others)), `cut ${cut}`).toBe(true);
    }
  });

  it("takes QoS 1 telemetry with its packet id and DUP flag, and MQTT 5 publishes past their properties", () => {
    const got: string[] = [];
    const feed = (v5: boolean) =>
      telemetryDemux(
        (mac, bytes, start, end, packetId, dup) => got.push(`${mac} ${bytes.toString("utf8", start, end)} ${packetId} ${dup}`),
        (bytes) => got.push(`passed ${bytes.length}`),
        { v5 },
      );
    const v4 = feed(false);
    v4(mqttPublish(`devices/${MAC}/telemetry`, '{"q":1}', { qos: 1 }));
    v4(mqttPublish(`devices/${MAC}/telemetry`, '{"q":1}', { qos: 1, flags: 8 }));
    // QoS 2 is not for the lane.
    v4(mqttPublish(`devices/${MAC}/telemetry`, '{"q":2}', { qos: 2 }));
    expect(got).toEqual([`${MAC} {"q":1} 7 false`, `${MAC} {"q":1} 7 true`, `passed ${mqttPublish(`devices/${MAC}/telemetry`, '{"q":2}', { qos: 2 }).length}`]);

    got.length = 0;
    const v5 = feed(true);
    const topic = Buffer.from(`devices/${MAC}/telemetry`);
    const publish5 = (type: number, id: number[], props: number[], payload: string) => {
      const body = Buffer.concat([Buffer.from([0, topic.length]), topic, Buffer.from(id), Buffer.from(props), Buffer.from(payload)]);
      return Buffer.concat([mqttFixedHeader(type, body.length), body]);
    };
    // QoS 0 without properties; QoS 1 (DUP) with a message expiry property (0x02, 4 bytes).
    v5(Buffer.concat([publish5(0x30, [], [0], '{"v":5}'), publish5(0x3a, [0x12, 0x34], [5, 0x02, 0, 0, 0, 60], '{"v":6}')]));
    expect(got).toEqual([`${MAC} {"v":5} 0 false`, `${MAC} {"v":6} ${0x1234} true`]);
  });

  it("refuses a QoS 1 publish with packet id 0 (a protocol error): neither it nor anything after it is taken or handed on", () => {
    const status = mqttPublish(`devices/${MAC}/status`, "online", { qos: 1 });
    for (const zero of [mqttPublish(`devices/${MAC}/telemetry`, '{"id":0}', { qos: 1, packetId: 0 }), mqttPublish(`devices/${MAC}/status`, "online", { qos: 1, packetId: 0 })]) {
      const stream = Buffer.concat([telemetry(MAC, "1"), status, zero, telemetry(MAC, "2"), status]);
      for (const cut of [1, 2, 3, 7, 1000]) {
        const errors: string[] = [];
        const taken: string[] = [];
        const passed: Buffer[] = [];
        const feed = telemetryDemux(
          (mac, bytes, start, end) => taken.push(`${mac} ${bytes.toString("utf8", start, end)}`),
          (bytes) => passed.push(Buffer.from(bytes)),
          { protocolError: (why) => errors.push(why) },
        );
        for (let i = 0; i < stream.length; i += cut) feed(stream.subarray(i, i + cut));
        expect(taken, `cut ${cut}`).toEqual([`${MAC} 1`]);
        expect(Buffer.concat(passed).equals(status), `cut ${cut}`).toBe(true);
        expect(errors, `cut ${cut}`).toEqual(["a QoS 1 or 2 publish with packet id 0"]);
      }
    }
  });

  it("hands everything on as it is after a malformed length", () => {
    const bad = Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01, 0x00]);
    for (const cut of [1, 2, 3, 7, 1000]) {
      const { taken, passed } = run(Buffer.concat([telemetry(MAC, "1"), bad, telemetry(MAC, "2")]), cut);
      expect(taken, `cut ${cut}`).toEqual([`${MAC} 1`]);
      expect(passed.equals(Buffer.concat([bad, telemetry(MAC, "2")])), `cut ${cut}`).toBe(true);
    }
  });
});
