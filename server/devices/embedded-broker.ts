import { createServer, type Server, type Socket } from "node:net";
import { Aedes, type Client, type PublishPacket, type Subscription } from "aedes";
import { normalizeMac } from "../../src/contract/mac.ts";
import { MAX_DEVICE_PAYLOAD_BYTES, parseDeviceTopic, TOPICS } from "../../src/contract/mqtt.ts";
import type { DeviceBudget } from "./device-budget.ts";
import { checkAedes, connectedClient, interceptPublishes, keepaliveRestarter, retainedMessages } from "./aedes-internals.ts";
import { deviceHandlers, type DeviceTransport } from "./device-transport.ts";
import { mqttConnectionGuard, type MqttConnectionLimits } from "./mqtt-frame-guard.ts";

export interface EmbeddedBrokerOptions {
  host: string;
  port: number;
  /**
   * Credentials of an MQTT client that may use every devices/ topic (a tool, another process).
   * The server's own gateway needs none: it uses the broker in-process (`transport()`).
   */
  gateway?: { username: string; password: string };
  /** True when `mac` is a provisioned MCU whose device key is `key`. */
  authenticateDevice(mac: string, key: string): Promise<boolean>;
  log?: (msg: string) => void;
  /** Packet sizes and unauthenticated connections (defaults: DEFAULT_MQTT_LIMITS). */
  limits?: Partial<MqttConnectionLimits>;
  /**
   * Each device's message budget: a message over it is dropped as it is read (its telemetry
   * before it is parsed); a device the budget cuts off is disconnected, and refused at connect
   * until its cooldown is over.
   */
  budget?: DeviceBudget;
}

/**
 * A CONNECT carries a client id, a MAC, a key and perhaps a will: far under 4 KiB. After it, a
 * device publishes at most MAX_DEVICE_PAYLOAD_BYTES (and its topic); the gateway's configs are small.
 */
export const DEFAULT_MQTT_LIMITS: MqttConnectionLimits = { beforeAuthBytes: 4096, afterAuthBytes: MAX_DEVICE_PAYLOAD_BYTES + 1024, unauthenticatedPerAddress: 256 };

export interface EmbeddedBroker {
  port: number;
  url: string;
  /** Devices connected right now (a gateway client not counted). */
  connectedDevices(): number;
  /** Telemetry messages taken around the broker's parser, from the devices' sockets, since the start. */
  fastLaneMessages(): number;
  /**
   * The gateway's way in, in this process: device telemetry and acknowledgements are handed over
   * as the broker reads them, without routing them to any subscriber (none may hear them but the
   * server); statuses are stored as retained first, as MQTT has it. Publishes go straight into the
   * broker.
   */
  transport(): DeviceTransport;
  close(): Promise<void>;
}

/** Topics a device may publish to (its own) and subscribe to (its own). */
const DEVICE_PUBLISH = new Set(["telemetry", "status", "command/ack"]);
const DEVICE_SUBSCRIBE = new Set(["command", "config", "key"]);

type Authed = Client & { isGateway?: boolean };

