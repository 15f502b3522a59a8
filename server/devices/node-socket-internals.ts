import type { Socket } from "node:net";

/**
 * What the MQTT code relies on of Node's `net.Socket` beyond its documented API: the socket hands
 * every chunk it reads from the network to its own `push` (the Readable side's), looked up on the
 * socket itself each time. A `push` set on one socket therefore sees each chunk before anything
 * reading the socket does, however it reads (paused, as the Aedes broker does, or flowing, as the
 * MQTT client does), and may hand on other bytes or none. The contract test beside this file
 * checks this against the running Node.
 */

/** A socket's `push`: takes a chunk read (or null at the end); false asks the reader to pause. */
export type SocketPush = (chunk: unknown, encoding?: BufferEncoding) => boolean;

/** Node's net.Socket no longer has what the MQTT code relies on (this file): why, in one sentence. */
export const socketInternalsBroken = (why: string) =>
  new Error(`Node's net.Socket no longer has \`push\` as the MQTT code relies on: ${why} (server/devices/node-socket-internals.ts)`);

let checked = false;

/**
 * Puts `make(push)` in the socket's place for every chunk it reads: `push` is the socket's own,
 * to hand on what the reader is to get. No wrapper of ours sits between: the function `make`
 * returns is the socket's `push`.
 */
export function interceptReads(socket: Socket, make: (push: SocketPush) => SocketPush): void {
  if (!checked) {
    if (typeof socket.push !== "function") throw socketInternalsBroken("a socket has no push method");
    checked = true;
  }
  socket.push = make(socket.push.bind(socket) as SocketPush) as typeof socket.push;
}
