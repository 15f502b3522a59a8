import { createAdapter } from "@socket.io/redis-streams-adapter";
import type { Redis } from "ioredis";
import { acksOf, deliveriesOf, encodeAcks } from "../devices/delivery.ts";
import {
  encodePacket,
  type BroadcastOptions,
  forEachLocalSocket,
  interceptBroadcast,
  interceptEncode,
  interceptRawMessages,
  nodeUid,
  publishToStream,
  streamsAdapterChecked,
} from "./redis-streams-adapter-internals.ts";
import { writePreEncoded } from "./socket-io-internals.ts";

/**
 * Socket.IO's Redis Streams adapter as every node of a deployment shares it, made cheap for the
 * one thing that is most of the traffic: frames of live readings.
 *
 * - A broadcast is encoded once, into the Socket.IO packet the browsers get. That same text goes
 *   through the stream, and a node that has sockets in its rooms writes it to them as it is (no
 *   parse and re-encode on every node, no walk looking for binary: our events carry none).
 * - A node writes a broadcast to its own sockets only when it has one in its rooms (Socket.IO
 *   encodes every broadcast for the node's sockets first and only then looks for any).
 * - A *volatile* broadcast (a frame of readings only: a socket may skip it, the next one carries
 *   newer readings) goes to the other nodes only while one of them has a socket in one of its
 *   rooms. Nodes tell each other which rooms they have sockets in (those `announced`, e.g. a
 *   client's room): at once when that changes, and every `presenceMs`. What a node heard from
 *   another expires after three periods without news (a node that died). A node that has not
 *   yet heard a full period sends every broadcast. Every other broadcast (statuses,
 *   notifications, alarms) goes to every node, as before.
 * - A node reads its own messages back from the stream; they are dropped before decoding.
 * - A frame of readings whose telemetry the broker wants acknowledged (QoS 1, delivery.ts) names
 *   their packet ids in its `acks` field: after a node died, the node that takes its MQTT session
 *   over skips what the broker sends again but is already in the stream (`deliveredBy`).
 *   `takePublished` gives the promise of the last broadcast's write to the stream.
 *
 * Every other message of the adapter (joining rooms, disconnecting a session's sockets, acks)
 * is Socket.IO's own. (Sockets' `onAnyOutgoing` listeners do not hear these broadcasts: the
 * server has none.) All nodes of a deployment must run this adapter: a node without it would
 * ignore the frames (an unknown message type), so a rolling upgrade to it skips live readings
 * between old and new nodes until every node runs it.
 */
export interface SharedAdapterOptions {
  streamName: string;
  /** Rooms whose sockets a node tells the other nodes about (a volatile broadcast to any other room always goes to every node). */
  announced: (room: string) => boolean;
  presenceMs?: number;
}

/** Our message types, beyond Socket.IO's (0-11): a pre-encoded broadcast, and the announced rooms a node has sockets in. */
export const FRAME = 100;
export const PRESENCE = 101;
export const DEFAULT_STREAM = "mushroom-farm:socket.io";

const PUBLISHED = Symbol("published");
/** The write to the stream of the adapter's last broadcast (undefined when it went to no other node), once. */
export function takePublished(adapter: object): Promise<unknown> | undefined {
  const a = adapter as { [PUBLISHED]?: Promise<unknown> };
  const published = a[PUBLISHED];
  a[PUBLISHED] = undefined;
  return published;
}

/**
 * The packet ids of MQTT `session` named by the frames of the last `windowMs` in the stream (the
 * broker numbers a session's publishes 1-65535 and round again: a short window keeps them unique).
 */
export async function deliveredBy(redis: Redis, streamName: string, session: string, windowMs = 3000): Promise<Set<number>> {
  const ids = new Set<number>();
  const entries = await redis.xrevrange(streamName, "+", String(Date.now() - windowMs), "COUNT", 2000);
  for (const [, fields] of entries) {
    for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === "acks") acksOf(fields[i + 1]!, session, ids);
  }
  return ids;
}

type Room = string;

