import { randomUUID } from "node:crypto";
import { type } from "arktype";
import type { LiveReading, McuStatus, ProfileConfig } from "../../src/contract/entities.ts";
import { checkTelemetry, commandAckMessage, MAX_DEVICE_PAYLOAD_BYTES, parseDeviceTopic, statusMessage, TOPICS, type CommandMessage, type TelemetryMessage, type KeyMessage } from "../../src/contract/mqtt.ts";
import type { ServerAck } from "../errors.ts";
import type { Sql } from "../db/database.ts";
import { mcuLiveRepo } from "../db/mcu-live-repo.ts";
import type { CommandRecorder, FinalOutcome } from "../history/command-log.ts";
import type { McuDirectory, McuEntry } from "./mcu-directory.ts";
import type { DeviceBudget, DeviceCutOff } from "./device-budget.ts";
import type { DeviceTransport, SessionStats } from "./device-transport.ts";
import { attachDelivery, type Delivery } from "./delivery.ts";
import type { ReadingsWriter } from "./readings-writer.ts";

export interface GatewayOptions {
  /** In the embedded broker's process, or an MQTT client of an external broker. */
  transport: DeviceTransport;
  db: Sql;
  directory: McuDirectory;
  writer: ReadingsWriter;
  now: () => Date;
  /** How long a command waits for the device's acknowledgement. */
  commandTimeoutMs?: number;
  /** How long a re-read waits for the broker's retained status before giving up (there may be none). */
  rereadTimeoutMs?: number;
  /**
   * A reading arrived (`at`: when, the time it is stamped with). A reading of QoS 1 telemetry
   * carries its delivery (delivery.ts): whoever sends it on settles it once it is out.
   */
  onReading(entry: McuEntry, reading: LiveReading, at: Date): void;
  /** The MCU's status changed (`previous` is what it was), by a status message or by a reading. */
  onStatus(entry: McuEntry, status: "online" | "offline", previous: McuStatus): void;
  /** The command log: every command sent, and what became of it. */
  commandLog?: CommandRecorder;
  /**
   * The devices' message budget, applied by the transport where their messages come in (the same
   * object): its drops are counted in the stats, and a device it cuts off is reported with `onCutOff`.
   */
  budget?: DeviceBudget;
  /**
   * A device was cut off for sending too much (`disconnected`: its connection was closed; an
   * external broker keeps it, and its messages are dropped instead). Not called for a device no
   * one owns, nor for a cut-off of the same episode (DeviceCutOff.again).
   */
  onCutOff?(entry: McuEntry, cutOff: DeviceCutOff, disconnected: boolean): void;
  log?: (msg: string) => void;
}

/** Who sent a command (the command log's `client_id` and `actor`). */
export interface CommandOrigin {
  clientId: number;
  /** The sender's username at the time. */
  actor: string | null;
}

export interface GatewayStats {
  telemetry: number;
  statuses: number;
  acks: number;
  /** `overBudget`: messages of devices over their message budget, or cut off for staying over it. */
  dropped: { invalid: number; tooLarge: number; unknownDevice: number; overBudget: number };
  /** Devices cut off for sending too much since the start, and cut off right now. */
  cutOff: { total: number; now: number };
  /** With an external broker: its sessions (QoS 1 telemetry, nodes taken over). */
  sessions?: SessionStats;
}

export interface Gateway {
  /** Sends a command and answers once the device acknowledged it, refused it, or did not answer in time; each is recorded in the command log. */
  sendCommand(entry: McuEntry, command: Omit<CommandMessage, "id" | "expiresAt">, origin?: CommandOrigin): Promise<ServerAck>;
  /** Publishes a profile config to the device, retained; null clears it (unlinked). */
  publishConfig(mac: string, config: ProfileConfig | null): Promise<void>;
  /** Publishes the device's next key to it, retained (ARCHITECTURE's contract + `devices/{MAC}/key`); null clears it. */
  publishKey(mac: string, key: string | null): Promise<void>;
  /**
   * Has the broker send the device's retained status again and handles it like a new one: an MCU
   * was just claimed, and the status its device published before that was dropped (unknown MAC).
   * Resolves once the status arrived, or after `rereadTimeoutMs` when the broker holds none.
   */
  rereadStatus(mac: string): Promise<void>;
  /**
   * Starts hearing devices: from here on, what they send is handled. Called once whatever hears
   * the gateway's readings and statuses is wired, so none is handled before they listen.
   */
  start(): void;
  stats(): GatewayStats;
  close(): Promise<void>;
}

/**
 * The server's side of the device contract (ARCHITECTURE.md), over the embedded broker in this
 * process or an external broker (see DeviceTransport). It validates what devices send, drops and
 * counts what is bad, and turns the rest into readings, statuses and command acknowledgements.
 */
