import { io, type Socket } from "socket.io-client";
import { ALARM_EVENT, type Alarm } from "../contract/alarms-values.ts";
import type { Notification } from "../contract/entities.ts";
import {
  SOCKET_EVENTS,
  type AuthenticatedPayload,
  type CommandAck,
  type DeviceStatusPayload,
  type RealtimeBatchPayload,
  type RealtimeDataPayload,
  type RefreshPayload,
  type SendCommandPayload,
} from "../contract/realtime.ts";

import type { ConnectionState } from "../contract/live.ts";

export type { ConnectionState } from "../contract/live.ts";

export interface LiveSocketHandlers {
  authenticated(p: AuthenticatedPayload): void;
  data(p: RealtimeDataPayload): void;
  status(p: DeviceStatusPayload): void;
  /** A realtimeBatch, passed on whole: it stays one batch into the fold. */
  batch(p: RealtimeBatchPayload): void;
  notification(n: Notification): void;
  /** An alarm opened, was acknowledged or resolved: its whole new state. */
  alarm?(a: Alarm): void;
  /** The server's keep-alive ping came (every 25 s): the link is up although nothing else came. */
  heard?(): void;
  connection(state: ConnectionState, message?: string): void;
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

  handlers.connection("connecting");
  socket.on("connect", () => socket.emit(SOCKET_EVENTS.authenticateUser, clientId));
  socket.on(SOCKET_EVENTS.authenticated, (p: AuthenticatedPayload) => {
    handlers.connection("connected");
    handlers.authenticated(p);
  });
  socket.on(SOCKET_EVENTS.realtimeData, handlers.data);
  socket.on(SOCKET_EVENTS.deviceStatusUpdate, handlers.status);
  socket.on(SOCKET_EVENTS.realtimeBatch, handlers.batch);
  socket.on(SOCKET_EVENTS.notification, handlers.notification);
  if (handlers.alarm) socket.on(ALARM_EVENT, handlers.alarm);
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
    if (!socket.connected) return Promise.resolve({ ok: false, message: "Not connected to the server. Try again when the connection is back." });
    return new Promise((resolve) => {
      socket.timeout(ackTimeoutMs).emit(event, payload, (err: Error | null, ack: CommandAck) => {
        if (err) resolve({ ok: false, message: "The server did not answer in time" });
        else if (ack && typeof ack.ok === "boolean") resolve(ack);
        else resolve({ ok: false, message: "Unexpected answer from the server" });
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
