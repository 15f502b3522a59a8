import { connect as netConnect, type Socket } from "node:net";
import mqtt, { type IClientOptions, type IConnackPacket, type MqttClient } from "mqtt";
import { parseDeviceTopic, TOPICS } from "../../src/contract/mqtt.ts";
import type { DeviceBudget } from "./device-budget.ts";
import type { Delivery } from "./delivery.ts";
import { mqttClientOver, pubacks } from "./mqtt-client-internals.ts";
import { interceptReads } from "./node-socket-internals.ts";
import { telemetryDemux } from "./telemetry-demux.ts";

/** What a device sent: its topic and payload, and whether the broker replayed it as retained. */
export type DeviceMessageHandler = (topic: string, payload: Buffer, retained: boolean) => void;

/**
 * A device's telemetry, its MAC already known (the same string each time, for one connection):
 * the payload is `bytes[start, end)` (a socket's chunk, read in place: copy what must be kept).
 * A QoS 1 publish through an external broker comes with its delivery: the handler settles it
 * (at once, or hands it on with the reading: see delivery.ts).
 */
export type TelemetryHandler = (mac: string, bytes: Buffer, start: number, end: number, delivery?: Delivery) => void;

/**
 * The gateway's handlers as a transport holds them (set after it starts, replaced any time): what
 * a transport hands over goes to the handler of the moment; telemetry goes to the telemetry
 * handler when one is set, else as a message. A handler that throws is logged and the transport
 * goes on with the next message.
 */
export function deviceHandlers(log?: (msg: string) => void) {
  let handler: DeviceMessageHandler = () => {};
  let telemetryHandler: TelemetryHandler | undefined;
  const message = (topic: string, payload: Buffer, retained: boolean) => {
    try {
      handler(topic, payload, retained);
    } catch (err) {
      log?.(`gateway: ${topic}: ${(err as Error).message}`);
    }
  };
  return {
    message,
    telemetry(mac: string, bytes: Buffer, start = 0, end = bytes.length, delivery?: Delivery) {
      if (!telemetryHandler) {
        message(TOPICS.telemetry(mac), bytes.subarray(start, end), false);
        return delivery?.settle();
      }
      try {
        telemetryHandler(mac, bytes, start, end, delivery);
      } catch (err) {
        delivery?.settle();
        log?.(`gateway: telemetry of ${mac}: ${(err as Error).message}`);
      }
    },
    onMessage(h: DeviceMessageHandler) {
      handler = h;
    },
    onTelemetry(h: TelemetryHandler) {
      telemetryHandler = h;
    },
    /** Nothing more reaches the gateway (the transport closed). */
    clear() {
      handler = () => {};
      telemetryHandler = undefined;
    },
  };
}

/**
 * How the gateway hears devices and talks to them. With the embedded broker this is in the
 * broker's own process (no MQTT client, no loopback); with an external broker it is an MQTT
 * client with a shared subscription across server nodes.
 */
export interface DeviceTransport {
  /** Device telemetry, statuses and command acknowledgements (the gateway sets one handler). */
  onMessage(handler: DeviceMessageHandler): void;
  /**
   * Telemetry handed over apart, when the transport knows the device it came from (the embedded
   * broker); a transport without it hands telemetry to the message handler.
   */
  onTelemetry?(handler: TelemetryHandler): void;
  /** Publishes to a device's topic (commands, configs, keys). */
  publish(topic: string, payload: string, options: { qos: 0 | 1; retain?: boolean }): Promise<void>;
  /**
   * Hands the broker's retained message of `topic` to the handler again (retained = true), or
   * nothing when the broker holds none; resolves once done, or after `timeoutMs`.
   */
  replayRetained(topic: string, timeoutMs: number): Promise<void>;
  /** An external broker's sessions: QoS 1 telemetry not yet settled, sessions of dead nodes taken over, publishes sent again and skipped. */
  sessions?(): SessionStats;
  /** A device its message budget cuts off is disconnected (the embedded broker), not only ignored. */
  closesCutOffDevices?: boolean;
  close(): Promise<void>;
}

export interface SessionStats {
  unacknowledged: number;
  takenOver: number;
  resentSkipped: number;
}

