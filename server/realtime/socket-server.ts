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
  type DeviceSnapshot,
} from "../../src/contract/realtime.ts";
import { can, cannotText, type Right, type Role } from "../../src/contract/team.ts";
import { clientsRepo } from "../db/clients-repo.ts";
import type { ServerAck } from "../errors.ts";
import { teamRepo } from "../db/team-repo.ts";
import { auditRepo } from "../db/audit-repo.ts";
import type { Sql } from "../db/database.ts";
import { mcuLiveRepo } from "../db/mcu-live-repo.ts";
import { socketLimits } from "./event-limits.ts";
import type { Gateway } from "../devices/gateway.ts";
import type { McuDirectory, McuEntry } from "../devices/mcu-directory.ts";
import type { Sessions } from "../http/session.ts";
import { createCoalescer, type Flush } from "./coalescer.ts";
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
  /** A device's reading, to its account's sockets and those of members of its farm (`farmId`). */
  reading(clientId: number, mac: string, reading: DeviceSnapshot["readings"] & object, farmId?: number): void;
  status(clientId: number, mac: string, status: string, farmId?: number): void;
  notification(clientId: number, notification: Notification): void;
  /** A collection's live event (the contract's COLLECTION_EVENT_PAYLOADS), to every socket of the client, on every node. */
  collectionEvent<E extends keyof CollectionEvents>(clientId: number, event: E, payload: CollectionEvents[E]): void;
  /** An alarm opened, was acknowledged or resolved: its whole new state, to every socket of its client (on every node, as notifications). */
  alarm(clientId: number, alarm: Alarm): void;
  /** Closes every socket of a session (Sign Out, password change elsewhere). */
  endSession(idHash: string): void;
  /**
   * A person joined a farm, their role changed, or they left (`role` null): their sockets, on every
   * node, start or stop receiving the farm at once, and their apps are told to read their lists
   * again; the farm's account and members are told its members changed (their Members lists).
   */
  membership(farmId: number, person: number, role: Role | null): void;
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
/** A farm's room: the sockets of its members who are not its account (the account's sockets get it through the client room). */
const farmRoom = (farmId: number) => `farm:${farmId}`;
/** How long a node trusts what it knows of which farms of an account have members (a change made on this node is known at once). */
const MEMBER_FARMS_MS = 10_000;
const sessionRoom = (idHash: string) => `session:${idHash}`;
/** A device the person cannot see: unknown to them, whoever's it is. */
const UNKNOWN_DEVICE: ServerAck = { ok: false, message: "Unknown device", reason: "unknown_device" };

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
    ...(o.redis ? { adapter: sharedAdapter(o.redis, { streamName: o.redisStream ?? DEFAULT_STREAM, announced: (room) => room.startsWith("client:") || room.startsWith("farm:") }) } : {}),
  });

  io.use((socket, next) => {
    o.sessions.clientOfCookieHeader(socket.request.headers.cookie).then(
      (session) => {
        // The app keys on the error's message; its data says why, as an error answer does.
        if (!session) return next(Object.assign(new Error("unauthorized"), { data: { message: "Your session has ended. Please sign in again.", reason: "session_ended" } }));
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
  const team = teamRepo(o.db);
  const audit = auditRepo(o.db);


  /**
   * The MCU behind a MAC sent by the socket, when the person may do `right` on it: their own
   * account's, or one on a farm where their role has it. Otherwise an answer saying why not (one
   * they cannot see is unknown to them).
   */
  async function mcuFor(socket: Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>, rawMac: unknown, right: Right): Promise<McuEntry | ServerAck> {
    if (typeof rawMac !== "string") return { ok: false, message: "deviceId must be the MCU's MAC address", reason: "device_id_not_mac" };
    const entry = await o.directory.lookup(normalizeMac(rawMac));
    const person = socket.data.clientId;
    if (!entry) return UNKNOWN_DEVICE;
    if (entry.clientId === person) return entry;
    const role = (await team.rolesIn(person, entry.clientId)).get(entry.farmId);
    if (!role) return UNKNOWN_DEVICE;
    return can(role, right) ? entry : { ok: false, message: cannotText(role, right), reason: "role_cannot", params: { role, right } };
  }

  /**
   * Which farms of an account have members, as this node last read it (empty while it is read the
   * first time): a frame for a farm's room is made only for those, so an account without members
   * costs one lookup per frame.
   */
  const memberFarms = new Map<number, { farms: ReadonlySet<number>; until: number; loading?: Promise<void> }>();
  function loadMemberFarms(tenant: number): Promise<void> {
    const known = memberFarms.get(tenant);
    if (known?.loading) return known.loading;
    const loading = team.farmsWithMembers(tenant).then(
      (farms) => void memberFarms.set(tenant, { farms: new Set(farms), until: Date.now() + MEMBER_FARMS_MS }),
      (err: Error) => {
        o.log?.(`realtime: the farms with members of client ${tenant}: ${err.message}`);
        memberFarms.set(tenant, { farms: known?.farms ?? new Set(), until: 0 });
      },
    );
    memberFarms.set(tenant, { farms: known?.farms ?? new Set(), until: known?.until ?? 0, loading });
    return loading;
  }
  function farmsWithMembers(tenant: number): ReadonlySet<number> {
    const known = memberFarms.get(tenant);
    if (!known || (known.until < Date.now() && !known.loading)) void loadMemberFarms(tenant);
    return memberFarms.get(tenant)!.farms;
  }

  /** Socket events dropped for exceeding their rate, since the start. */
  let droppedEvents = 0;
  /** Frames of readings skipped for a socket that was still writing (see the coalescer below). */
  let shedFrames = 0;
  const ackOf = (ack: unknown) => (typeof ack === "function" ? (ack as (a: ServerAck) => void) : () => {});

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
      if (typeof ack === "function") (ack as (a: ServerAck) => void)({ ok: false, message: "Too many requests. Please slow down.", reason: "too_many_requests" });
      if (limits.flooding()) {
        o.log?.(`realtime: disconnecting a socket of client ${socket.data.clientId} that keeps flooding`);
        socket.disconnect(true);
      }
    });

    socket.on(SOCKET_EVENTS.authenticateUser, async (clientId: unknown) => {
      if (Number(clientId) !== socket.data.clientId) {
        socket.emit(SOCKET_EVENTS.unauthorized, { message: "This connection belongs to another account", reason: "other_account" });
        socket.disconnect(true);
        return;
      }
      try {
        const person = socket.data.clientId;
        const memberships = (await team.farmRoles(person)).filter((r) => r.owner_id !== person);
        const farms = memberships.map((r) => r.farm_id);
        // Known before the first frame of those accounts comes: none of it is missed.
        await Promise.all([...new Set(memberships.map((r) => r.owner_id))].map(loadMemberFarms));
        await socket.join([clientRoom(person), ...farms.map(farmRoom)]);
        socket.emit(SOCKET_EVENTS.authenticated, { devices: await mcus.devicesOf(person, farms) } satisfies AuthenticatedPayload);
      } catch (err) {
        o.log?.(`realtime: authenticate: ${(err as Error).message}`);
      }
    });

    socket.on(SOCKET_EVENTS.sendCommand, async (payload: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      try {
        const cmd = sendCommandPayload(payload);
        if (cmd instanceof type.errors) return reply({ ok: false, message: cmd.summary, reason: "invalid_message" });
        const entry = await mcuFor(socket, cmd.deviceId, "switchControllers");
        if ("ok" in entry) return reply(entry);
        actor ??= clients.get(socket.data.clientId).then(
          (client) => client?.username ?? null,
          () => ((actor = undefined), null), // logged without a name this time; read again next time
        );
        // Logged in the MCU's account, by the person who switched.
        const origin = { clientId: entry.clientId, actor: await actor };
        const ack = await o.gateway.sendCommand(entry, { type: cmd.type, target: cmd.value.target, onOff: cmd.value.onOff }, origin);
        reply(ack);
        // In the farm's audit trail, with the device's answer.
        audit
          .record({
            tenant: entry.clientId,
            farmId: entry.farmId,
            actorId: socket.data.clientId,
            address: socket.handshake.address,
            at: new Date(),
            kind: "command",
            entityId: String(entry.mcuId),
            action: "switched",
            before: null,
            after: { mcu: entry.name, target: cmd.value.target, type: cmd.type, on: cmd.value.onOff, ok: ack.ok, ...("message" in ack ? { message: ack.message } : {}) },
          })
          .catch((err: Error) => o.log?.(`realtime: audit of a command: ${err.message}`));
      } catch (err) {
        o.log?.(`realtime: sendCommand: ${(err as Error).message}`);
        reply({ ok: false, message: "The command could not be sent", reason: "command_not_sent" });
      }
    });

    socket.on(SOCKET_EVENTS.refresh, async (payload: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      try {
        const p = refreshPayload(payload);
        if (p instanceof type.errors) return reply({ ok: false, message: p.summary, reason: "invalid_message" });
        // Sending the settings again changes nothing on the device: anyone who may switch it may.
        const entry = await mcuFor(socket, p.mac || p.deviceId, "switchControllers");
        if ("ok" in entry) return reply(entry);
        await o.publishConfigOf(entry.mcuId);
        reply({ ok: true });
      } catch (err) {
        o.log?.(`realtime: refresh: ${(err as Error).message}`);
        reply({ ok: false, message: "The settings could not be sent to the device", reason: "settings_not_sent" });
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
  const coalescer = createCoalescer((clientId, flush, farms) => {
    sendFlush(io.to(clientRoom(clientId)), flush);
    const withMembers = farmsWithMembers(clientId);
    if (withMembers.size === 0) return;
    // Each farm with members gets its own part (a member sees only the farms they are on).
    const parts = new Map<number, Flush>();
    const partOf = (farm: number) => {
      let part = parts.get(farm);
      if (!part) parts.set(farm, (part = { data: [], status: [] }));
      return part;
    };
    flush.data.forEach((d, i) => withMembers.has(farms.data[i]!) && partOf(farms.data[i]!).data.push(d));
    flush.status.forEach((s, i) => withMembers.has(farms.status[i]!) && partOf(farms.status[i]!).status.push(s));
    for (const [farm, part] of parts) sendFlush(io.to(farmRoom(farm)), part, false);
  }, o.coalesceMs);

  /**
   * A frame to a room. `settles`: the frame whose write settles its readings' deliveries (the
   * account's own; a farm's members get a part of the same readings).
   */
  function sendFlush(room: ReturnType<typeof io.to>, flush: Flush, settles = true): void {
    // The readings' deliveries (QoS 1 telemetry, delivery.ts) go with the payload to the adapter,
    // and are settled once it is out: written here, and in the stream when it went there.
    let deliveries: Delivery[] | undefined;
    if (settles) {
      for (const d of flush.data) {
        const delivery = deliveryOf(d.payload);
        if (delivery) (deliveries ??= []).push(delivery);
      }
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
  }

  return {
    reading: (clientId, mac, reading, farmId) => coalescer.reading(clientId, mac, reading, farmId),
    status: (clientId, mac, status, farmId) => coalescer.status(clientId, mac, status, farmId),
    notification: (clientId, n) => emit(clientId, SOCKET_EVENTS.notification, n),
    collectionEvent: (clientId, event, payload) => {
      emit(clientId, event, payload);
      // A batch goes to the members of the farms its MCUs are on.
      if (event === "batch" && farmsWithMembers(clientId).size > 0) {
        void team.target({ batch: (payload as CollectionEvents["batch"]).batch_id }).then(
          (t) => t && t.farmIds.filter((f) => farmsWithMembers(clientId).has(f)).forEach((f) => io.to(farmRoom(f)).emit(event, payload)),
          (err: Error) => o.log?.(`realtime: a batch's farms: ${err.message}`),
        );
      }
    },
    alarm: (clientId, alarm) => {
      const room = io.to(clientRoom(clientId));
      (alarm.farm_id !== null && farmsWithMembers(clientId).has(alarm.farm_id) ? room.to(farmRoom(alarm.farm_id)) : room).emit(ALARM_EVENT, alarm);
    },
    endSession: (idHash) => io.in(sessionRoom(idHash)).disconnectSockets(true),
    membership(farmId, person, role) {
      // Rare next to readings: every account known here is read again.
      for (const tenant of memberFarms.keys()) void loadMemberFarms(tenant);
      const sockets = io.in(clientRoom(person));
      if (role === null) sockets.socketsLeave(farmRoom(farmId));
      else sockets.socketsJoin(farmRoom(farmId));
      io.to(clientRoom(person)).emit(SOCKET_EVENTS.farmRolesChanged, { farm_id: farmId, role });
      void team.target({ farm: farmId }).then(
        (t) => {
          if (!t) return;
          void loadMemberFarms(t.tenant);
          // After the rooms changed: someone who left hears only farmRolesChanged, someone who joined hears this too.
          io.to(clientRoom(t.tenant)).to(farmRoom(farmId)).emit(SOCKET_EVENTS.farmMembersChanged, { farm_id: farmId });
        },
        (err: Error) => o.log?.(`realtime: a farm's account: ${err.message}`),
      );
    },
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