export function sharedAdapter(redis: Redis, o: SharedAdapterOptions) {
  // maxLen: the stream keeps the last 2 000 messages (Socket.IO's default of 10 000 frames of a
  // large fleet's readings held ~250 MB in Redis); a node more than that behind skips ahead.
  const make = createAdapter(redis, { streamName: o.streamName, onlyPlaintext: true, maxLen: 2000 });
  const presenceMs = o.presenceMs ?? 2000;
  // Socket.IO constructs it with `new`: a function (not an arrow) that returns the adapter.
  return function (nsp: Parameters<typeof make>[0]) {
    const adapter = streamsAdapterChecked(make(nsp));
    const uid = nodeUid(adapter);
    const close = adapter.close.bind(adapter);
    const log = (what: string) => (err: Error) => console.error(`realtime adapter: ${what}: ${err.message}`);

    /** The announced rooms other nodes have sockets in: node uid → rooms, and when last heard. */
    const remote = new Map<string, { rooms: Set<Room>; at: number }>();
    const startedAt = Date.now();
    const remoteWants = (rooms: Set<Room>) => {
      const now = Date.now();
      if (now - startedAt < 1.5 * presenceMs) return true; // not yet heard every node
      const fresh = now - 3 * presenceMs;
      for (const room of rooms) {
        if (!o.announced(room)) return true;
        for (const node of remote.values()) if (node.at >= fresh && node.rooms.has(room)) return true;
      }
      return rooms.size === 0;
    };
    const hasLocal = (opts: BroadcastOptions) => {
      if (opts.rooms.size === 0 || (opts.except?.size ?? 0) > 0) return adapter.sids.size > 0;
      for (const room of opts.rooms) if ((adapter.rooms.get(room)?.size ?? 0) > 0) return true;
      return false;
    };
    const writeLocal = (text: string, opts: BroadcastOptions) => {
      const packetOpts = { preEncoded: true, volatile: opts.flags?.volatile, compress: opts.flags?.compress };
      forEachLocalSocket(adapter, opts, (socket) => writePreEncoded(socket, text, packetOpts));
    };

    interceptBroadcast(adapter, (broadcast) => (packet, opts) => {
      packet.nsp = adapter.nsp.name;
      const encoded = encodePacket(adapter, packet);
      if (encoded.length !== 1 || typeof encoded[0] !== "string") return broadcast(packet, opts); // binary: Socket.IO's way
      const text = encoded[0];
      if (!opts.flags?.local && (!opts.flags?.volatile || remoteWants(opts.rooms))) {
        const deliveries = deliveriesOf(packet.data?.[1]);
        const acks = deliveries && deliveries.length > 0 ? encodeAcks(deliveries) : undefined;
        (adapter as { [PUBLISHED]?: Promise<unknown> })[PUBLISHED] = publishToStream(adapter, { type: FRAME, data: { text, opts, acks } }).catch(log("publishing a broadcast"));
      }
      if (hasLocal(opts)) writeLocal(text, opts);
    });

    interceptEncode(adapter, (encode) => (message) => {
      const base = { uid: message.uid, nsp: message.nsp, type: String(message.type) };
      if (message.type === FRAME) {
        const { text, opts, acks } = message.data as { text: string; opts: BroadcastOptions; acks?: string };
        const fields = { ...base, rooms: JSON.stringify([...opts.rooms]), except: JSON.stringify([...(opts.except ?? [])]), flags: JSON.stringify(opts.flags ?? {}), text };
        return acks ? { ...fields, acks } : fields;
      }
      if (message.type === PRESENCE) return { ...base, rooms: JSON.stringify(message.data) };
      return encode(message);
    });

    // (A message that throws here would be read again and again: the stream's reader moves past
    // an entry only once it was handled.)
    interceptRawMessages(adapter, (onRawMessage) => (raw, offset) => {
      if (raw.uid === uid) return; // our own, read back
      try {
        switch (Number(raw.type)) {
          case FRAME: {
            const opts: BroadcastOptions = { rooms: new Set(JSON.parse(raw.rooms!)), except: new Set(JSON.parse(raw.except!)), flags: JSON.parse(raw.flags!) };
            if (hasLocal(opts)) writeLocal(raw.text!, opts);
            return;
          }
          case PRESENCE:
            remote.set(raw.uid, { rooms: new Set(JSON.parse(raw.rooms!)), at: Date.now() });
            return;
          default:
            return onRawMessage(raw, offset);
        }
      } catch (err) {
        log(`a message of type ${raw.type} from ${raw.uid}`)(err as Error);
      }
    });

    // This node's announced rooms: to the others at once when they change, and every presenceMs.
    let pending = false;
    function announce() {
      pending = false;
      // Forget nodes gone quiet (each start of a node is a new one).
      const fresh = Date.now() - 3 * presenceMs;
      for (const [uid, node] of remote) if (node.at < fresh) remote.delete(uid);
      const rooms = [...adapter.rooms.keys()].filter(o.announced);
      publishToStream(adapter, { type: PRESENCE, data: rooms }).catch(log("announcing rooms"));
    }
    function announceSoon() {
      if (pending) return;
      pending = true;
      setImmediate(announce);
    }
    const onRoom = (room: Room) => o.announced(room) && announceSoon();
    adapter.on("create-room", onRoom);
    adapter.on("delete-room", onRoom);
    const timer = setInterval(announce, presenceMs).unref();
    adapter.close = () => {
      clearInterval(timer);
      return close();
    };
    return adapter;
  };
}
