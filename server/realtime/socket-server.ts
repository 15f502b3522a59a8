import type { Server as HttpServer } from "node:http";
import { type } from "arktype";
import type { Redis } from "ioredis";
import { Server, type DefaultEventsMap, type Socket } from "socket.io";
import { ALARM_EVENT, type Alarm } from "../../src/contract/alarms-values.ts";
import type { Notification } from "../../src/contract/entities.ts";
import { normalizeMac } from "../../src/contract/mac.ts";
import {
  refreshPayload,
  sendCommandPayload,
  SOCKET_EVENTS,
  type CollectionEvents,
  type AuthenticatedPayload,
  type CommandAck,
  type DeviceSnapshot,
} from "../../src/contract/realtime.ts";
import { clientsRepo } from "../db/clients-repo.ts";
import type { Sql } from "../db/database.ts";
import { mcuLiveRepo } from "../db/mcu-live-repo.ts";
import { socketLimits } from "./event-limits.ts";
import type { Gateway } from "../devices/gateway.ts";
import type { McuDirectory, McuEntry } from "../devices/mcu-directory.ts";
import type { Sessions } from "../http/session.ts";
import { createCoalescer } from "./coalescer.ts";
import { jsonEventsParser } from "./json-events-parser.ts";
import { engineBacklog, interceptEngineWrites } from "./socket-io-internals.ts";
import { DEFAULT_STREAM, sharedAdapter, takePublished } from "./shared-adapter.ts";
import { attachDeliveries, deliveryOf, type Delivery } from "../devices/delivery.ts";


export interface RealtimeOptions {
  httpServer: HttpServer;
  /**
   * A Redis connection of its own (it blocks reading the stream): with it, every server node's
   * sockets hear what any node emits to a client's room, so a browser on node A gets the readings
   * node B ingested (Socket.IO's Redis Streams adapter).
   */
  redis?: Redis;
  /** The Redis stream the nodes share (one per deployment; tests give each run its own). */
  redisStream?: string;
  sessions: Sessions;
  allowedOrigins: string[];
  db: Sql;
  directory: McuDirectory;
  gateway: Gateway;
  /** Sends the config linked to an MCU to its device (refresh). */
  publishConfigOf(mcuId: number): Promise<void>;
  coalesceMs?: number;
  log?: (msg: string) => void;
}

export interface Realtime {
  reading(clientId: number, mac: string, reading: DeviceSnapshot["readings"] & object): void;
  status(clientId: number, mac: string, status: string): void;
  notification(clientId: number, notification: Notification): void;
  /** A collection's live event (the contract's COLLECTION_EVENT_PAYLOADS), to every socket of the client, on every node. */
  collectionEvent<E extends keyof CollectionEvents>(clientId: number, event: E, payload: CollectionEvents[E]): void;
  /** An alarm opened, was acknowledged or resolved: its whole new state, to every socket of its client (on every node, as notifications). */
  alarm(clientId: number, alarm: Alarm): void;
  /** Closes every socket of a session (Sign Out, password change elsewhere). */
  endSession(idHash: string): void;
  /** Socket events dropped for exceeding their rate, since the start. */
  droppedEvents(): number;
  /** Frames of readings skipped for sockets still busy writing, since the start (this node's sockets). */
  shedFrames(): number;
  /** Sockets connected to this node. */
  connectedSockets(): number;
  close(): Promise<void>;
}

/** Frames a socket may have waiting to be written before frames of readings are skipped for it (≈ 0.1 s of frames). */
const MAX_BACKLOG = 4;

const clientRoom = (clientId: number) => `client:${clientId}`;
const sessionRoom = (idHash: string) => `session:${idHash}`;

interface SocketData {
  clientId: number;
  idHash: string;
}

/**
 * The realtime contract of ARCHITECTURE.md over Socket.IO (websocket only). A socket is tied to
 * the HTTP session it was opened with; it receives a client's live data only after
 * authenticateUser names that same client.
 */
