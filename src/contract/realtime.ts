import { type } from "arktype";
import { liveReading, notification } from "./entities.ts";
import { batch } from "./grow.ts";
import { role } from "./team.ts";
import { alarm } from "./alarms.ts";
import { ALARM_EVENT } from "./alarms-values.ts";
import { COMMAND_TARGETS, MCU_STATUSES } from "./enums.ts";
import type { ErrorParams, ErrorReason } from "./error-reasons.ts";

/** Socket.IO events of SPEC §7 and ARCHITECTURE.md "Realtime contract". `deviceId` is the MCU MAC. */

export { COMMAND_TARGETS, type CommandTarget } from "./enums.ts";

/** client → server `sendCommand`. */
export const sendCommandPayload = type({
  deviceId: "string",
  type: "'auto' | 'status'",
  value: { type: "'auto' | 'status'", onOff: "boolean", target: type.enumerated(...COMMAND_TARGETS) },
});
export type SendCommandPayload = typeof sendCommandPayload.infer;

/** client → server `refresh`, sent after linking a profile. */
export const refreshPayload = type({ deviceId: "string", mac: "string" });
export type RefreshPayload = typeof refreshPayload.infer;

/**
 * server → client acknowledgement of `sendCommand` and `refresh`: a refusal's English message,
 * and its reason (with its values) for the app to say it in the person's language (error-reasons.ts).
 */
export type CommandAck = { ok: true } | { ok: false; message: string; reason?: ErrorReason; params?: ErrorParams };

export const deviceSnapshot = type({
  deviceId: "string",
  mcu_id: "number.integer",
  status: type.enumerated(...MCU_STATUSES),
  readings: type(liveReading, "|", "null"),
  lastSeen: "string | null",
});
export type DeviceSnapshot = typeof deviceSnapshot.infer;

/** server → client `authenticated`: every MCU of the client with its status and latest readings. */
export const authenticatedPayload = type({ devices: deviceSnapshot.array() });
export type AuthenticatedPayload = typeof authenticatedPayload.infer;

/** server → client `realtimeData`: the payload replaces the stored readings of that MCU. */
export const realtimeDataPayload = type({ deviceId: "string", payload: liveReading });
export type RealtimeDataPayload = typeof realtimeDataPayload.infer;

/** server → client `deviceStatusUpdate`: status is `online` or anything else (offline). */
export const deviceStatusPayload = type({ deviceId: "string", status: "string" });
export type DeviceStatusPayload = typeof deviceStatusPayload.infer;

/**
 * server → client `realtimeBatch`: an addition to SPEC §7. When several devices of one client
 * report within the same ~25 ms window the server sends them together, so a socket gets at most
 * ~40 messages a second however large the fleet. Each entry means what the single event means,
 * in order (one device may have two readings in a batch; statuses come first).
 */
export const realtimeBatchPayload = type({ data: realtimeDataPayload.array(), status: deviceStatusPayload.array() });
export type RealtimeBatchPayload = typeof realtimeBatchPayload.infer;

/** server → client `notification`: a new notification of the client. */
export const notificationPayload = notification;

/**
 * server → client events that change a collection of the data core (its declaration's `patches`,
 * collections.ts) or another list it keeps, by event name, with their payloads' schemas: the core
 * listens to each, and checks every payload against its schema.
 */
/** A batch's whole new state: it changed (the plan advanced, or someone acted in another app). */
export const batchPayload = batch;
/** An alarm opened, was acknowledged or resolved (its whole new state). */
export const alarmPayload = alarm;
/** The person joined a farm, left it or was removed (`role` null), or their role on it changed: what they may see and do changed. */
export const farmRolesChangedPayload = type({ farm_id: "number.integer", role: role.or("null") });
/**
 * A farm's members changed: someone joined it, left it or was removed, or a member's role changed.
 * To the farm's account and its members, whose open Members list loads again.
 */
export const farmMembersChangedPayload = type({ farm_id: "number.integer" });
export const COLLECTION_EVENT_PAYLOADS = {
  notification: notificationPayload,
  batch: batchPayload,
  [ALARM_EVENT]: alarmPayload,
  farmRolesChanged: farmRolesChangedPayload,
  farmMembersChanged: farmMembersChangedPayload,
} as const;
export type CollectionEvents = { [E in keyof typeof COLLECTION_EVENT_PAYLOADS]: (typeof COLLECTION_EVENT_PAYLOADS)[E]["infer"] };

export const SOCKET_EVENTS = {
  authenticateUser: "authenticateUser",
  authenticated: "authenticated",
  unauthorized: "unauthorized",
  realtimeData: "realtimeData",
  realtimeBatch: "realtimeBatch",
  deviceStatusUpdate: "deviceStatusUpdate",
  sendCommand: "sendCommand",
  refresh: "refresh",
  notification: "notification",
  /** Beyond SPEC: the person joined or left a farm, or their role on it changed (their lists and rights must be read again). */
  farmRolesChanged: "farmRolesChanged",
  /** Beyond SPEC: a farm's members changed (to everyone who may see them: its account and its members). */
  farmMembersChanged: "farmMembersChanged",
} as const;
