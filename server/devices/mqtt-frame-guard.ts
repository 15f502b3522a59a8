import type { Socket } from "node:net";

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
 * Guards the sockets of an MQTT listener: packets are size-checked as they arrive (tighter before
 * the connection has authenticated), and an address may hold only so many connections that have
 * not authenticated yet. `authenticated(socket)` lifts a socket to the after-auth limit.
 */
export function mqttConnectionGuard(limits: MqttConnectionLimits, log?: (msg: string) => void) {
  const authed = new WeakSet<Socket>();
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
      // Every chunk the socket reads passes through push(): scanned there, before the broker's
      // parser buffers it (the broker reads the socket in paused mode, so no 'data' listener).
      const push = socket.push.bind(socket);
      socket.push = (chunk: unknown, encoding?: BufferEncoding) => {
        if (Buffer.isBuffer(chunk) && !scanner.scan(chunk)) {
          log?.(`mqtt: closed a connection from ${address} that sent a packet over the limit`);
          socket.destroy();
          return false;
        }
        return push(chunk, encoding);
      };
      return true;
    },
    authenticated(socket: Socket): void {
      authed.add(socket);
      settle(socket);
    },
  };
}
