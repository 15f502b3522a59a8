import type * as Parser from "socket.io-parser";
import { checkSocketIoParser, encodeAsString, socketIoParser as parser } from "./socket-io-internals.ts";

/**
 * Socket.IO's parser, except that a packet of one of `events` is encoded without first walking
 * its payload for binary: those events carry JSON by contract (src/contract/realtime.ts: text,
 * numbers, booleans), and the walk was a few percent of a node's work at 10 000 readings/s (a
 * frame of 250 readings has some 2 000 values). The text on the wire is the same.
 */
export function jsonEventsParser(events: readonly string[]) {
  checkSocketIoParser();
  const json = new Set(events);
  class Encoder extends parser.Encoder {
    override encode(packet: Parser.Packet): unknown[] {
      if (packet.type === parser.PacketType.EVENT && json.has((packet.data as unknown[] | undefined)?.[0] as string)) {
        return [encodeAsString(this, packet)];
      }
      return super.encode(packet);
    }
  }
  return { ...parser, Encoder };
}