/**
 * The embedded MQTT broker (Aedes). A device connects with client id = username = its MAC and
 * its device key as password; it may only publish and subscribe on its own devices/{MAC}/ topics.
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker({
    heartbeatInterval: 3600_000,
    drainTimeout: 10_000,
    maxClientsIdLength: 64,
    // A connection that has not authenticated within this is closed.
    connectTimeout: 5_000,
  });
  checkAedes(broker);
  let gatewayClients = 0;
  let fastLaneMessages = 0;
  const guard = mqttConnectionGuard({ ...DEFAULT_MQTT_LIMITS, ...options.limits }, options.log);
  const budget = options.budget;
  budget?.onCutOff(({ mac, cooldownMs }) => {
    // Not inside the socket read that tripped it: the lane is still taking that chunk's publishes.
    setImmediate(() => {
      const client = connectedClient(broker, mac);
      if (!client) return;
      options.log?.(`mqtt: disconnected ${mac}, over its message budget; refused for ${Math.round(cooldownMs / 1000)} s`);
      client.close();
    });
  });

  broker.authenticate = (client, username, password, done) => {
    const c = client as Authed;
    const fail = () => {
      const err = Object.assign(new Error("Bad username or password"), { returnCode: 4 });
      done(err, false);
    };
    if (!username || !password) return fail();
    const secret = password.toString("utf8");
    if (options.gateway && username === options.gateway.username) {
      if (secret !== options.gateway.password) return fail();
      c.isGateway = true;
      gatewayClients++;
      guard.authenticated(client.conn as Socket);
      return done(null, true);
    }
    // The client id must be the MAC it authenticates as, in the canonical form.
    if (client.id !== username || normalizeMac(username) !== username) return fail();
    // A device cut off for sending too much waits out its cooldown ("server unavailable": try again later).
    if (budget?.isCutOff(username)) return done(Object.assign(new Error("Over its message budget: try again later"), { returnCode: 3 }), false);
    options.authenticateDevice(username, secret).then(
      (ok) => {
        if (!ok) return fail();
        guard.authenticated(client.conn as Socket);
        done(null, true);
      },
      () => fail(),
    );
  };

  broker.authorizePublish = (client, packet: PublishPacket, done) => {
    const c = client as Authed | null;
    // A QoS 1 or 2 publish needs a non-zero packet id (MQTT 3.1.1 §2.3.1, MQTT 5 §2.2.1): the error
    // closes the connection before the publish is acknowledged or handed over.
    if (packet.qos > 0 && packet.messageId === 0) return done(new Error("protocol error: a QoS 1 or 2 publish with packet id 0"));
    if (c?.isGateway) return done(null);
    const t = parseDeviceTopic(packet.topic);
    // client is null only for a stored will published after the device is gone: it passed this check when set.
    const mac = c ? c.id : t?.mac;
    if (!t || t.mac !== mac || !DEVICE_PUBLISH.has(t.rest)) return done(new Error(`not allowed to publish to ${packet.topic}`));
    if (packet.payload.length > MAX_DEVICE_PAYLOAD_BYTES) return done(new Error("payload too large"));
    if (packet.retain && t.rest !== "status") packet.retain = false;
    done(null);
  };

  broker.authorizeSubscribe = (client, sub: Subscription, done) => {
    const c = client as Authed;
    if (c.isGateway) return done(null, sub);
    const t = parseDeviceTopic(sub.topic);
    // A refused subscription is answered with return code 128 rather than a dropped connection.
    done(null, t && t.mac === c.id && DEVICE_SUBSCRIBE.has(t.rest) ? sub : null);
  };

  // Retained messages and live deliveries both pass here: nothing crosses from one device to another.
  broker.authorizeForward = (client, packet) => {
    const c = client as Authed;
    if (c.isGateway) return packet;
    const t = parseDeviceTopic(packet.topic);
    return t && t.mac === c.id ? packet : null;
  };

  // Once a device is connected, its telemetry goes around the broker's parser, straight from its
  // socket to the gateway (the broker would only hand it over: no one else may hear it). Same
  // checks: its own topic only (the ACL above), the payload limit, QoS 0; anything else, and
  // anything after bytes the broker has yet to read, still passes through the broker. MQTT 5
  // publishes carry properties, so only 3.1/3.1.1 connections have the lane.
  broker.on("connackSent", (_connack, client) => {
    const c = client as Authed;
    if (c.isGateway || (c.version !== 3 && c.version !== 4) || !c.conn) return;
    const mac = c.id;
    guard.lane(c.conn as Socket, {
      topic: Buffer.from(TOPICS.telemetry(mac)),
      maxPayload: MAX_DEVICE_PAYLOAD_BYTES,
      take: (chunk, start, end) => {
        fastLaneMessages++;
        // Over budget: dropped here, before it is copied or parsed.
        if (budget && !budget.admit(mac)) return;
        handTelemetry(mac, chunk, start, end);
      },
      // The broker's keepalive timer restarts on every packet it reads; these it does not read.
      heard: keepaliveRestarter(c),
    });
  });

  broker.on("clientError", (client, err) => options.log?.(`mqtt client ${client.id}: ${err.message}`));
  broker.on("clientDisconnect", (client) => {
    if ((client as Authed).isGateway) gatewayClients--;
  });

  const handlers = deviceHandlers(options.log);
  const hand = (topic: string, payload: Buffer | string, retained: boolean) => handlers.message(topic, Buffer.isBuffer(payload) ? payload : Buffer.from(payload), retained);
  const handTelemetry = handlers.telemetry;
  // Every publish passes here: a device's, a last-will, and the server's own.
  const route = interceptPublishes(broker, (route) => (packet, client, done) => {
    const t = parseDeviceTopic(packet.topic);
    const rest = t?.rest;
    // A device's own message over its budget is dropped (a QoS 1 one is acknowledged all the same:
    // sent again, it would only be dropped again). Wills are the broker's, not counted.
    if (t && budget && client && !(client as Authed).isGateway && DEVICE_PUBLISH.has(t.rest) && !budget.admit(t.mac)) return done?.();
    if (rest === "telemetry") {
      handTelemetry(t!.mac, Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload));
      return done?.();
    }
    if (rest === "command/ack") {
      hand(packet.topic, packet.payload, false);
      return done?.();
    }
    if (rest === "status") {
      return route(packet, client, (err?: Error) => {
        if (!err) hand(packet.topic, packet.payload, false);
        done?.(err);
      });
    }
    return route(packet, client, done);
  });

  const server: Server = createServer((socket) => {
    if (guard.admit(socket)) broker.handle(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const host = options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host;

  return {
    port,
    url: `mqtt://${host}:${port}`,
    connectedDevices: () => Math.max(0, broker.connectedClients - gatewayClients),
    fastLaneMessages: () => fastLaneMessages,
    transport: () => ({
      closesCutOffDevices: budget !== undefined,
      onMessage: handlers.onMessage,
      onTelemetry: handlers.onTelemetry,
      publish: (topic, payload, { qos, retain = false }) =>
        new Promise<void>((resolve, reject) =>
          route({ cmd: "publish", topic, payload: Buffer.from(payload), qos, retain, dup: false } as PublishPacket, null, (err?: Error) => (err ? reject(err) : resolve())),
        ),
      async replayRetained(topic) {
        for await (const packet of retainedMessages(broker, topic)) hand(packet.topic, packet.payload, true);
      },
      async close() {
        handlers.clear();
      },
    }),
    async close() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