export interface MqttTransportOptions {
  url: string;
  username: string;
  password: string;
  clientId: string;
  /** With an external broker, several server nodes share telemetry and status through this group. */
  shareGroup?: string;
  /**
   * The packet ids of `session` whose readings already went to the other nodes (the shared
   * stream's recent frames): a publish the broker sends again (DUP) with one of these ids is
   * acknowledged and skipped. Without it, a publish sent again is handled again.
   */
  delivered?: (session: string) => Promise<Set<number>>;
  /**
   * Every node hears a dead node's last will; the one for which this resolves true takes its
   * session over (a lock shared by the nodes). Without it, each node that hears it tries.
   */
  claim?: (session: string) => Promise<boolean>;
  /**
   * Each device's message budget: a message over it is dropped as it arrives (telemetry before it
   * is parsed; QoS 1 acknowledged all the same). The broker keeps the connection of a device it
   * cuts off: the device's messages are dropped until its cooldown is over.
   */
  budget?: DeviceBudget;
  log?: (msg: string) => void;
}

/**
 * How long the broker keeps a node's session (its QoS 1 telemetry not yet acknowledged, and what
 * is queued for it) after the node's connection is gone: the node itself when it reconnects, or
 * another node that takes the session over (see `mqttTransport`), picks them up. (While it is
 * kept, the session has its share of the group's telemetry: the broker queues QoS 1 for it and
 * drops QoS 0. Another node ends it as soon as it hears the will.)
 */
export const SESSION_EXPIRY_S = 60;
/** The topic of a node's last will (its client id): another node of its group takes over its session. */
export const gatewayGoneTopic = (group: string, clientId: string) => `gateways/${group}/${clientId}/gone`;

/** One connection's telemetry lane: the acknowledgements it still has to write, and what it holds. */
interface Lane {
  socket: Socket;
  session: string;
  /** Packet ids settled and not yet acknowledged (written together, once per turn of the loop). */
  acks: number[];
  /** Deliveries handed over and not yet settled. */
  outstanding: number;
  lastHeard: number;
  /** What a publish sent again is checked against (undefined while it is read: telemetry waits). */
  skip: Set<number> | undefined;
  waiting: { mac: string; bytes: Buffer; packetId: number; dup: boolean }[];
  /** Publishes sent again and skipped: their readings had already gone out. */
  skipped: number;
  /** The node is stopping: telemetry is no longer handed over (another node takes the session over). */
  stopped: boolean;
}

class LaneDelivery implements Delivery {
  private settled = false;
  constructor(
    private readonly lane: Lane,
    readonly packetId: number,
  ) {}
  get session() {
    return this.lane.session;
  }
  settle(): void {
    if (this.settled) return;
    this.settled = true;
    const lane = this.lane;
    lane.outstanding--;
    // An acknowledgement belongs to the connection the publish came on: after a reconnect the
    // broker sends it again (and it is skipped if its reading went out).
    if (lane.socket.destroyed) return;
    if (lane.acks.push(this.packetId) === 1) setImmediate(writeAcks, lane);
  }
}

/** The PUBACKs of all settled this turn, in one write. */
function writeAcks(lane: Lane): void {
  const ids = lane.acks;
  lane.acks = [];
  if (lane.socket.destroyed || ids.length === 0) return;
  lane.socket.write(pubacks(ids));
}

/**
 * An MQTT client (MQTT 5) whose TCP socket hands the devices' telemetry to `telemetry` before the
 * client's parser sees it (`telemetryDemux`); everything else reaches the client as before. QoS 1
 * telemetry is acknowledged here once its delivery is settled. Resolves with the client and its
 * first CONNACK; `lanes` gets each connection's lane (a reconnect is a new one).
 */
