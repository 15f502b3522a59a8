import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import { createAlerts, type AlertOptions } from "./alerts/alerts.ts";
import { createPushNotifier, type PushSender } from "./alerts/push-sender.ts";
import { createEscalation, type EscalationEngine } from "./alerts/escalation.ts";
import { buildApp, type AppConfig } from "./app.ts";
import type { PasswordHasher } from "./auth/password.ts";
import type { Database } from "./db/database.ts";
import { inventoryRepo } from "./db/inventory-repo.ts";
import { mcuLiveRepo } from "./db/mcu-live-repo.ts";
import { createPreferencesCache } from "./db/preferences-repo.ts";
import { DEFAULT_DEVICE_MESSAGE_BURST, DEFAULT_DEVICE_MESSAGES_PER_SECOND, DeviceBudget, type DeviceBudgetOptions } from "./devices/device-budget.ts";
import { deviceKeyMatches, hashDeviceKey } from "./devices/device-keys.ts";
import { startEmbeddedBroker, type EmbeddedBroker } from "./devices/embedded-broker.ts";
import { mqttTransport, type DeviceTransport } from "./devices/device-transport.ts";
import { DEFAULT_STREAM, deliveredBy } from "./realtime/shared-adapter.ts";
import { createGateway, type Gateway } from "./devices/gateway.ts";
import { createMcuDirectory } from "./devices/mcu-directory.ts";
import { createReadingsWriter, type ReadingsWriter } from "./devices/readings-writer.ts";
import { createEventBus } from "./events.ts";
import { createPlanRunner } from "./grow/plan-runner.ts";
import { metricsRoutes } from "./http/routes/metrics.ts";
import { sweeps } from "./sweeps.ts";
import { demoFleet, type DemoSettings } from "./simulator/demo-plugin.ts";
import { createSessions } from "./http/session.ts";
import { startHistory, type History } from "./history/history-writer.ts";
import type { HistoryRetention } from "./history/maintenance.ts";
import { createNodeMetrics } from "./metrics.ts";
import { startRealtime, type Realtime } from "./realtime/socket-server.ts";

export type MqttSetup =
  | { mode: "embedded"; host: string; port: number }
  | { mode: "external"; url: string; username: string; password: string; shareGroup?: string };

/** A part of the shutdown that takes longer than this is logged. */
const SLOW_CLOSE_MS = 1000;

export interface SystemOptions {
  db: Database;
  hasher: PasswordHasher;
  http: AppConfig & { host: string; port: number };
  mqtt: MqttSetup;
  now?: () => Date;
  alerts?: Pick<AlertOptions, "graceMs" | "holdMs" | "repeatMs">;
  commandTimeoutMs?: number;
  coalesceMs?: number;
  readingsFlushMs?: number;
  /**
   * Each device's message budget (defaults: 20 messages a second, bursts of 40; cut off for 60 s
   * after 10 s over budget within a minute): what one device sending too much may cost the rest.
   */
  deviceBudget?: Partial<Omit<DeviceBudgetOptions, "now" | "sweepEveryMs">>;
  /** How long reading history is kept (defaults: minutes 30 days, hours 730). */
  historyRetention?: HistoryRetention;
  /** A Redis connection for the sockets of every server node to hear each other (see RealtimeOptions.redis). */
  socketRedis?: Redis;
  /** The Redis stream of that adapter (default `mushroom-farm:socket.io`). */
  socketRedisStream?: string;
  /** Run the demo (its account, farms and simulated fleet) as a part of this server. */
  demo?: DemoSettings;
  /** Also push alert notifications to browsers: by Web Push with the server's own keys, and by Firebase when configured (main.ts). */
  push?: PushSender;
  log?: (msg: string) => void;
}

export interface System {
  app: FastifyInstance;
  /** http://host:port of the API, app and socket. */
  url: string;
  /** Where devices connect. */
  mqttUrl: string;
  broker?: EmbeddedBroker;
  gateway: Gateway;
  realtime: Realtime;
  history: History;
  /** Alarms of farms with an on-call rota, called out until acknowledged (tests make its calls with their clock). */
  escalation: EscalationEngine;
  /**
   * Publishes every MCU's effective config again (its running batch's, else its linked profile's),
   * after data was written behind the API's back: the demo seed.
   */
  publishLinkedConfigs(): Promise<void>;
  /** Publishes every pending device key again, as after a start of the embedded broker. */
  republishPendingKeys(): Promise<void>;
  /** Each MCU's latest reading, written in batches (its `flush` writes what is buffered now). */
  readings: ReadingsWriter;
  close(): Promise<void>;
}

