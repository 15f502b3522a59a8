import { connect as netConnect } from "node:net";
import mqtt, { MqttClient, type IClientOptions } from "mqtt";
import { TOPICS } from "../../src/contract/mqtt.ts";
import { telemetryDemux } from "./telemetry-demux.ts";

/** What a device sent: its topic and payload, and whether the broker replayed it as retained. */
export type DeviceMessageHandler = (topic: string, payload: Buffer, retained: boolean) => void;

/**
 * A device's telemetry, its MAC already known (the same string each time, for one connection):
 * the payload is `bytes[start, end)` (a socket's chunk, read in place: copy what must be kept).
 */
export type TelemetryHandler = (mac: string, bytes: Buffer, start: number, end: number) => void;

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
    telemetry(mac: string, bytes: Buffer, start = 0, end = bytes.length) {
      if (!telemetryHandler) return message(TOPICS.telemetry(mac), bytes.subarray(start, end), false);
      try {
        telemetryHandler(mac, bytes, start, end);
      } catch (err) {
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
  close(): Promise<void>;
}

export interface MqttTransportOptions {
  url: string;
  username: string;
  password: string;
  clientId: string;
  /** With an external broker, several server nodes share telemetry and status through this group. */
  shareGroup?: string;
  log?: (msg: string) => void;
}

/**
 * An MQTT client whose TCP socket hands the devices' plain telemetry to `telemetry` before the
 * client's parser sees it (`telemetryDemux`); everything else reaches the client as before.
 */
async function connectWithTelemetryLane(url: URL, options: IClientOptions, telemetry: TelemetryHandler): Promise<MqttClient> {
  const client = new MqttClient(() => {
    const socket = netConnect({ host: url.hostname, port: Number(url.port || 1883) });
    const push = socket.push.bind(socket);
    let flowing = true;
    const demux = telemetryDemux(telemetry, (bytes) => (flowing = push(bytes)));
    socket.push = (chunk: unknown, encoding?: BufferEncoding) => {
      if (!Buffer.isBuffer(chunk)) return push(chunk, encoding);
      flowing = true;
      demux(chunk);
      return flowing;
    };
    return socket;
  }, options);
  await new Promise<void>((resolve, reject) => {
    const fail = (err: Error) => {
      client.off("connect", ok);
      client.end(true);
      reject(err);
    };
    const ok = () => {
      client.off("error", fail);
      resolve();
    };
    client.once("connect", ok);
    client.once("error", fail);
  });
  return client;
}

/** The gateway as an MQTT client of an external broker (Mosquitto), with a shared subscription. */
export async function mqttTransport(o: MqttTransportOptions): Promise<DeviceTransport> {
  const handlers = deviceHandlers(o.log);
  const options: IClientOptions = {
    clientId: o.clientId,
    username: o.username,
    password: o.password,
    clean: true,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
  };
  const url = new URL(o.url);
  // Over plain TCP the telemetry takes the lane.
  const client: MqttClient = url.protocol === "mqtt:" || url.protocol === "tcp:" ? await connectWithTelemetryLane(url, options, handlers.telemetry) : await mqtt.connectAsync(o.url, options);
  client.on("error", (err) => o.log?.(`gateway mqtt: ${err.message}`));
  client.on("message", (topic, payload, packet) => handlers.message(topic, payload, packet.retain));

  const shared = (topic: string) => (o.shareGroup ? `$share/${o.shareGroup}/${topic}` : topic);
  await client.subscribeAsync({
    [shared("devices/+/telemetry")]: { qos: 0 },
    [shared("devices/+/status")]: { qos: 1 },
    // Every node hears every ack: only the node that sent the command is waiting for it.
    "devices/+/command/ack": { qos: 1 },
  });

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
    async close() {
      handlers.clear();
      await client.endAsync();
    },
  };
}
