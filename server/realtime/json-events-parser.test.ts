import * as parser from "socket.io-parser";
import { describe, expect, it } from "vitest";
import { jsonEventsParser } from "./json-events-parser.ts";

describe("the realtime parser", () => {
  const { Encoder } = jsonEventsParser(["realtimeBatch"]);
  const ours = new Encoder();
  const theirs = new parser.Encoder();

  it("encodes a JSON event as Socket.IO does, without looking for binary", () => {
    const packet = { type: parser.PacketType.EVENT, nsp: "/", data: ["realtimeBatch", { data: [{ deviceId: "AA:BB:CC:DD:EE:FF", payload: { temperature: 21.5, note: "é ✓" } }], status: [] }] };
    expect(ours.encode(packet)).toEqual(theirs.encode(packet));
    expect(ours.encode({ ...packet, nsp: "/admin", id: 7 })).toEqual(theirs.encode({ ...packet, nsp: "/admin", id: 7 }));
  });

  it("does not walk a JSON event's payload (a buffer there would go as its JSON form: the contract has none)", () => {
    const packet = { type: parser.PacketType.EVENT, nsp: "/", data: ["realtimeBatch", { raw: Buffer.from([1]) }] };
    expect(ours.encode(packet)).toEqual(['2["realtimeBatch",{"raw":{"type":"Buffer","data":[1]}}]']);
    expect(theirs.encode(packet)).toHaveLength(2);
  });

  it("leaves every other event to Socket.IO's encoder, binary included", () => {
    const packet = { type: parser.PacketType.EVENT, nsp: "/", data: ["file", Buffer.from([1, 2, 3])] };
    const encoded = ours.encode(packet);
    expect(encoded).toEqual(theirs.encode(packet));
    expect(encoded).toHaveLength(2); // a binary event: its header and the buffer
  });
});
