import mqtt, { type MqttClient } from "mqtt";
import { type } from "arktype";
import { profileConfig, type ProfileConfig } from "../../src/contract/entities.ts";
import { commandMessage, keyMessage, TOPICS, type CommandAckMessage, type KeyMessage } from "../../src/contract/mqtt.ts";
import { ambientAt, DEFAULT_CONFIG, initialRoom, rng, stepRoom, telemetryOf, type RoomState, type SensorCounts } from "./physics.ts";

export interface FleetDevice {
  mac: string;
  key: string;
  counts: SensorCounts;
  /** Starting battery level; random when absent. */
  battery?: number;
  seed: number;
  /** The room to start from (the demo's seeded history ends in it); a new one from `seed` when absent. */
  room?: RoomState;
}

export interface SimulatedMcuOptions {
  url: string;
  device: FleetDevice;
  /** Seconds of keepalive: how soon the broker notices a device that vanished. */
  keepalive?: number;
  now?: () => number;
  log?: (msg: string) => void;
  /** The device was sent a new key and switched to it: firmware writes it to flash, the demo to its table. */
  onKey?: (mac: string, key: string) => void;
  /** Report the room's values exactly, without a sensor's noise (tests that set a value and look for it). */
  exact?: boolean;
  /** Telemetry at QoS 1 (the broker acknowledges each; a server node that dies loses none) or 0 (the default: at most once). */
  telemetryQos?: 0 | 1;
}

/**
 * One simulated MCU speaking the device contract like firmware would: it connects with its MAC
 * and device key, leaves a last-will, reports telemetry, follows its linked profile, and obeys
 * and acknowledges commands.
 */
export class SimulatedMcu {
  readonly mac: string;
  readonly room: RoomState;
  config: ProfileConfig = DEFAULT_CONFIG;
  /** Set when the broker delivered a config (or its removal), for tests. */
  configReceived: ProfileConfig | null | undefined = undefined;
  commandsHandled = 0;
  private readonly random: () => number;
  private readonly now: () => number;
  private client: MqttClient | undefined;

  constructor(private readonly o: SimulatedMcuOptions) {
    this.mac = o.device.mac;
    this.random = rng(o.device.seed);
    this.room = o.device.room ?? initialRoom(this.random, o.device.battery);
    this.now = o.now ?? Date.now;
  }

  /** The key it connects with (a new one once it was sent one). */
  get key(): string {
    return this.o.device.key;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** Connects (and keeps reconnecting in the background); resolves at the first connection. */
  start(): Promise<void> {
    const { mac, key } = this.o.device;
    const client = mqtt.connect(this.o.url, {
      clientId: mac,
      username: mac,
      password: key,
      clean: true,
      keepalive: this.o.keepalive ?? 30,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
      will: { topic: TOPICS.status(mac), payload: Buffer.from("offline"), qos: 1, retain: true },
    });
    this.client = client;
    client.on("error", (err) => this.o.log?.(`${mac}: ${err.message}`));
    client.on("message", (topic, payload) => this.onMessage(topic, payload));
    client.on("connect", () => {
      client.publish(TOPICS.status(mac), "online", { qos: 1, retain: true });
      client.subscribe({ [TOPICS.command(mac)]: { qos: 1 }, [TOPICS.config(mac)]: { qos: 1 }, [TOPICS.key(mac)]: { qos: 1 } });
      this.report();
    });
    return new Promise((resolve, reject) => {
      client.once("connect", () => resolve());
      client.once("error", (err) => reject(err));
    });
  }

  /** Advances the room by `dt` simulated seconds, with the outside temperature of this time of day. */
  step(dt: number): void {
    stepRoom(this.room, this.config, dt, this.random, ambientAt(this.now()));
  }

  /** Telemetry reports published since the start (on connect, on the fleet's beat, after a command). */
  reportsSent = 0;

  report(): void {
    if (!this.client?.connected) return;
    this.reportsSent++;
    this.client.publish(TOPICS.telemetry(this.mac), JSON.stringify(telemetryOf(this.room, this.o.device.counts, this.o.exact ? undefined : this.random)), { qos: this.o.telemetryQos ?? 0 });
  }

  private onMessage(topic: string, payload: Buffer): void {
    if (topic === TOPICS.key(this.mac)) return this.onKey(payload);
    if (topic === TOPICS.config(this.mac)) {
      if (payload.length === 0) {
        this.config = DEFAULT_CONFIG;
        this.configReceived = null;
        return;
      }
      try {
        const parsed = profileConfig(JSON.parse(payload.toString("utf8")));
        if (!(parsed instanceof type.errors)) {
          this.config = parsed;
          this.configReceived = parsed;
        }
      } catch {
        // A config that is not JSON is ignored; the device keeps the one it has.
      }
      return;
    }
    if (topic === TOPICS.command(this.mac)) this.onCommand(payload);
  }

  /** A new device key (the MCU was released): keep it, then connect again with it. */
  private onKey(payload: Buffer): void {
    if (payload.length === 0) return;
    let message: unknown;
    try {
      message = keyMessage(JSON.parse(payload.toString("utf8")));
    } catch {
      return;
    }
    if (message instanceof type.errors) return;
    const { key } = message as KeyMessage;
    if (key === this.o.device.key) return;
    this.o.device.key = key;
    this.o.onKey?.(this.mac, key);
    const old = this.client;
    if (!old) return;
    this.client = undefined;
    // A proper goodbye: the broker drops the last-will, so switching keys is no outage.
    old
      .endAsync()
      .then(() => this.start())
      .catch((err: Error) => this.o.log?.(`${this.mac}: reconnecting with the new key: ${err.message}`));
  }

  private onCommand(payload: Buffer): void {
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString("utf8"));
    } catch {
      return;
    }
    const cmd = commandMessage(raw);
    if (cmd instanceof type.errors) return;
    const ack = (ok: boolean, error?: string) => {
      const message: CommandAckMessage = error ? { id: cmd.id, ok, error } : { id: cmd.id, ok };
      this.client?.publish(TOPICS.commandAck(this.mac), JSON.stringify(message), { qos: 1 });
    };
    // A command that waited too long (the device was offline) is stale: never act on it.
    if (cmd.expiresAt < this.now()) return ack(false, "The command expired before it reached the device");
    const actuator = this.room.actuators[cmd.target];
    if (cmd.type === "auto") {
      actuator.auto = cmd.onOff;
    } else {
      if (actuator.auto) return ack(false, `Turn Automation off to switch ${cmd.target} by hand`);
      actuator.status = cmd.onOff;
    }
    // A person's command: the automation's last switch of this controller no longer explains its state.
    delete this.room.switched[cmd.target];
    this.commandsHandled++;
    ack(true);
    this.report();
  }

  /**
   * Stops; `clean` says goodbye (offline status), otherwise the connection just drops (last-will).
   * `silent` disconnects properly without a word, so the broker discards the last-will too.
   */
  async stop({ clean = true, silent = false } = {}): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    if (silent && client.connected) {
      await client.endAsync();
    } else if (clean && client.connected) {
      await client.publishAsync(TOPICS.status(this.mac), "offline", { qos: 1, retain: true }).catch(() => undefined);
      await client.endAsync();
    } else {
      client.options.reconnectPeriod = 0;
      client.stream?.destroy();
      await client.endAsync(true);
    }
  }
}
