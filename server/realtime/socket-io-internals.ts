import { createRequire } from "node:module";
import type { Socket } from "socket.io";
import type * as Parser from "socket.io-parser";

/**
 * What the realtime server relies on of Socket.IO (socket.io 4, its engine.io 6 and socket.io-parser
 * 4) beyond their typed, documented API, and nowhere else:
 * - every packet for a socket, whichever node emitted it, is written through its client's
 *   `writeToEngine(encodedPackets, opts)` (looked up on the client each time; Socket.IO's own
 *   adapters call it with pre-encoded packets too);
 * - the engine.io socket's `writeBuffer` holds the packets waiting to be written;
 * - the parser's Encoder turns a packet without binary into its text with `encodeAsString`.
 * `checkSocketIoParser` runs when the realtime server starts, `checkSocketIoSocket` on its first
 * socket; the contract test beside this file checks each behaves as assumed.
 */

/** How a packet is written to the engine (Socket.IO's WriteOptions). */
export interface EngineWriteOptions {
  volatile?: boolean;
  compress?: boolean;
  preEncoded?: boolean;
}
export type EngineWrite = (encodedPackets: unknown, opts: EngineWriteOptions) => void;

interface ClientInternals {
  writeToEngine: EngineWrite;
}
interface EngineSocketInternals {
  writeBuffer: unknown[];
}
interface EncoderInternals {
  encodeAsString(packet: Parser.Packet): string;
}

/** The error when Socket.IO no longer has `member` as the realtime server relies on it. */
export const socketIoInternalsBroken = (library: string, member: string, why: string) =>
  new Error(`${library} no longer has \`${member}\`: ${why} (the realtime server relies on it: server/realtime/socket-io-internals.ts)`);

/** Socket.IO's parser: the copy Socket.IO itself loads (CommonJS), not the ESM build beside it. */
export const socketIoParser = createRequire(createRequire(import.meta.url).resolve("socket.io"))("socket.io-parser") as typeof Parser;

/** Throws when the parser lacks what this file relies on (once, when the realtime server starts). */
export function checkSocketIoParser(): void {
  if (typeof (socketIoParser.Encoder.prototype as unknown as Partial<EncoderInternals>).encodeAsString !== "function") {
    throw socketIoInternalsBroken("socket.io-parser", "Encoder.encodeAsString", "its Encoder cannot encode a packet as text without walking it for binary");
  }
}

/** Throws when a connected socket lacks what this file relies on. */
export function checkSocketIoSocket(socket: Socket): void {
  if (typeof (socket.client as unknown as Partial<ClientInternals>).writeToEngine !== "function") {
    throw socketIoInternalsBroken("Socket.IO", "writeToEngine", "a socket's client no longer writes its packets through it");
  }
  if (!Array.isArray((socket.conn as unknown as Partial<EngineSocketInternals>).writeBuffer)) {
    throw socketIoInternalsBroken("engine.io", "writeBuffer", "a socket no longer shows the packets waiting to be written");
  }
}

let socketChecked = false;

/**
 * Puts `make(write)` in place of the socket's client's writeToEngine: every packet written to this
 * socket passes there (its own emits and the broadcasts of every node); `write` is Socket.IO's own.
 * (The first socket is checked here, once.)
 */
export function interceptEngineWrites(socket: Socket, make: (write: EngineWrite) => EngineWrite): void {
  if (!socketChecked) {
    checkSocketIoSocket(socket);
    socketChecked = true;
  }
  const client = socket.client as unknown as ClientInternals;
  client.writeToEngine = make(client.writeToEngine.bind(client));
}

/** Packets waiting to be written to the socket's transport. */
export const engineBacklog = (socket: Socket): number => (socket.conn as unknown as EngineSocketInternals).writeBuffer.length;

/** Writes text already encoded as a Socket.IO packet to the socket, as Socket.IO's adapters do. */
export function writePreEncoded(socket: Socket, text: string, opts: EngineWriteOptions): void {
  (socket.client as unknown as ClientInternals).writeToEngine([text], opts);
}

/** A packet's text, by the parser's own encoder, without its walk for binary (the packet must have none). */
export const encodeAsString = (encoder: Parser.Encoder, packet: Parser.Packet): string => (encoder as unknown as EncoderInternals).encodeAsString(packet);
