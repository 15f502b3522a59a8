import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { mqttConnectionGuard, mqttFrameScanner, takeLeadingPublishes, type FastLane } from "./mqtt-frame-guard.ts";
import { mqttFixedHeader, mqttPublish as publish } from "../test-support/mqtt-packet.ts";

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

describe("the telemetry lane of a guarded connection", () => {
  const TOPIC = "devices/AA:BB:CC:DD:EE:01/telemetry";
  /** A socket whose reads are fed by hand (push), guarded, authenticated, with its lane. */
  const guarded = () => {
    const taken: string[] = [];
    const socket = new Socket();
    const guard = mqttConnectionGuard({ beforeAuthBytes: 4096, afterAuthBytes: 4096, unauthenticatedPerAddress: 10 });
    guard.admit(socket);
    guard.authenticated(socket);
    guard.lane(socket, { topic: Buffer.from(TOPIC), maxPayload: 1000, take: (chunk, start, end) => taken.push(chunk.toString("utf8", start, end)), heard: () => undefined });
    const toBroker = () => {
      const bytes: Buffer[] = [];
      for (let b: Buffer | null; (b = socket.read() as Buffer | null) !== null; ) bytes.push(b);
      return Buffer.concat(bytes);
    };
    return { socket, taken, toBroker };
  };

  it("takes a device's stream of publishes however its chunks cut them, none left to the broker", () => {
    const stream = Buffer.concat(Array.from({ length: 500 }, (_, i) => publish(TOPIC, `{"n":${i}}`)));
    for (const cut of [1, 2, 5, 64, 1000, 4096]) {
      const { socket, taken, toBroker } = guarded();
      for (let i = 0; i < stream.length; i += cut) socket.push(stream.subarray(i, i + cut));
      expect(taken.length, `cut ${cut}`).toBe(500);
      expect(taken.at(-1)).toBe('{"n":499}');
      expect(toBroker().length, `cut ${cut}`).toBe(0);
      socket.destroy();
    }
  });

  it("hands the broker, in order, what is not the lane's, and the lane goes on once the broker has it all", () => {
    const { socket, taken, toBroker } = guarded();
    const status = publish("devices/AA:BB:CC:DD:EE:01/status", "online", { qos: 1 });
    const first = Buffer.concat([publish(TOPIC, "1"), status, publish(TOPIC, "2")]);
    // Cut inside the last publish: the broker has the status first; the publish after it is its too.
    socket.push(first.subarray(0, first.length - 3));
    socket.push(first.subarray(first.length - 3));
    expect(taken).toEqual(["1"]);
    expect(toBroker().equals(first.subarray(publish(TOPIC, "1").length))).toBe(true);
    // The broker read everything: the next publishes are the lane's again, cut or not.
    const next = Buffer.concat([publish(TOPIC, "3"), publish(TOPIC, "4")]);
    socket.push(next.subarray(0, 5));
    socket.push(next.subarray(5));
    expect(taken).toEqual(["1", "3", "4"]);
    expect(toBroker().length).toBe(0);
    socket.destroy();
  });
});