export function createGateway(o: GatewayOptions): Gateway {
  const timeoutMs = o.commandTimeoutMs ?? 5000;
  const rereadTimeoutMs = o.rereadTimeoutMs ?? 2000;
  const stats: Omit<GatewayStats, "cutOff"> = { telemetry: 0, statuses: 0, acks: 0, dropped: { invalid: 0, tooLarge: 0, unknownDevice: 0, overBudget: 0 } };
  const waiting = new Map<string, { mac: string; resolve: (ack: ServerAck, outcome: FinalOutcome) => void }>();
  const rereads = new Map<string, Promise<void>>();

  const transport = o.transport;
  const mcus = mcuLiveRepo(o.db);

  // Readings arrive several to a millisecond: the same time is written out once.
  let isoMs = NaN;
  let iso = "";
  function isoOf(at: Date): string {
    const ms = at.getTime();
    if (ms !== isoMs) {
      isoMs = ms;
      iso = at.toISOString();
    }
    return iso;
  }

  function parseJson(text: string): unknown {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  /**
   * The hot path (every reading of every device): synchronous while the MCU is in the directory's
   * cache, which it is but for one lookup in 30 s; no promise, no copy of the reading.
   */
  /** A reading dropped (counted): its QoS 1 publish is done with too. */
  function drop(why: Exclude<keyof GatewayStats["dropped"], "overBudget">, delivery: Delivery | undefined): undefined {
    stats.dropped[why]++;
    delivery?.settle();
    return undefined;
  }

  function onTelemetry(mac: string, text: string, delivery?: Delivery): Promise<void> | undefined {
    const json = parseJson(text);
    // An array is an object to the schema; a reading never is one.
    if (Array.isArray(json)) return drop("invalid", delivery);
    const data = checkTelemetry(json);
    if (data instanceof type.errors) return drop("invalid", delivery);
    const entry = o.directory.cached(mac);
    if (entry === undefined) {
      return o.directory.lookup(mac).then(
        (e) => ingest(e, data, delivery),
        (err: unknown) => {
          delivery?.settle();
          throw err;
        },
      );
    }
    return ingest(entry, data, delivery);
  }

  function ingest(entry: McuEntry | null, data: TelemetryMessage, delivery?: Delivery): Promise<void> | undefined {
    if (!entry) return drop("unknownDevice", delivery);
    stats.telemetry++;
    const at = o.now();
    // The checked message is this reading's own object (checked in place): it becomes the reading.
    const reading = data as LiveReading;
    reading.lastUpdated = isoOf(at);
    o.writer.put(entry.mcuId, reading, at);
    attachDelivery(reading, delivery);
    o.onReading(entry, reading, at);
    // A device that reports is reachable, whatever status was last heard (or missed) for it.
    if (entry.status !== "online") return setStatus(entry, "online");
  }

  async function onStatus(mac: string, payload: Buffer) {
    const status = statusMessage(payload.toString("utf8").trim());
    if (status instanceof type.errors) return void stats.dropped.invalid++;
    const entry = await o.directory.lookup(mac);
    if (!entry) return void stats.dropped.unknownDevice++;
    stats.statuses++;
    await setStatus(entry, status);
  }

  /** The MCUs' status writes, one after another per MAC, so that the last one heard is the one stored. */
  const statusWrites = new Map<string, Promise<unknown>>();

  /**
   * The one place an MCU's reachability changes: the directory's cached entry (which commands
   * check), the mcus row (the REST list, the socket's snapshot), then the owner's sockets and
   * alerts, once per change.
   */
  async function setStatus(entry: McuEntry, status: "online" | "offline"): Promise<void> {
    const { mac } = entry;
    const previous = entry.status;
    entry.status = status;
    o.directory.setStatus(mac, status);
    const write = (statusWrites.get(mac) ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => mcus.setStatus(mac, status));
    statusWrites.set(mac, write);
    try {
      await write;
    } finally {
      if (statusWrites.get(mac) === write) statusWrites.delete(mac);
    }
    if (previous !== status) o.onStatus(entry, status, previous);
  }

  function onAck(payload: Buffer) {
    const ack = commandAckMessage(parseJson(payload.toString("utf8")));
    if (ack instanceof type.errors) return void stats.dropped.invalid++;
    const w = waiting.get(ack.id);
    if (!w) return;
    stats.acks++;
    waiting.delete(ack.id);
    if (ack.ok) w.resolve({ ok: true }, "acknowledged");
    else w.resolve({ ok: false, message: ack.error || "The device refused the command", reason: "device_refused" }, "refused");
  }

  let started = false;
  function start(): void {
    if (started) return;
    started = true;
    o.budget?.onCutOff((cutOff) => {
      if (cutOff.again) return;
      o.log?.(`gateway: ${cutOff.mac} sent ${cutOff.messages} messages in ${cutOff.seconds} s (its budget: ${cutOff.perSecond}/s): cut off for ${Math.round(cutOff.cooldownMs / 1000)} s`);
      o.directory.lookup(cutOff.mac).then(
        (entry) => entry && o.onCutOff?.(entry, cutOff, transport.closesCutOffDevices === true),
        (err: Error) => o.log?.(`gateway: owner of ${cutOff.mac}: ${err.message}`),
      );
    });

    const fail = (about: string) => (err: Error) => {
      stats.dropped.invalid++;
      o.log?.(`gateway: ${about}: ${err.message}`);
    };
    transport.onTelemetry?.((mac, bytes, from, to, delivery) => {
      if (to - from > MAX_DEVICE_PAYLOAD_BYTES) return drop("tooLarge", delivery);
      onTelemetry(mac, bytes.toString("utf8", from, to), delivery)?.catch(fail(TOPICS.telemetry(mac)));
    });
    transport.onMessage((topic, payload) => {
      const t = parseDeviceTopic(topic);
      if (!t) return;
      if (payload.length > MAX_DEVICE_PAYLOAD_BYTES) return void stats.dropped.tooLarge++;
      const handle =
        t.rest === "telemetry" ? onTelemetry(t.mac, payload.toString("utf8")) : t.rest === "status" ? onStatus(t.mac, payload) : t.rest === "command/ack" ? Promise.resolve(onAck(payload)) : undefined;
      handle?.catch(fail(topic));
    });
  }

  return {
    start,
    async sendCommand(entry, command, origin) {
      const id = randomUUID();
      const sentAt = o.now().getTime();
      o.commandLog?.sent({
        commandId: id,
        mcuId: entry.mcuId,
        clientId: origin?.clientId ?? entry.clientId,
        actor: origin?.actor ?? null,
        target: command.target,
        type: command.type,
        onOff: command.onOff,
        at: sentAt,
      });
      const finish = (ack: ServerAck, outcome: FinalOutcome): ServerAck => {
        o.commandLog?.answered(id, outcome, ack.ok ? null : ack.message, o.now().getTime());
        return ack;
      };
      // Refused here, never sent: still logged, with the reason the user was given.
      if (entry.status !== "online") return finish({ ok: false, message: `${entry.name} is offline`, reason: "device_offline", params: { name: entry.name } }, "failed");
      const message: CommandMessage = { id, ...command, expiresAt: sentAt + timeoutMs };
      const answer = new Promise<ServerAck>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(finish({ ok: false, message: `${entry.name} did not answer in time`, reason: "device_no_answer", params: { name: entry.name } }, "timed_out"));
        }, timeoutMs);
        waiting.set(id, {
          mac: entry.mac,
          resolve: (ack, outcome) => {
            clearTimeout(timer);
            resolve(finish(ack, outcome));
          },
        });
      });
      try {
        await transport.publish(TOPICS.command(entry.mac), JSON.stringify(message), { qos: 1 });
      } catch (err) {
        waiting.get(id)?.resolve({ ok: false, message: "The device gateway is not connected", reason: "gateway_down" }, "failed");
        waiting.delete(id);
        o.log?.(`gateway: command to ${entry.mac}: ${(err as Error).message}`);
      }
      return answer;
    },

    async publishKey(mac, key) {
      const message: KeyMessage | undefined = key === null ? undefined : { key };
      await transport.publish(TOPICS.key(mac), message ? JSON.stringify(message) : "", { qos: 1, retain: true });
    },
    async publishConfig(mac, config) {
      await transport.publish(TOPICS.config(mac), config ? JSON.stringify(config) : "", { qos: 1, retain: true });
    },

    rereadStatus(mac) {
      // One at a time per MAC: an earlier re-read's unsubscribe must not cut a later one short.
      const next = (rereads.get(mac) ?? Promise.resolve()).then(() => transport.replayRetained(TOPICS.status(mac), rereadTimeoutMs));
      const settled = next.catch(() => undefined);
      rereads.set(mac, settled);
      void settled.then(() => {
        if (rereads.get(mac) === settled) rereads.delete(mac);
      });
      return next;
    },

    stats: () => {
      const budget = o.budget?.stats();
      const copy = structuredClone(stats);
      copy.dropped.overBudget = budget?.dropped ?? 0;
      return { ...copy, cutOff: { total: budget?.cutOffs ?? 0, now: budget?.coolingDown ?? 0 }, ...(transport.sessions ? { sessions: transport.sessions() } : {}) };
    },

    async close() {
      for (const w of waiting.values()) w.resolve({ ok: false, message: "The server is shutting down", reason: "server_stopping" }, "failed");
      waiting.clear();
      await transport.close();
    },
  };
}
