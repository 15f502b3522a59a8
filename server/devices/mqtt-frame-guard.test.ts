import { describe, expect, it } from "vitest";
import { mqttFrameScanner } from "./mqtt-frame-guard.ts";
import { mqttFixedHeader } from "./mqtt-packet.fixture.ts";

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
