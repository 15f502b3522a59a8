import type { createAdapter } from "@socket.io/redis-streams-adapter";
import type { Socket } from "socket.io";

/**
 * What the shared adapter (shared-adapter.ts) relies on of Socket.IO's Redis Streams adapter
 * (@socket.io/redis-streams-adapter 0.3, on socket.io-adapter 2.5's ClusterAdapter) beyond its
 * typed, documented API, and nowhere else:
 * - `uid`: the node's id, which every message it puts in the stream carries;
 * - `encoder`: the server's packet encoder (Socket.IO's parser);
 * - `apply(opts, fn)`: calls `fn` with each local socket a broadcast with `opts` reaches;
 * - `publishAndReturnOffset(message)`: adds a message to the stream, with its `uid` and `nsp`;
 * - `encode(message)`: a message as the fields of its stream entry, called (looked up on the
 *   adapter) for every message added;
 * - `onRawMessage(raw, offset)`: called (looked up on the adapter) with the fields of every
 *   entry read from the stream, this node's own included.
 * `checkStreamsAdapter` runs on the first adapter made; the contract test beside this file checks
 * each behaves as assumed against the installed adapter and a real Redis.
 */

/** The Redis Streams adapter of one namespace. */
export type StreamsAdapter = ReturnType<ReturnType<typeof createAdapter>>;

/** Whom a broadcast reaches (socket.io-adapter's BroadcastOptions). */
export interface BroadcastOptions {
  rooms: Set<string>;
  except?: Set<string>;
  flags?: { volatile?: boolean; compress?: boolean; local?: boolean };
}
/** A message of the adapter before it is encoded: its type (Socket.IO's 0-11, or ours) and data. */
export interface ClusterMessage {
  type: number;
  uid: string;
  nsp: string;
  data?: unknown;
}
/** A stream entry's fields, as read. */
export interface RawMessage {
  uid: string;
  nsp: string;
  type: string;
  [field: string]: string;
}
/** A Socket.IO packet as the adapter broadcasts it. */
export interface BroadcastPacket {
  type: number;
  nsp: string;
  data?: unknown[];
  id?: number;
}
export type Encode = (message: ClusterMessage) => Record<string, string>;
export type OnRawMessage = (raw: RawMessage, offset: string) => unknown;
export type Broadcast = (packet: BroadcastPacket, opts: BroadcastOptions) => Promise<void> | void;

interface Internals {
  uid: string;
  encoder: { encode(packet: BroadcastPacket): unknown[] };
  apply(opts: BroadcastOptions, callback: (socket: Socket) => void): void;
  publishAndReturnOffset(message: { type: number; data?: unknown }): Promise<string>;
  encode: Encode;
  onRawMessage: OnRawMessage;
  broadcast: Broadcast;
}

/** The error when the Redis Streams adapter no longer has `member` as the shared adapter relies on it. */
export const streamsAdapterInternalsBroken = (member: string, why: string) =>
  new Error(`@socket.io/redis-streams-adapter no longer has \`${member}\`: ${why} (the shared adapter relies on it: server/realtime/redis-streams-adapter-internals.ts)`);

const internals = (adapter: StreamsAdapter) => adapter as unknown as Internals;

/** Throws when the adapter lacks what this file relies on. */
export function checkStreamsAdapter(adapter: StreamsAdapter): void {
  const a = internals(adapter) as Partial<Internals>;
  if (typeof a.uid !== "string") throw streamsAdapterInternalsBroken("uid", "the adapter has no id of its node");
  if (typeof a.encoder?.encode !== "function") throw streamsAdapterInternalsBroken("encoder", "the adapter has no packet encoder");
  if (typeof a.apply !== "function") throw streamsAdapterInternalsBroken("apply", "the adapter cannot list the local sockets a broadcast reaches");
  if (typeof a.publishAndReturnOffset !== "function") throw streamsAdapterInternalsBroken("publishAndReturnOffset", "the adapter cannot add a message of its own to the stream");
  if (typeof a.encode !== "function") throw streamsAdapterInternalsBroken("encode", "the adapter no longer encodes a message into a stream entry's fields");
  if (typeof a.onRawMessage !== "function") throw streamsAdapterInternalsBroken("onRawMessage", "the adapter no longer takes the stream's entries as read");
}

let checked = false;

/** The adapter (checked, once for the first one made). */
export function streamsAdapterChecked(adapter: StreamsAdapter): StreamsAdapter {
  if (!checked) {
    checkStreamsAdapter(adapter);
    checked = true;
  }
  return adapter;
}

/** This node's id in the stream. */
export const nodeUid = (adapter: StreamsAdapter): string => internals(adapter).uid;

/** A packet encoded as the server encodes it for its sockets (one string for a packet without binary). */
export const encodePacket = (adapter: StreamsAdapter, packet: BroadcastPacket): unknown[] => internals(adapter).encoder.encode(packet);

/** Calls `fn` with each socket of this node that a broadcast with `opts` reaches. */
export const forEachLocalSocket = (adapter: StreamsAdapter, opts: BroadcastOptions, fn: (socket: Socket) => void): void => internals(adapter).apply(opts, fn);

/** Adds a message to the stream (its `uid` and `nsp` added): resolves with its entry's id. */
export const publishToStream = (adapter: StreamsAdapter, message: { type: number; data?: unknown }): Promise<string> => internals(adapter).publishAndReturnOffset(message);

/**
 * Puts `make(own)` in place of the adapter's broadcast, which Socket.IO calls for every broadcast
 * of the namespace (public API, but typed to return a promise, which ours need not).
 */
export function interceptBroadcast(adapter: StreamsAdapter, make: (own: Broadcast) => Broadcast): void {
  const a = internals(adapter);
  a.broadcast = make(a.broadcast.bind(adapter));
}

/** Puts `make(own)` in place of the adapter's encoding of each message it adds to the stream. */
export function interceptEncode(adapter: StreamsAdapter, make: (own: Encode) => Encode): void {
  const a = internals(adapter);
  a.encode = make(a.encode.bind(adapter));
}

/** Puts `make(own)` in place of the adapter's handling of each entry read from the stream. */
export function interceptRawMessages(adapter: StreamsAdapter, make: (own: OnRawMessage) => OnRawMessage): void {
  const a = internals(adapter);
  a.onRawMessage = make(a.onRawMessage.bind(adapter));
}
