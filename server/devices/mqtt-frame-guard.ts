import type { Socket } from "node:net";
import { brokerReadAll } from "./aedes-internals.ts";
import { interceptReads } from "./node-socket-internals.ts";

export interface MqttConnectionLimits {
  /** The largest MQTT packet before the connection has authenticated (a CONNECT is small). */
  beforeAuthBytes: number;
  /** The largest packet after it (a device's biggest publish, with its topic). */
  afterAuthBytes: number;
  /** Connections one address may hold open before they authenticate. */
  unauthenticatedPerAddress: number;
}

/**
 * Reads the framing of an MQTT byte stream (each packet's fixed header and remaining length,
 * skipping its body) and says when a packet is larger than allowed, as soon as its header has
 * arrived: the broker's parser would otherwise buffer the whole packet first, whatever it
 * declares (12 CONNECTs of 200 MB each, without credentials, once grew the server by 760 MiB).
 */
export function mqttFrameScanner(limitOf: () => number) {
  let skip = 0;
  let inLength = false;
  let length = 0;
  let multiplier = 1;
  let lengthBytes = 0;
  return {
    /** True when the next byte starts a packet (no packet is cut across the chunks so far). */
    atBoundary: () => skip === 0 && !inLength,
    /** False once a packet is over the limit or its length is malformed: close the connection. */
    scan(chunk: Buffer): boolean {
      let i = 0;
      while (i < chunk.length) {
        if (skip > 0) {
          const n = Math.min(skip, chunk.length - i);
          skip -= n;
          i += n;
          continue;
        }
        const byte = chunk[i++]!;
        if (!inLength) {
          // The packet type and flags; the remaining length follows.
          inLength = true;
          length = 0;
          multiplier = 1;
          lengthBytes = 0;
          continue;
        }
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        lengthBytes++;
        if (byte & 0x80) {
          if (lengthBytes >= 4) return false;
          continue;
        }
        inLength = false;
        if (length > limitOf()) return false;
        skip = length;
      }
      return true;
    },
  };
}

/**
 * A connection's way around the broker for its plainest publishes: QoS 0, not retained, to
 * exactly `topic` (an MQTT 3.1.1 PUBLISH: no properties), payload at most `maxPayload` bytes.
 */
export interface FastLane {
  topic: Buffer;
  maxPayload: number;
  /** Takes one payload: `chunk[start, end)` (the socket's chunk: copy what must be kept). */
  take(chunk: Buffer, start: number, end: number): void;
  /** The connection was heard from (its keepalive starts again). */
  heard(): void;
}

/** PUBLISH, QoS 0, no DUP, no RETAIN. */
export const PLAIN_PUBLISH = 0x30;

/**
 * Where the MQTT packet starting at `buf[at]` ends and its body (after the remaining length)
 * starts: undefined while its header is cut off by the end of `buf`, null when its remaining
 * length is malformed (more than 4 bytes). `end` may lie beyond `buf`.
 */
export function packetExtent(buf: Buffer, at: number): { body: number; end: number } | undefined | null {
  let i = at + 1;
  let length = 0;
  let multiplier = 1;
  let byte = 0x80;
  for (let n = 0; byte & 0x80; n++) {
    if (n === 4) return null;
    if (i >= buf.length) return undefined;
    byte = buf[i++]!;
    length += (byte & 0x7f) * multiplier;
    multiplier *= 128;
  }
  return { body: i, end: i + length };
}

/** Whether the packet starting `buf` goes on past its end. */
function cutShort(buf: Buffer): boolean {
  const x = packetExtent(buf, 0);
  return x === undefined || (x !== null && x.end > buf.length);
}

/**
 * The length of the complete plain publishes to `lane.topic` at the start of `chunk` (which
 * starts at a packet boundary), handing each payload to the lane; 0 when the first packet is
 * anything else, or is cut off by the chunk's end.
 */