/**
 * The whole server: HTTP API and app, realtime socket, device gateway (with the embedded broker
 * unless an external one is configured) and alerts, wired to one database. Assembled in an order
 * where nothing waits for a later part: the event bus first, then each part, then every
 * subscription; only then does the gateway hear devices and the app listen.
 */
export async function startSystem(o: SystemOptions): Promise<System> {
  const now = o.now ?? (() => new Date());
  const log = o.log ?? (() => {});
  const bus = createEventBus(log);
  const sessions = createSessions(o.db, o.http.session, now);
  const historyRetention = o.historyRetention;
  const app = await buildApp({
    db: o.db,
    hasher: o.hasher,
    config: { ...o.http, historyMinuteRetentionDays: o.http.historyMinuteRetentionDays ?? historyRetention?.minuteDays },
    now,
    events: bus,
    sessions,
  });
  const inventory = inventoryRepo(o.db);

  let broker: EmbeddedBroker | undefined;
  // Set once the gateway exists: a device's new key is in use, so its retained key message goes.
  let keyPromoted: (mac: string) => void = () => {};
  let transport: DeviceTransport;
  // One budget for every device of this node, applied where their messages come in (the broker or the MQTT client).
  const budget = new DeviceBudget({
    ...o.deviceBudget,
    perSecond: o.deviceBudget?.perSecond ?? DEFAULT_DEVICE_MESSAGES_PER_SECOND,
    burst: o.deviceBudget?.burst ?? DEFAULT_DEVICE_MESSAGE_BURST,
  });
  if (o.mqtt.mode === "embedded") {
    broker = await startEmbeddedBroker({
      host: o.mqtt.host,
      port: o.mqtt.port,
      async authenticateDevice(mac, key) {
        const row = await inventory.get(mac);
        if (row?.kind !== "mcu") return false;
        if (deviceKeyMatches(key, row.key_hash)) return true;
        // The device switched to the key it was sent when it was released: from now on only that one works.
        if (row.pending_key === null || !deviceKeyMatches(key, hashDeviceKey(row.pending_key))) return false;
        if (!(await inventory.promotePendingKey(mac, row.pending_key, hashDeviceKey(row.pending_key)))) return false;
        keyPromoted(mac);
        return true;
      },
      budget,
      log,
    });
    // This broker just started: no device is connected to it, whatever the database last saw.
    await mcuLiveRepo(o.db).markAllOffline();
    // The gateway lives in the broker's process: what devices publish reaches it without an MQTT client.
    transport = broker.transport();
  } else {
    const redis = o.socketRedis;
    const stream = o.socketRedisStream ?? DEFAULT_STREAM;
    transport = await mqttTransport({
      ...o.mqtt,
      clientId: `server-${randomBytes(6).toString("hex")}`,
      // Telemetry sent again after a node died is skipped when its frame is already in the shared stream.
      delivered: redis ? (session) => deliveredBy(redis, stream, session) : undefined,
      // One node takes a dead node's session over.
      claim: redis ? async (session) => (await redis.set(`${stream}:takeover:${session}`, "1", "PX", 60_000, "NX")) === "OK" : undefined,
      budget,
      log,
    });
  }

  const commandTimeoutMs = o.commandTimeoutMs ?? 5000;
  // Before the gateway: its partitions exist before the first reading, and a previous run's pending commands are finished.
  // Its failures (a write the database refused, a partition it could not drop) go to the server's log even when nothing else's does.
  const history = await startHistory({ db: o.db, now, retention: historyRetention, commandTimeoutMs, log: o.log ?? ((msg) => app.log.warn(msg)) });
  const directory = createMcuDirectory(o.db, { onError: (err) => log(`directory: ${(err as Error).message}`) });
  const writer = createReadingsWriter(o.db, { flushMs: o.readingsFlushMs, onError: (err) => log(`readings: ${(err as Error).message}`) });
  const pushNotify = o.push ? createPushNotifier(o.db, o.push, log) : undefined;
  const preferences = createPreferencesCache(o.db, { now: () => now().getTime() });
  const alerts = createAlerts({
    db: o.db,
    now,
    notify: (clientId, n) => bus.emit("notified", clientId, n),
    alarmChanged: (clientId, alarm) => bus.emit("alarmChanged", clientId, alarm),
    push: pushNotify,
    preferences: preferences.get,
    log,
    ...o.alerts,
  });

  // Farms with an on-call rota: their alarms are called out to people until acknowledged.
  const escalation = createEscalation({
    db: o.db,
    now,
    push: pushNotify,
    async inApp(person, alarm, at) {
      const n = await app.repos.notifications.create(person, { type: alarm.kind, title: alarm.title, body: alarm.body, words: alarm.words ?? undefined }, at, { mcuId: alarm.mcu_id, alarmId: alarm.alarm_id });
      bus.emit("notified", person, n);
    },
    log,
  });
  bus.on("alarmChanged", (_clientId, alarm) => void escalation.alarmChanged(alarm));

  const gateway = createGateway({
    transport,
    db: o.db,
    directory,
    writer,
    now,
    commandTimeoutMs,
    commandLog: history.commands,
    budget,
    onCutOff: (entry, cutOff, disconnected) => bus.emit("sendsTooMuch", entry, cutOff, disconnected),
    log,
    onReading: (entry, reading, at) => bus.emit("reading", entry, reading, at),
    onStatus: (entry, status, previous) => bus.emit("deviceStatus", entry, status, previous),
  });

  // Each MCU's device runs on its effective config: its running batch's plan now, else its linked
  // profile's, else none. The plan runner works it out and sends it; a profile change on an MCU in
  // a batch leaves the batch's config in place.
  const plans = createPlanRunner({
    db: o.db,
    now,
    publish: async (mac, config) => {
      await gateway.publishConfig(mac, config);
      // Alarms judge the readings against what the room is kept to now.
      directory.setConfig(mac, config);
    },
    changed: (clientId, batch) => bus.emit("batchChanged", clientId, batch),
    log: o.log ?? ((msg) => app.log.warn(msg)),
  });

  /** Sends an MCU's device its effective config again, retained (asked for by the app, or its profile changed). */
  const publishConfigOf = (mcuId: number): Promise<void> => plans.refresh([mcuId], { force: true });

  /** Publishes every MCU's effective config to its device, retained. */
  const publishLinkedConfigs = (): Promise<void> => plans.publishAll();
  keyPromoted = (mac) => void gateway.publishKey(mac, null).catch((err: Error) => log(`key of ${mac}: ${err.message}`));

  /**
   * A released MCU: its retained config (the previous owner's profile) is cleared, and with the
   * embedded broker its next device key (set by the release) is sent to it. An external broker
   * keeps its own device passwords: there the key is rotated with `npm run provision`.
   */
  async function releaseDevice(mac: string): Promise<void> {
    await gateway.publishConfig(mac, null);
    if (!broker) {
      log(`MCU ${mac} released: its device key is kept by the external broker; rotate it with npm run provision -- --mac ${mac} --mosquitto-url ...`);
      return;
    }
    const row = await inventory.get(mac);
    if (row?.pending_key) await gateway.publishKey(mac, row.pending_key);
  }

  // The embedded broker keeps retained messages in memory only: after a start it holds no
  // device's config (a device would run on its defaults instead of its linked profile), nor the
  // next key of a released device that has not switched yet.
  async function republishPendingKeys(): Promise<void> {
    for (const { mac, pending_key } of await inventory.pendingKeys()) await gateway.publishKey(mac, pending_key);
  }

  // Attached to the HTTP server before it listens: the first browser finds its socket.
  const realtime = startRealtime({
    httpServer: app.server,
    sessions,
    allowedOrigins: o.http.allowedOrigins,
    db: o.db,
    directory,
    gateway,
    publishConfigOf,
    redis: o.socketRedis,
    redisStream: o.socketRedisStream ?? DEFAULT_STREAM,
    coalesceMs: o.coalesceMs,
    log,
  });

  // Who acts on what. The realtime server hears a reading first: it sends it on (and settles its delivery).
  bus.on("reading", (entry, reading) => realtime.reading(entry.clientId, entry.mac, reading, entry.farmId));
  bus.on("reading", (entry, reading) => alerts.onReading(entry, reading));
  bus.on("reading", (entry, reading, at) => history.onReading(entry.mcuId, reading, at.getTime()));
  bus.on("deviceStatus", (entry, status) => realtime.status(entry.clientId, entry.mac, status, entry.farmId));
  bus.on("deviceStatus", (entry, status, previous) => {
    // An MCU never heard since it was registered (status active) did not "go" offline.
    if (!(status === "offline" && previous === "active")) alerts.onStatus(entry, status);
  });
  bus.on("sendsTooMuch", (entry, cutOff, disconnected) => alerts.sendsTooMuch(entry, cutOff, disconnected));
  bus.on("notified", (clientId, n) => realtime.notification(clientId, n));
  bus.on("accountNotice", (clientId, n) => realtime.notification(clientId, n));
  if (pushNotify) bus.on("accountNotice", (clientId, n) => void pushNotify(clientId, n).catch((err: Error) => log(`push: ${err.message}`)));
  bus.on("alarmChanged", (clientId, alarm) => realtime.alarm(clientId, alarm));
  bus.on("sessionEnded", (idHash) => realtime.endSession(idHash));
  bus.on("membershipChanged", (farmId, person, role) => realtime.membership(farmId, person, role));
  bus.on("preferencesChanged", (clientId) => preferences.invalidate(clientId));
  bus.on("mcusChanged", (clientId) => directory.invalidateClient(clientId));
  bus.on("mcuClaimed", (_clientId, mac) => void gateway.rereadStatus(mac).catch((err: Error) => log(`status of ${mac}: ${err.message}`)));
  bus.on("mcuReleased", (mac) => void releaseDevice(mac).catch((err: Error) => log(`release of ${mac}: ${err.message}`)));
  bus.on("profileChanged", (clientId, mcuIds) => {
    directory.invalidateClient(clientId);
    plans.refresh(mcuIds, { force: true }).catch((err: Error) => log(`config of MCUs ${mcuIds.join(", ")}: ${err.message}`));
  });
  bus.on("batchChanged", (clientId, batch) => realtime.collectionEvent(clientId, "batch", batch));
  bus.on("batchChanged", (_clientId, batch) => void plans.batchChanged(batch).catch((err: Error) => log(`config of batch ${batch.batch_id}: ${err.message}`)));

  const metrics = createNodeMetrics({
    gateway,
    devicesConnected: broker ? () => broker.connectedDevices() : undefined,
    sockets: () => ({ connected: realtime.connectedSockets(), droppedEvents: realtime.droppedEvents(), shedFrames: realtime.shedFrames() }),
    history,
  });
  // The route adds the event loop's delay and the request times, which the app measures itself (server/http/routes/metrics.ts).
  await app.register(metricsRoutes, { ...o.http.metrics, read: metrics.read });
  await app.register(sweeps, { db: o.db, sessionIdleMs: o.http.session.idleMs });

  gateway.start();
  escalation.start();
  // The embedded broker keeps no retained config over a restart: every device is sent its own.
  await plans.start({ publishAll: broker !== undefined });
  if (broker) await republishPendingKeys();
  const mqttUrl = broker?.url ?? (o.mqtt.mode === "external" ? o.mqtt.url : "");
  // Started once the app is ready (in `listen`), when the devices are heard.
  if (o.demo) await app.register(demoFleet, { ...o.demo, db: o.db, hasher: o.hasher, system: { mqttUrl, publishLinkedConfigs } });
  await app.listen({ host: o.http.host, port: o.http.port });
  const address = app.server.address() as { port: number };
  const httpHost = o.http.host === "0.0.0.0" || o.http.host === "::" ? "127.0.0.1" : o.http.host;

  return {
    app,
    url: `http://${httpHost}:${address.port}`,
    mqttUrl,
    broker,
    gateway,
    realtime,
    history,
    escalation,
    publishLinkedConfigs,
    republishPendingKeys,
    readings: writer,
    async close() {
      // A part that holds the shutdown up is named in the log (the process gives up after 10 s).
      const timed = async (part: string, work: () => Promise<unknown> | unknown) => {
        const started = Date.now();
        await work();
        const took = Date.now() - started;
        if (took > SLOW_CLOSE_MS) (o.log ?? ((msg: string) => app.log.warn(msg)))(`shutdown: ${part} took ${took} ms`);
      };
      // The plans first (nothing more is sent to a device), then the gateway: no reading comes in
      // that the realtime server could no longer send (with an external broker, what this node did
      // not send out another node takes over).
      await timed("the plan runner", () => plans.close());
      await timed("the gateway", () => gateway.close());
      await timed("the realtime server", () => realtime.close());
      await timed("alerts", () => alerts.idle());
      await timed("escalation", () => escalation.close());
      await timed("the readings writer", () => writer.close());
      // After the gateway: the commands it just gave up on are recorded.
      await timed("history", () => history.close());
      await timed("the broker", () => broker?.close());
      budget.close();
      await timed("the HTTP server", () => app.close());
    },
  };
}
