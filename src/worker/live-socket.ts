import { io, type Socket } from "socket.io-client";
import {
  authenticatedPayload,
  COLLECTION_EVENT_PAYLOADS,
  deviceSnapshot,
  deviceStatusPayload,
  realtimeBatchPayload,
  realtimeDataPayload,
  SOCKET_EVENTS,
  type AuthenticatedPayload,
  type CollectionEvents,
  type CommandAck,
  type DeviceSnapshot,
  type DeviceStatusPayload,
  type RealtimeBatchPayload,
  type RealtimeDataPayload,
  type RefreshPayload,
  type SendCommandPayload,
} from "../contract/realtime.ts";

import type { ConnectionState } from "../contract/live.ts";

export type { ConnectionState } from "../contract/live.ts";

export interface LiveSocketHandlers {
  /** Null devices: the event's device list was malformed, so it says nothing of them (the link is up all the same). */
  authenticated(p: AuthenticatedPayload | { devices: null }): void;
  data(p: RealtimeDataPayload): void;
  status(p: DeviceStatusPayload): void;
  /** A realtimeBatch, passed on whole: it stays one batch into the fold. */
  batch(p: RealtimeBatchPayload): void;
  /** An event that changes a collection of the core (`COLLECTION_EVENT_PAYLOADS`), its payload checked. */
  collectionEvent<E extends keyof CollectionEvents>(event: E, payload: CollectionEvents[E]): void;
  /** The server's keep-alive ping came (every 25 s): the link is up although nothing else came. */
  heard?(): void;
  connection(state: ConnectionState, message?: string): void;
  /**
   * Events (or entries of a batch) that did not match their contract schema were dropped: `count`
   * of them, of `event`. They never reach the fold, and the stream goes on.
   */
  dropped?(event: string, count: number): void;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const isDevice = (d: unknown) => deviceSnapshot.allows(d);
const isReading = (d: unknown) => realtimeDataPayload.allows(d);
const isStatus = (d: unknown) => deviceStatusPayload.allows(d);

/**
 * A realtimeBatch as far as it holds: the whole batch is checked in one compiled pass (the rule:
 * thousands of readings a second), and only a batch that fails is taken apart, so one malformed
 * entry does not cost the others. Null when it is not a batch at all.
 */
export function checkBatch(p: unknown): { batch: RealtimeBatchPayload | null; dropped: number } {
  if (realtimeBatchPayload.allows(p)) return { batch: p, dropped: 0 };
  if (!isRecord(p) || !Array.isArray(p.data) || !Array.isArray(p.status)) return { batch: null, dropped: 1 };
  const data = (p.data as unknown[]).filter(isReading) as RealtimeDataPayload[];
  const status = (p.status as unknown[]).filter(isStatus) as DeviceStatusPayload[];
  return { batch: { data, status }, dropped: p.data.length - data.length + (p.status.length - status.length) };
}

/**
 * An `authenticated` event's devices as far as they hold: a device whose stored readings do not
 * (a device once sent what a reading cannot be) is kept without them, as in the MCU list; a device
 * that fails otherwise is left out. Null devices when there is no device list at all.
 */
export function checkAuthenticated(p: unknown): { payload: AuthenticatedPayload | { devices: null }; dropped: number } {
  if (authenticatedPayload.allows(p)) return { payload: p, dropped: 0 };
  if (!isRecord(p) || !Array.isArray(p.devices)) return { payload: { devices: null }, dropped: 1 };
  const devices: DeviceSnapshot[] = [];
  for (const d of p.devices as unknown[]) {
    if (isDevice(d)) devices.push(d);
    else if (isRecord(d) && isDevice({ ...d, readings: null })) devices.push({ ...(d as DeviceSnapshot), readings: null });
  }
  return { payload: { devices }, dropped: p.devices.length - devices.length || 1 };
}

export interface LiveSocketOptions {
  /** The API host; "" is the page's own origin. */
  url: string;
  clientId: number;
  handlers: LiveSocketHandlers;
  /** How long a command may wait for the server's acknowledgement. */
  ackTimeoutMs?: number;
  /** Injected in tests. */
  connect?: typeof io;
}

export interface LiveSocket {
  sendCommand(p: SendCommandPayload): Promise<CommandAck>;
  refresh(p: RefreshPayload): Promise<CommandAck>;
  close(): void;
}

/**
 * The realtime connection of SPEC §4 and §9: websocket only, reconnecting after 1 s growing to
 * 5 s without limit, 20 s connect time-out; it authenticates as the client at every (re)connect.
 */
export function openLiveSocket({ url, clientId, handlers, ackTimeoutMs = 10_000, connect = io }: LiveSocketOptions): LiveSocket {
  const socket: Socket = connect(url || undefined!, {
    transports: ["websocket"],
    reconnection: true,
    reconnectionDelay: 1000,
    reconnectionDelayMax: 5000,
    reconnectionAttempts: Infinity,
    timeout: 20_000,
    withCredentials: true,
  });
  let closed = false;

  const dropped = (event: string, count: number) => handlers.dropped?.(event, count);

  handlers.connection("connecting");
  socket.on("connect", () => socket.emit(SOCKET_EVENTS.authenticateUser, clientId));
  // Every server event is checked against its contract schema here, where it enters the core: a
  // malformed one is counted and dropped, and never reaches the fold (nor stops the stream).
  socket.on(SOCKET_EVENTS.authenticated, (p: unknown) => {
    const checked = checkAuthenticated(p);
    if (checked.dropped > 0) dropped(SOCKET_EVENTS.authenticated, checked.dropped);
    handlers.connection("connected");
    handlers.authenticated(checked.payload);
  });
  socket.on(SOCKET_EVENTS.realtimeData, (p: unknown) => {
    if (realtimeDataPayload.allows(p)) handlers.data(p);
    else dropped(SOCKET_EVENTS.realtimeData, 1);
  });
  socket.on(SOCKET_EVENTS.deviceStatusUpdate, (p: unknown) => {
    if (deviceStatusPayload.allows(p)) handlers.status(p);
    else dropped(SOCKET_EVENTS.deviceStatusUpdate, 1);
  });
  socket.on(SOCKET_EVENTS.realtimeBatch, (p: unknown) => {
    const checked = checkBatch(p);
    if (checked.dropped > 0) dropped(SOCKET_EVENTS.realtimeBatch, checked.dropped);
    if (checked.batch && (checked.batch.data.length > 0 || checked.batch.status.length > 0)) handlers.batch(checked.batch);
  });
  for (const event of Object.keys(COLLECTION_EVENT_PAYLOADS) as (keyof CollectionEvents)[]) {
    socket.on(event, (p: unknown) => {
      if (COLLECTION_EVENT_PAYLOADS[event].allows(p)) handlers.collectionEvent(event, p);
      else dropped(event, 1);
    });
  }
  // The Manager's event (an injected test socket may have no Manager).
  if (handlers.heard) socket.io?.on("ping", handlers.heard);
  socket.on(SOCKET_EVENTS.unauthorized, (p: { message?: string }) => {
    closed = true;
    socket.close();
    handlers.connection("unauthorized", p?.message);
  });
  socket.on("connect_error", (err: Error) => {
    // The server refused the handshake (no or ended session): retrying would not help.
    if (err.message === "unauthorized") {
      closed = true;
      socket.close();
      handlers.connection("unauthorized", "Your session has ended. Please sign in again.");
    } else if (!closed) {
      handlers.connection("reconnecting", err.message);
    }
  });
  socket.on("disconnect", (reason: string) => {
    if (closed || reason === "io client disconnect") return;
    // The server ended this socket on purpose, and socket.io does not retry that by itself. It does
    // so when the session is signed out (here or on another device, or by a password change):
    // connecting again lets the handshake tell, refusing an ended session ("unauthorized" above).
    if (reason === "io server disconnect") socket.connect();
    else handlers.connection("reconnecting", reason);
  });

  /** Emits only on a live connection: socket.io would buffer it and replay it, stale, after a reconnect. */
  function request(event: string, payload: unknown): Promise<CommandAck> {
    if (!socket.connected) return Promise.resolve({ ok: false, message: "Not connected to the server. Try again when the connection is back.", reason: "not_connected" });
    return new Promise((resolve) => {
      socket.timeout(ackTimeoutMs).emit(event, payload, (err: Error | null, ack: CommandAck) => {
        if (err) resolve({ ok: false, message: "The server did not answer in time", reason: "no_server_answer" });
        else if (ack && typeof ack.ok === "boolean") resolve(ack);
        else resolve({ ok: false, message: "Unexpected answer from the server", reason: "bad_server_answer" });
      });
    });
  }

  return {
    sendCommand: (p) => request(SOCKET_EVENTS.sendCommand, p),
    refresh: (p) => request(SOCKET_EVENTS.refresh, p),
    close() {
      closed = true;
      socket.close();
      handlers.connection("closed");
    },
  };
}
