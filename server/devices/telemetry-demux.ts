import { MAX_DEVICE_PAYLOAD_BYTES } from "../../src/contract/mqtt.ts";
import { packetExtent as extent } from "./mqtt-frame-guard.ts";
const PREFIX = Buffer.from("devices/");
const SUFFIX = Buffer.from("/telemetry");
/** `devices/` + `AA:BB:CC:DD:EE:FF` + `/telemetry`. */
const TOPIC_LENGTH = PREFIX.length + 17 + SUFFIX.length;
const HEX = /^[0-9A-F]{2}(?::[0-9A-F]{2}){5}$/;

/**
 * A device's telemetry as the demultiplexer hands it over: the payload is `bytes[start, end)`;
 * `packetId` is 0 for a QoS 0 publish, else the QoS 1 publish's id (the client must acknowledge
 * it), with `dup` set when the broker sends it again.
 */
export type DemuxedTelemetry = (mac: string, bytes: Buffer, start: number, end: number, packetId: number, dup: boolean) => void;

/**
 * Splits the byte stream an MQTT client reads from its broker (MQTT 3.1.1, or 5 with `v5`):
 * telemetry publishes (QoS 0 or 1, not retained, `devices/{MAC}/telemetry`, payload within the
 * device limit) go to `telemetry`; every other packet is handed on whole, in order, with `pass`
 * (to the MQTT client's own parser). A packet cut across chunks is held until it is whole.
 * Returns the function that takes each chunk read.
 *
 * A QoS 1 or 2 publish with packet id 0 is a protocol error (MQTT 3.1.1 §2.3.1, MQTT 5 §2.2.1):
 * it is neither taken nor handed on, nor is anything after it; `protocolError` is told (the
 * caller closes the connection).
 *
 * The gateway's subscription to every device's telemetry brings one node thousands of these a
 * second; the MQTT client would parse each into objects (and log it to a disabled debug logger)
 * only to hand over its topic and payload.
 */
export function telemetryDemux(
  telemetry: DemuxedTelemetry,
  pass: (bytes: Buffer) => void,
  { v5 = false, protocolError = () => {} }: { v5?: boolean; protocolError?: (why: string) => void } = {},
): (chunk: Buffer) => void {
  /** The start of a packet the chunks so far hold only part of. */
  let partial: Buffer | null = null;
  /** A malformed length was read: from there on, everything goes to the client's parser as it is. */
  let broken = false;
  /** A protocol error was read: nothing more is taken or handed on. */
  let refused = false;

  /** What `telemetryMac` read besides the MAC (no object per message). */
  let start = 0;
  let packetId = 0;
  let dup = false;

  /**
   * The MAC of the telemetry publish in `buf[at, end)` (its body at `body`), its payload's start,
   * packet id and DUP flag left in `start`, `packetId` and `dup`; undefined for another packet;
   * null for a QoS 1 or 2 publish with packet id 0. Type byte: PUBLISH (3), QoS 0 or 1, DUP only
   * with QoS 1, never RETAIN.
   */
  function telemetryMac(buf: Buffer, at: number, body: number, end: number): string | undefined | null {
    const type = buf[at]!;
    if ((type & 0xf6) === 0x32 || (type & 0xf6) === 0x34) {
      // Its packet id follows the topic.
      const id = end - body >= 2 ? body + 2 + buf.readUInt16BE(body) : end;
      if (id + 2 <= end && buf.readUInt16BE(id) === 0) return null;
    }
    const qos1 = type === 0x32 || type === 0x3a;
    if (type !== 0x30 && !qos1) return undefined;
    if (end - body < 2 + TOPIC_LENGTH + (qos1 ? 2 : 0) || buf.readUInt16BE(body) !== TOPIC_LENGTH) return undefined;
    const topic = body + 2;
    if (PREFIX.compare(buf, topic, topic + PREFIX.length) !== 0) return undefined;
    if (SUFFIX.compare(buf, topic + TOPIC_LENGTH - SUFFIX.length, topic + TOPIC_LENGTH) !== 0) return undefined;
    start = topic + TOPIC_LENGTH;
    packetId = qos1 ? buf.readUInt16BE(start) : 0;
    dup = type === 0x3a;
    if (qos1) start += 2;
    if (v5) {
      // The properties: their length (a variable byte integer, read as a packet's remaining length is), skipped.
      if (start >= end) return undefined;
      if (buf[start] === 0) start++;
      else {
        const props = extent(buf, start - 1);
        if (!props || props.end > end) return undefined;
        start = props.end;
      }
    }
    if (end - start > MAX_DEVICE_PAYLOAD_BYTES) return undefined;
    const mac = buf.toString("latin1", topic + PREFIX.length, topic + PREFIX.length + 17);
    return HEX.test(mac) ? mac : undefined;
  }

  /** Everything from here on goes to the client's parser as it is: it reports the malformed packet. */
  function breakOff(...rest: Buffer[]): void {
    broken = true;
    for (const bytes of rest) if (bytes.length > 0) pass(bytes);
  }

  /** Stops at a protocol error (the packets before it were handed over). */
  function refuse(): void {
    refused = true;
    partial = null;
    protocolError("a QoS 1 or 2 publish with packet id 0");
  }

  return (chunk) => {
    if (refused) return;
    if (broken) return pass(chunk);
    if (partial) {
      // The held packet, completed with only the bytes of this chunk it still needs.
      let head = partial;
      let x = extent(head, 0);
      if (x === undefined) {
        head = Buffer.concat([partial, chunk.subarray(0, 5)]);
        x = extent(head, 0);
      }
      if (x === null) return breakOff(partial, chunk);
      if (x === undefined || x.end > partial.length + chunk.length) {
        partial = Buffer.concat([partial, chunk]);
        return;
      }
      const needed = x.end - partial.length;
      const whole = Buffer.concat([partial, chunk.subarray(0, needed)]);
      partial = null;
      const mac = telemetryMac(whole, 0, x.body, x.end);
      if (mac === null) return refuse();
      if (mac !== undefined) telemetry(mac, whole, start, x.end, packetId, dup);
      else pass(whole);
      chunk = chunk.subarray(needed);
    }
    let at = 0;
    /** Where the run of packets to pass on, not yet passed, starts. */
    let passFrom = 0;
    while (at < chunk.length) {
      const x = extent(chunk, at);
      if (x === null) return breakOff(chunk.subarray(passFrom));
      if (x === undefined || x.end > chunk.length) break;
      const mac = telemetryMac(chunk, at, x.body, x.end);
      if (mac === null) {
        if (passFrom < at) pass(chunk.subarray(passFrom, at));
        return refuse();
      }
      if (mac !== undefined) {
        if (passFrom < at) pass(chunk.subarray(passFrom, at));
        passFrom = x.end;
        telemetry(mac, chunk, start, x.end, packetId, dup);
      }
      at = x.end;
    }
    if (passFrom < at) pass(chunk.subarray(passFrom, at));
    if (at < chunk.length) partial = Buffer.from(chunk.subarray(at));
  };
}