export function takeLeadingPublishes(chunk: Buffer, lane: FastLane): number {
  const topic = lane.topic;
  let at = 0;
  while (at < chunk.length && chunk[at] === PLAIN_PUBLISH) {
    const x = packetExtent(chunk, at);
    if (!x) return at;
    const { body: i, end } = x;
    if (end > chunk.length || end - i < 2 + topic.length) return at;
    if (chunk.readUInt16BE(i) !== topic.length || topic.compare(chunk, i + 2, i + 2 + topic.length) !== 0) return at;
    const start = i + 2 + topic.length;
    if (end - start > lane.maxPayload) return at;
    lane.take(chunk, start, end);
    at = end;
  }
  return at;
}

/**
 * Guards the sockets of an MQTT listener: packets are size-checked as they arrive (tighter before
 * the connection has authenticated), and an address may hold only so many connections that have
 * not authenticated yet. `authenticated(socket)` lifts a socket to the after-auth limit;
 * `lane(socket, lane)` gives a connected device's socket its telemetry lane.
 */
export function mqttConnectionGuard(limits: MqttConnectionLimits, log?: (msg: string) => void) {
  const authed = new WeakSet<Socket>();
  const lanes = new WeakMap<Socket, FastLane>();
  const pendingByAddress = new Map<string, number>();
  const pendingSockets = new WeakSet<Socket>();

  function settle(socket: Socket) {
    if (!pendingSockets.has(socket)) return;
    pendingSockets.delete(socket);
    const address = socket.remoteAddress ?? "";
    const left = (pendingByAddress.get(address) ?? 1) - 1;
    if (left > 0) pendingByAddress.set(address, left);
    else pendingByAddress.delete(address);
  }

  return {
    /** Takes a new socket; false when it was refused (and destroyed). */
    admit(socket: Socket): boolean {
      const address = socket.remoteAddress ?? "";
      const pending = pendingByAddress.get(address) ?? 0;
      if (pending >= limits.unauthenticatedPerAddress) {
        socket.destroy();
        return false;
      }
      pendingByAddress.set(address, pending + 1);
      pendingSockets.add(socket);
      socket.once("close", () => settle(socket));
      const scanner = mqttFrameScanner(() => (authed.has(socket) ? limits.afterAuthBytes : limits.beforeAuthBytes));
      /**
       * The start of a plain publish the lane's last chunk ended in, kept from the broker until its
       * rest arrives: a device sending fast fills every chunk, and each ends inside a publish; left
       * to the broker, that publish and every chunk after it would be parsed there, one object per
       * message, the lane never clear again.
       */
      let held: Buffer | null = null;
      // Every chunk the socket reads passes through push(): scanned there, before the broker's
      // parser buffers it.
      interceptReads(socket, (push) => (chunk, encoding) => {
        if (!Buffer.isBuffer(chunk)) return push(chunk, encoding);
        // Whether the broker has all earlier bytes (the lane must not overtake them); the bytes held
        // start at a packet boundary.
        const clear = (held !== null || scanner.atBoundary()) && brokerReadAll(socket);
        if (!scanner.scan(chunk)) {
          log?.(`mqtt: closed a connection from ${address} that sent a packet over the limit`);
          socket.destroy();
          return false;
        }
        let bytes: Buffer = chunk;
        if (held !== null) {
          bytes = Buffer.concat([held, bytes]);
          held = null;
        }
        const lane = clear ? lanes.get(socket) : undefined;
        if (lane) {
          const taken = takeLeadingPublishes(bytes, lane);
          if (taken > 0) {
            lane.heard();
            if (taken === bytes.length) return true;
            bytes = bytes.subarray(taken);
          }
          if (bytes[0] === PLAIN_PUBLISH && cutShort(bytes)) {
            held = Buffer.from(bytes);
            return true;
          }
        }
        return push(bytes, encoding);
      });
      return true;
    },
    authenticated(socket: Socket): void {
      authed.add(socket);
      settle(socket);
    },
    /** From now on, the socket's plain publishes to the lane's topic go to the lane, not the broker. */
    lane(socket: Socket, lane: FastLane): void {
      lanes.set(socket, lane);
    },
  };
}
