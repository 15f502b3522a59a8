import type { Socket } from "node:net";
import { MqttClient, type IClientOptions } from "mqtt";

/**
 * What the gateway's MQTT client (mqtt.js 5) relies on beyond its documented API, and nowhere
 * else. The gateway takes QoS 1 telemetry from the client's socket before the client's parser
 * sees it (node-socket-internals.ts), so the client never acknowledges those publishes: the
 * gateway writes their PUBACKs itself, on the same socket, between the client's own packets.
 * That holds while the client reads its broker through the stream its stream builder returns
 * (one per connection) and writes each of its packets whole within one call. The contract test
 * beside this file checks it against the installed mqtt.js, and the PUBACK bytes against its parser.
 */

/** The error when mqtt.js no longer has `member` as the gateway relies on it. */
export const mqttClientInternalsBroken = (member: string, why: string) =>
  new Error(`mqtt.js no longer has \`${member}\` as the gateway relies on it: ${why} (server/devices/mqtt-client-internals.ts)`);

let checked = false;

/** Throws when the installed mqtt.js lacks what this file relies on (once, at the first connection). */
export function checkMqttClient(): void {
  if (typeof MqttClient !== "function" || MqttClient.length < 2) throw mqttClientInternalsBroken("MqttClient(streamBuilder, options)", "the client is no longer built from a stream builder");
}

/** An MQTT client that reads and writes its broker through the sockets `connect` makes (a new one on every reconnect). */
export function mqttClientOver(connect: () => Socket, options: IClientOptions): MqttClient {
  if (!checked) {
    checkMqttClient();
    checked = true;
  }
  return new MqttClient(connect, options);
}

/**
 * PUBACKs of the QoS 1 publishes with these packet ids, in one buffer: MQTT 3.1.1 and 5 alike
 * (type 4, remaining length 2: the packet id; in MQTT 5 that short form means reason "success").
 */
export function pubacks(packetIds: readonly number[]): Buffer {
  const bytes = Buffer.allocUnsafe(4 * packetIds.length);
  for (let i = 0; i < packetIds.length; i++) {
    bytes[4 * i] = 0x40;
    bytes[4 * i + 1] = 2;
    bytes.writeUInt16BE(packetIds[i]!, 4 * i + 2);
  }
  return bytes;
}