export function startRealtime(o: RealtimeOptions): Realtime {
  const allowed = new Set(o.allowedOrigins);
  const io = new Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>(o.httpServer, {
    transports: ["websocket"],
    serveClient: false,
    maxHttpBufferSize: 16 * 1024,
    parser: jsonEventsParser([SOCKET_EVENTS.realtimeData, SOCKET_EVENTS.realtimeBatch, SOCKET_EVENTS.deviceStatusUpdate]),
    // Socket.IO's cors option does not refuse a foreign Origin on a websocket: do it here.
    allowRequest(req, callback) {
      const origin = req.headers.origin;
      const own = `${(req.socket as { encrypted?: boolean }).encrypted ? "https" : "http"}://${req.headers.host}`;
      const ok = origin === undefined || allowed.has(origin) || origin === own || (o.allowedOrigins.some((a) => a.startsWith("https://")) && origin === `https://${req.headers.host}`);
      callback(ok ? null : "Origin not allowed", ok);
    },
    ...(o.redis ? { adapter: sharedAdapter(o.redis, { streamName: o.redisStream ?? DEFAULT_STREAM, announced: (room) => room.startsWith("client:") }) } : {}),
  });

  io.use((socket, next) => {
    o.sessions.clientOfCookieHeader(socket.request.headers.cookie).then(
      (session) => {
        if (!session) return next(new Error("unauthorized"));
        socket.data.clientId = session.clientId;
        socket.data.idHash = session.idHash;
        void socket.join(sessionRoom(session.idHash));
        next();
      },
      (err: Error) => next(err),
    );
  });

  const mcus = mcuLiveRepo(o.db);
  const clients = clientsRepo(o.db);

  async function snapshotOf(clientId: number): Promise<AuthenticatedPayload> {
    return { devices: await mcus.devicesOf(clientId) };
  }

  /** The client's own MCU behind a MAC sent by the socket, or an answer saying why not. */
  async function ownMcu(socket: Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>, rawMac: unknown): Promise<McuEntry | CommandAck> {
    if (typeof rawMac !== "string") return { ok: false, message: "deviceId must be the MCU's MAC address" };
    const entry = await o.directory.lookup(normalizeMac(rawMac));
    if (!entry || entry.clientId !== socket.data.clientId) return { ok: false, message: "Unknown device" };
    return entry;
  }

  /** Socket events dropped for exceeding their rate, since the start. */
  let droppedEvents = 0;
  /** Frames of readings skipped for a socket that was still writing (see the coalescer below). */
  let shedFrames = 0;
  const ackOf = (ack: unknown) => (typeof ack === "function" ? (ack as (a: CommandAck) => void) : () => {});

  /**
   * Every frame for this socket passes through its client's writeToEngine (whichever node emitted
   * it: with the Redis adapter a remote node's frame is written here too). Socket.IO drops a
   * volatile frame only while the transport is mid-write, which on a healthy socket is most of a
   * tick (a frame right after a status would go); here it is dropped when the socket is really
   * behind: MAX_BACKLOG packets already queued. A client's backlog is bounded, and counted.
   */
  function shedOnBacklog(socket: Socket): void {
    interceptEngineWrites(socket, (write) => (packets, opts) => {
      if (!opts.volatile) return write(packets, opts);
      if (engineBacklog(socket) >= MAX_BACKLOG) return void shedFrames++;
      write(packets, { ...opts, volatile: false });
    });
  }

  io.on("connection", (socket) => {
    // Every event spends from the socket's budget first; beyond it the event is dropped (a
    // command is answered so its sender is not left waiting), and a socket that keeps flooding
    // is disconnected. One client's sockets cannot slow the server for everyone else.
    const limits = socketLimits();
    shedOnBacklog(socket);
    /** The client's username, read at this socket's first command: who sent it, in the command log. */
    let actor: Promise<string | null> | undefined;
    socket.use(([event, ...args], next) => {
      if (limits.admit(String(event))) return next();
      droppedEvents++;
      const ack = args[args.length - 1];
      if (typeof ack === "function") (ack as (a: CommandAck) => void)({ ok: false, message: "Too many requests. Please slow down." });
      if (limits.flooding()) {
        o.log?.(`realtime: disconnecting a socket of client ${socket.data.clientId} that keeps flooding`);
        socket.disconnect(true);
      }
    });

    socket.on(SOCKET_EVENTS.authenticateUser, async (clientId: unknown) => {
      if (Number(clientId) !== socket.data.clientId) {
        socket.emit(SOCKET_EVENTS.unauthorized, { message: "This connection belongs to another account" });
        socket.disconnect(true);
        return;
      }
      try {
        await socket.join(clientRoom(socket.data.clientId));
        socket.emit(SOCKET_EVENTS.authenticated, await snapshotOf(socket.data.clientId));
      } catch (err) {
        o.log?.(`realtime: authenticate: ${(err as Error).message}`);
      }
    });

    socket.on(SOCKET_EVENTS.sendCommand, async (payload: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      try {
        const cmd = sendCommandPayload(payload);
        if (cmd instanceof type.errors) return reply({ ok: false, message: cmd.summary });
        const entry = await ownMcu(socket, cmd.deviceId);
        if ("ok" in entry) return reply(entry);
        actor ??= clients.get(socket.data.clientId).then(
          (client) => client?.username ?? null,
          () => ((actor = undefined), null), // logged without a name this time; read again next time
        );
        const origin = { clientId: socket.data.clientId, actor: await actor };
        reply(await o.gateway.sendCommand(entry, { type: cmd.type, target: cmd.value.target, onOff: cmd.value.onOff }, origin));
      } catch (err) {
        o.log?.(`realtime: sendCommand: ${(err as Error).message}`);
        reply({ ok: false, message: "The command could not be sent" });
      }
    });

    socket.on(SOCKET_EVENTS.refresh, async (payload: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      try {
        const p = refreshPayload(payload);
        if (p instanceof type.errors) return reply({ ok: false, message: p.summary });
        const entry = await ownMcu(socket, p.mac || p.deviceId);
        if ("ok" in entry) return reply(entry);
        await o.publishConfigOf(entry.mcuId);
        reply({ ok: true });
      } catch (err) {
        o.log?.(`realtime: refresh: ${(err as Error).message}`);
        reply({ ok: false, message: "The settings could not be sent to the device" });
      }
    });
  });

  const emit = (clientId: number, event: string, payload: unknown) => io.to(clientRoom(clientId)).emit(event, payload);

  /**
   * A client's coalesced frame. A frame with a status always goes (a missed one would leave an
   * MCU shown in the wrong state until it next changes). A frame of readings only is "volatile":
   * a socket that already has MAX_BACKLOG frames waiting to be written (a slow phone, a congested
   * link) skips it, since the next frame carries newer readings; see `shedOnBacklog`.
   */
  const coalescer = createCoalescer((clientId, flush) => {
    const room = io.to(clientRoom(clientId));
    // The readings' deliveries (QoS 1 telemetry, delivery.ts) go with the payload to the adapter,
    // and are settled once it is out: written here, and in the stream when it went there.
    let deliveries: Delivery[] | undefined;
    for (const d of flush.data) {
      const delivery = deliveryOf(d.payload);
      if (delivery) (deliveries ??= []).push(delivery);
    }
    const send = (event: string, payload: object, volatile: boolean) => {
      if (deliveries) attachDeliveries(payload, deliveries);
      (volatile ? room.volatile : room).emit(event, payload);
    };
    if (flush.status.length > 0) {
      if (flush.data.length + flush.status.length === 1) send(SOCKET_EVENTS.deviceStatusUpdate, flush.status[0]!, false);
      else send(SOCKET_EVENTS.realtimeBatch, flush, false);
    } else if (flush.data.length === 1) send(SOCKET_EVENTS.realtimeData, flush.data[0]!, true);
    else if (flush.data.length > 1) send(SOCKET_EVENTS.realtimeBatch, flush, true);
    if (!deliveries) return;
    const published = o.redis ? takePublished(io.of("/").adapter) : undefined;
    const settle = () => deliveries!.forEach((d) => d.settle());
    if (published) void published.then(settle);
    else settle();
  }, o.coalesceMs);

  return {
    reading: coalescer.reading,
    status: coalescer.status,
    notification: (clientId, n) => emit(clientId, SOCKET_EVENTS.notification, n),
    collectionEvent: (clientId, event, payload) => emit(clientId, event, payload),
    alarm: (clientId, alarm) => emit(clientId, ALARM_EVENT, alarm),
    endSession: (idHash) => io.in(sessionRoom(idHash)).disconnectSockets(true),
    droppedEvents: () => droppedEvents,
    shedFrames: () => shedFrames,
    connectedSockets: () => io.engine.clientsCount,
    async close() {
      coalescer.close();
      // Closing the transports (not disconnecting the sockets) lets clients reconnect to the next
      // server; io.close() would also close the HTTP server, which Fastify owns.
      io.engine.close();
      if (o.redis) await io.of("/").adapter.close();
    },
  };
}