async function connectWithTelemetryLane(
  url: URL,
  options: IClientOptions & { clientId: string },
  telemetry: TelemetryHandler,
  delivered: MqttTransportOptions["delivered"],
  lanes: (lane: Lane) => void,
  log?: (msg: string) => void,
): Promise<{ client: MqttClient; connack: IConnackPacket }> {
  const client = mqttClientOver(() => {
    const socket = netConnect({ host: url.hostname, port: Number(url.port || 1883) });
    const lane: Lane = { socket, session: options.clientId, acks: [], outstanding: 0, lastHeard: Date.now(), skip: undefined, waiting: [], skipped: 0, stopped: false };
    lanes(lane);
    const take = (mac: string, bytes: Buffer, start: number, end: number, packetId: number, dup: boolean) => {
      if (lane.stopped) return;
      lane.lastHeard = Date.now();
      if (!lane.skip) return void lane.waiting.push({ mac, bytes: Buffer.from(bytes.subarray(start, end)), packetId, dup });
      if (packetId === 0) return telemetry(mac, bytes, start, end);
      lane.outstanding++;
      const delivery = new LaneDelivery(lane, packetId);
      if (dup && lane.skip.has(packetId)) {
        lane.skipped++;
        return delivery.settle();
      }
      telemetry(mac, bytes, start, end, delivery);
    };
    // A resumed session may start with publishes sent again: the frames already sent are read
    // first (telemetry waits, in order), then it flows.
    const ready = (skip: Set<number>) => {
      lane.skip = skip;
      const waiting = lane.waiting;
      lane.waiting = [];
      for (const w of waiting) take(w.mac, w.bytes, 0, w.bytes.length, w.packetId, w.dup);
    };
    if (delivered) {
      // (Telemetry waits at most 2 s: without the list, a publish sent again is handled again.)
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("no answer within 2 s")), 2000)));
      Promise.race([delivered(options.clientId), late])
        .then(ready, (err: Error) => {
          console.error(`gateway: reading what the session ${options.clientId} already sent: ${err.message}`);
          ready(new Set());
        })
        .finally(() => clearTimeout(timer));
    } else ready(new Set());
    interceptReads(socket, (push) => {
      let flowing = true;
      const demux = telemetryDemux(take, (bytes) => (flowing = push(bytes)), {
        v5: options.protocolVersion === 5,
        // The client reconnects; the broker sends again what this connection did not acknowledge.
        protocolError: (why) => {
          log?.(`gateway mqtt: closed the connection to the broker: ${why}`);
          socket.destroy();
        },
      });
      return (chunk, encoding) => {
        if (!Buffer.isBuffer(chunk)) return push(chunk, encoding);
        flowing = true;
        demux(chunk);
        return flowing;
      };
    });
    return socket;
  }, options);
  const connack = await new Promise<IConnackPacket>((resolve, reject) => {
    const fail = (err: Error) => {
      client.off("connect", ok);
      client.end(true);
      reject(err);
    };
    const ok = (packet: IConnackPacket) => {
      client.off("error", fail);
      resolve(packet);
    };
    client.once("connect", ok);
    client.once("error", fail);
  });
  return { client, connack };
}

/**
 * The gateway as an MQTT client of an external broker (Mosquitto), with a shared subscription.
 *
 * Its session outlives a connection (MQTT 5, `SESSION_EXPIRY_S`): QoS 1 telemetry is acknowledged
 * only once its reading is safe (delivery.ts), and until then the broker keeps it. When a node
 * dies or stops, the broker publishes its last will (retained); one other node of the group (one
 * running, or the next to start) takes its session over (connects with its client id), handles
 * what the dead node had not acknowledged and what was queued for it, leaves its subscriptions,
 * ends it and clears the will.
 */
