import { scope, type, type ArkErrors } from "arktype";
import { readingGroups } from "./reading-groups.ts";
import { COMMAND_TARGETS } from "./realtime.ts";

/** The device contract of ARCHITECTURE.md: topics under `devices/{MAC}/`, MAC upper case with colons. */
/** Largest MQTT payload the gateway reads; anything bigger is dropped unread. */
export const MAX_DEVICE_PAYLOAD_BYTES = 16 * 1024;

export const TOPICS = {
  telemetry: (mac: string) => `devices/${mac}/telemetry`,
  status: (mac: string) => `devices/${mac}/status`,
  command: (mac: string) => `devices/${mac}/command`,
  commandAck: (mac: string) => `devices/${mac}/command/ack`,
  config: (mac: string) => `devices/${mac}/config`,
  key: (mac: string) => `devices/${mac}/key`,
} as const;

/**
 * server → device, retained, QoS 1: the device key to use from now on (sent when the MCU was
 * released, so the key it had under its previous owner stops working). The device keeps it and
 * reconnects with it; its first connection with the new key retires the old one, and the server
 * then clears this topic (an empty retained payload, which the device ignores).
 */
export const keyMessage = type({ key: "16 <= string <= 256" });
export type KeyMessage = typeof keyMessage.infer;

/**
 * Checks that strip undeclared keys from the value they are given instead of a copy of it (half
 * the cost on the ingest path): only for values parsed just for the check, as the gateway does.
 */
const inPlace = scope({}, { clone: false });

/** device → server telemetry; `lastUpdated` is stamped by the server, never trusted from a device. */
/**
 * Values a device may report: what the sensors can measure, with room to spare. Anything else
 * (1e309 parses as Infinity, which JSON then stores and serves as null) is refused as invalid.
 */
export const telemetryMessage = inPlace.type({
  ...readingGroups({
    temperature: "-60 <= number <= 100",
    humidity: "0 <= number <= 100",
    soil_temperature: "-60 <= number <= 100",
    co2: "0 <= number <= 100000",
    soil_moisture: "0 <= number <= 100",
    count: "0 <= number.integer <= 1000000",
  }),
  "+": "delete",
});
export type TelemetryMessage = typeof telemetryMessage.infer;

const TELEMETRY_KEYS = new Set<string | symbol>(telemetryMessage.props.map((p) => p.key));

/**
 * `telemetryMessage` on a value parsed just for the check, as the gateway does for every reading:
 * a reading that is valid and has no undeclared key (nearly all of them) is only checked, without
 * the traversal that would strip such keys (which allocated a third of a kilobyte per reading).
 */
export function checkTelemetry(json: unknown): TelemetryMessage | ArkErrors {
  if (telemetryMessage.allows(json)) {
    let declared = true;
    for (const key in json) if (!TELEMETRY_KEYS.has(key)) declared = false;
    if (declared) return json;
  }
  return telemetryMessage(json);
}

/** `devices/{MAC}/{rest}` → MAC and rest, or undefined for any other topic. */
export function parseDeviceTopic(topic: string): { mac: string; rest: string } | undefined {
  const m = /^devices\/([0-9A-F]{2}(?::[0-9A-F]{2}){5})\/(.+)$/.exec(topic);
  return m ? { mac: m[1]!, rest: m[2]! } : undefined;
}

/** device → server, retained; the last-will sets `offline`. */
export const statusMessage = type("'online' | 'offline'");

/** server → device, QoS 1. */
export const commandMessage = type({
  id: "string",
  type: "'auto' | 'status'",
  target: type.enumerated(...COMMAND_TARGETS),
  onOff: "boolean",
  /** epoch milliseconds after which the device must ignore the command */
  expiresAt: "number",
});
export type CommandMessage = typeof commandMessage.infer;

/** device → server acknowledgement of a command. */
export const commandAckMessage = type({ id: "string", ok: "boolean", "error?": "string" });
export type CommandAckMessage = typeof commandAckMessage.infer;
