import { describe, expect, it } from "vitest";
import { mqttFrameScanner, takeLeadingPublishes, type FastLane } from "./mqtt-frame-guard.ts";
import { mqttFixedHeader, mqttPublish as publish } from "./mqtt-packet.fixture.ts";

/** An MQTT packet: type byte, remaining length (varint), body. */
const packet = (type: number, bodyLength: number): Buffer => Buffer.concat([mqttFixedHeader(type, bodyLength), Buffer.alloc(bodyLength, 1)]);

describe("the MQTT frame scanner", () => {
  it("follows packets across chunk boundaries, however they are cut", () => {
    const stream = Buffer.concat([packet(0x10, 40), packet(0x30, 300), packet(0xc0, 0), packet(0x30, 1000)]);
    for (const cut of [1, 2, 3, 7, 64, 1000, stream.length]) {
      const scanner = mqttFrameScanner(() => 1000);
      for (let i = 0; i < stream.length; i += cut) expect(scanner.scan(stream.subarray(i, i + cut)), `cut ${cut} at ${i}`).toBe(true);
    }
  });

  it("refuses a packet over the limit as soon as its length has arrived", () => {
    const scanner = mqttFrameScanner(() => 1000);
    expect(scanner.scan(packet(0x30, 1000))).toBe(true);
    expect(scanner.scan(packet(0x30, 1001).subarray(0, 3))).toBe(false);
  });

  it("refuses a remaining length longer than four bytes", () => {
    expect(mqttFrameScanner(() => Number.MAX_SAFE_INTEGER).scan(Buffer.from([0x10, 0xff, 0xff, 0xff, 0xff, 0x01]))).toBe(false);
  });

  it("applies the limit of the moment (before and after authentication)", () => {
    let limit = 100;
    const scanner = mqttFrameScanner(() => limit);
    expect(scanner.scan(packet(0x10, 100))).toBe(true);
    limit = 5000;
    expect(scanner.scan(packet(0x30, 4000))).toBe(true);
  });
});

describe("the telemetry lane's reading of publishes", () => {
  const TOPIC = "devices/AA:BB:CC:DD:EE:01/telemetry";
  const laneFor = (maxPayload = 1000) => {
    const taken: string[] = [];
    const lane: FastLane = { topic: Buffer.from(TOPIC), maxPayload, take: (chunk, start, end) => taken.push(chunk.toString("utf8", start, end)), heard: () => undefined };
    return { lane, taken };
  };

  it("takes every complete plain publish to its topic at the start of a chunk", () => {
    const { lane, taken } = laneFor();
    const chunk = Buffer.concat([publish(TOPIC, '{"a":1}'), publish(TOPIC, ""), publish(TOPIC, "x".repeat(300))]);
    expect(takeLeadingPublishes(chunk, lane)).toBe(chunk.length);
    expect(taken).toEqual(['{"a":1}', "", "x".repeat(300)]);
  });

  it("stops at the first packet that is anything else, and leaves it and the rest to the broker", () => {
    const first = publish(TOPIC, "1");
    const others = [
      publish("devices/AA:BB:CC:DD:EE:02/telemetry", "another device's"),
      publish("devices/AA:BB:CC:DD:EE:01/telemetr", "a shorter topic"),
      publish("devices/AA:BB:CC:DD:EE:01/status", "online"),
      publish(TOPIC, "retained", { flags: 1 }),
      publish(TOPIC, "dup", { flags: 8 }),
      publish(TOPIC, "qos 1", { qos: 1 }),
      Buffer.from([0xc0, 0x00]), // PINGREQ
      publish(TOPIC, "y".repeat(1001)), // over the payload limit
    ];
    for (const other of others) {
      const { lane, taken } = laneFor();
      expect(takeLeadingPublishes(Buffer.concat([first, other, publish(TOPIC, "after")]), lane), other.toString("hex").slice(0, 16)).toBe(first.length);
      expect(taken).toEqual(["1"]);
    }
  });

  it("takes nothing of a packet cut off by the chunk's end", () => {
    const whole = Buffer.concat([publish(TOPIC, "1"), publish(TOPIC, "z".repeat(200))]);
    for (let cut = publish(TOPIC, "1").length + 1; cut < whole.length; cut += 7) {
      const { lane, taken } = laneFor();
      expect(takeLeadingPublishes(whole.subarray(0, cut), lane)).toBe(publish(TOPIC, "1").length);
      expect(taken).toEqual(["1"]);
    }
  });

  it("takes nothing of a body too short for its topic or a length longer than four bytes", () => {
    const { lane, taken } = laneFor();
    expect(takeLeadingPublishes(Buffer.from([0x30, 0x01, 0x00]), lane)).toBe(0);
    expect(takeLeadingPublishes(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01, 0x00]), lane)).toBe(0);
    expect(taken).toEqual([]);
  });
});