export async function mqttTransport(o: MqttTransportOptions): Promise<DeviceTransport> {
  const handlers = deviceHandlers(o.log);
  const budget = o.budget;
  // A device's message over its budget goes no further than here.
  const telemetry: TelemetryHandler = budget
    ? (mac, bytes, start, end, delivery) => (budget.admit(mac) ? handlers.telemetry(mac, bytes, start, end, delivery) : delivery?.settle())
    : handlers.telemetry;
  /** A message of the client's parser (status, ack; telemetry without the lane); a retained one is the broker's replay, not counted. */
  const fromBroker = (topic: string, payload: Buffer, retained: boolean) => {
    if (budget && !retained) {
      const t = parseDeviceTopic(topic);
      if (t && !budget.admit(t.mac)) return;
    }
    handlers.message(topic, payload, retained);
  };
  const url = new URL(o.url);
  const shared = (topic: string) => (o.shareGroup ? `$share/${o.shareGroup}/${topic}` : topic);
  const group = o.shareGroup ?? "-";
  const subscriptions = {
    [shared("devices/+/telemetry")]: { qos: 1 as const },
    [shared("devices/+/status")]: { qos: 1 as const },
    // Every node hears every ack: only the node that sent the command is waiting for it.
    "devices/+/command/ack": { qos: 1 as const },
  };
  // Every node hears that another died (its will; not shared: the dead node's own session would get its share).
  const wills = { [gatewayGoneTopic(group, "+")]: { qos: 1 as const } };
  /** Over plain TCP telemetry takes the lane (and QoS 1 telemetry is acknowledged when safe). */
  const lane = url.protocol === "mqtt:" || url.protocol === "tcp:";
  // Without the lane (TLS, WebSocket) the MQTT client acknowledges each publish as it hands it
  // over: a session that outlived its node would only take its share of telemetry and drop it.
  const persistent = lane;
  const options = (clientId: string, expiry: number): IClientOptions & { clientId: string } => ({
    clientId,
    username: o.username,
    password: o.password,
    protocolVersion: 5,
    clean: !persistent,
    properties: { sessionExpiryInterval: persistent ? expiry : 0, receiveMaximum: 65535 },
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
  });
  const lanes = new Set<Lane>();
  let takenOver = 0;
  /** Publishes skipped by lanes no longer kept. */
  let resentSkipped = 0;
  const track = (lane: Lane) => {
    lanes.add(lane);
    lane.socket.once("close", () =>
      setTimeout(() => {
        lanes.delete(lane);
        resentSkipped += lane.skipped;
      }, 60_000).unref(),
    );
  };
  async function connect(opts: IClientOptions & { clientId: string }) {
    if (lane) return connectWithTelemetryLane(url, opts, telemetry, o.delivered, track, o.log);
    const client = await mqtt.connectAsync(o.url, opts);
    return { client, connack: { cmd: "connack", sessionPresent: false, returnCode: 0 } as IConnackPacket };
  }

  const will = { topic: gatewayGoneTopic(group, o.clientId), payload: Buffer.from(o.clientId), qos: 1 as const, retain: true };
  const { client } = await connect({ ...options(o.clientId, SESSION_EXPIRY_S), ...(persistent ? { will } : {}) });
  client.on("error", (err) => o.log?.(`gateway mqtt: ${err.message}`));
  const goneTopic = /^gateways\/[^/]+\/([^/]+)\/gone$/;
  client.on("message", (topic, payload, packet) => {
    const gone = goneTopic.exec(topic);
    // (Retained: a node that starts takes over sessions whose nodes died while no other ran. Empty: cleared.)
    if (gone) return void (payload.length > 0 && takeOver(gone[1]!));
    fromBroker(topic, payload, packet.retain);
  });
  await client.subscribeAsync(subscriptions);
  // A broker whose gateway role predates the wills (no `gateways/#`) refuses this one: the node
  // runs, but takes over no dead node's session.
  function hearWills() {
    if (!persistent) return;
    client.subscribe(wills, (err) => {
      if (err) o.log?.(`gateway mqtt: the broker refused the subscription to ${Object.keys(wills)[0]} (${err.message}): no dead node's session is taken over; the gateway user needs gateways/# besides devices/# (README)`);
    });
  }
  hearWills();
  // After a reconnect the will went out (the broker saw the connection go), and a node may have
  // taken the session over and left its subscriptions: this node says it is back and subscribes
  // again (a subscription made twice is the same one).
  client.on("connect", () => {
    if (persistent) client.publish(gatewayGoneTopic(group, o.clientId), "", { qos: 1, retain: true }, () => {});
    client.subscribe(subscriptions, (err) => {
      if (err) o.log?.(`gateway mqtt: subscribing again: ${err.message}`);
    });
    hearWills();
  });

  const takeovers = new Map<string, Promise<void>>();
  let closing = false;
  /**
   * Another node died: its session (what it had not acknowledged, what was queued for it) is
   * handled here. Connected with its client id, this node leaves its subscriptions (nothing new
   * is routed to it), handles what arrives until all is settled and the broker has been quiet a
   * moment, then ends the session (expiry 0).
   */
  function takeOver(session: string): void {
    if (session === o.clientId || takeovers.has(session) || closing || !persistent) return;
    const done = (async () => {
      if (o.claim && !(await o.claim(session))) return;
      const startedAt = Date.now();
      const { client: c, connack } = await connect({ ...options(session, 0), reconnectPeriod: 0 });
      c.on("error", (err) => o.log?.(`gateway mqtt (session ${session}): ${err.message}`));
      c.on("message", (topic, payload, packet) => goneTopic.test(topic) || fromBroker(topic, payload, packet.retain));
      const mine = [...lanes].filter((l) => l.session === session);
      if (connack.sessionPresent) {
        takenOver++;
        // (An error here — a subscription the session did not have — changes nothing: the session ends below.)
        await c.unsubscribeAsync([...Object.keys(subscriptions), ...Object.keys(wills)]).catch((err: Error) => o.log?.(`gateway mqtt (session ${session}): ${err.message}`));
        const settled = () => mine.every((l) => l.outstanding === 0 && l.skip && l.waiting.length === 0 && Date.now() - l.lastHeard > 300);
        while (!settled() && Date.now() - startedAt < 30_000 && !closing) await new Promise((r) => setTimeout(r, 50));
      }
      await c.endAsync();
      // The session is gone: so is its will.
      await client.publishAsync(gatewayGoneTopic(group, session), "", { qos: 1, retain: true });
      const skipped = mine.reduce((n, l) => n + l.skipped, 0);
      o.log?.(`gateway: took over the session of ${session}, a node that stopped${connack.sessionPresent ? ` (${skipped} publishes sent again were already delivered)` : ": it had ended"}`);
    })()
      .catch((err: Error) => o.log?.(`gateway: taking over the session of ${session}: ${err.message}`))
      .finally(() => setTimeout(() => takeovers.delete(session), 60_000).unref());
    takeovers.set(session, done);
  }

  return {
    onMessage: handlers.onMessage,
    onTelemetry: handlers.onTelemetry,
    async publish(topic, payload, options) {
      await client.publishAsync(topic, payload, options);
    },
    /**
     * The standing subscription to every device's status is shared between server nodes (or long
     * established), so the broker sends it no retained message. A subscription of its own to this
     * one topic does get the retained message; it is dropped again once that arrived.
     */
    async replayRetained(topic, timeoutMs) {
      let onMessage: ((t: string, p: Buffer, packet: { retain: boolean }) => void) | undefined;
      let timer: NodeJS.Timeout | undefined;
      const arrived = new Promise<void>((resolve) => {
        onMessage = (t, _p, packet) => t === topic && packet.retain && resolve();
        client.on("message", onMessage);
        timer = setTimeout(resolve, timeoutMs);
      });
      try {
        await client.subscribeAsync(topic, { qos: 1 });
        await arrived;
        await client.unsubscribeAsync(topic);
      } finally {
        clearTimeout(timer);
        client.off("message", onMessage!);
      }
    },
    sessions: () => ({
      unacknowledged: [...lanes].reduce((n, l) => n + l.outstanding, 0),
      takenOver,
      resentSkipped: resentSkipped + [...lanes].reduce((n, l) => n + l.skipped, 0),
    }),
    /**
     * Telemetry stops being handed over; what was handed over and goes out within a moment is
     * acknowledged. The rest (and what arrives meanwhile) another node takes over: the node leaves
     * with its last will (MQTT 5 reason 0x04), its session kept.
     */
    async close() {
      closing = true;
      await Promise.all(takeovers.values());
      for (const l of lanes) l.stopped = true;
      const deadline = Date.now() + 500;
      while ([...lanes].some((l) => l.outstanding > 0 && !l.socket.destroyed) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setImmediate(r)); // the last acknowledgements are written
      handlers.clear();
      await client.endAsync(false, { reasonCode: 0x04 });
    },
  };
}
