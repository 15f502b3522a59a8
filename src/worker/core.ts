import { Subject, type SchedulerLike } from "rxjs";
import type {
  ControllerRequest,
  CreateFarmRequest,
  CreateMcuRequest,
  ProfileRequest,
  RegisterRequest,
  SensorRequest,
  UpdateClientRequest,
  UpdateFarmRequest,
  UpdateMcuRequest,
} from "../contract/api.ts";
import { CoreError } from "../contract/core-error.ts";
import type { Client, Controller, Farm, Mcu, Notification, Sensor, SettingProfile } from "../contract/entities.ts";
import { normalizeMac } from "../contract/mac.ts";
import type { CommandAck, CommandTarget } from "../contract/realtime.ts";
import { pendingKey, type CoreEvent } from "../streams/device-snapshots.ts";
import type { SnapshotBatch } from "../streams/fold.ts";
import { snapshotPipeline } from "../streams/snapshot-pipeline.ts";
import { openLiveSocket, type ConnectionState, type LiveSocket, type LiveSocketOptions } from "./live-socket.ts";
import { createRestClient, type RestClient } from "./rest-client.ts";
import { SessionEndedError, type SessionEndCause, type SessionEnded } from "../contract/session-ended.ts";

/** The collections the core keeps for the app, each replaced whole when it changes. */
export interface Entities {
  farms: Farm[];
  mcus: Mcu[];
  profiles: SettingProfile[];
  notifications: Notification[];
  controllers: Controller[];
  sensors: Sensor[];
}
export type EntityName = keyof Entities;

/** What the core sends to the main thread. */
export type CoreUpdate =
  | { kind: "live"; batch: SnapshotBatch }
  | { kind: "entities"; entities: Partial<Entities> }
  | { kind: "connection"; state: ConnectionState | "idle"; message?: string }
  | { kind: "notification"; notification: Notification };

export interface CoreDeps {
  fetch?: typeof fetch;
  scheduler?: SchedulerLike;
  now?: () => number;
  connect?: LiveSocketOptions["connect"];
  frameMs?: number;
}

/** The calls that work without a session (or end one): a 401 from them is an answer, not an ended session. */
const SIGNED_OUT_CALLS: ReadonlySet<keyof RestClient> = new Set(["register", "login", "logout", "me"]);

/** The server takes at most this many ids per mark-read request. */
const MARK_READ_BATCH = 500;

export type ScanResult<T> = { found: true; device: T } | { found: false; device: { mac: string; type: string; name: string; mcu_id: null } };

/**
 * The data core: the only place that calls the API and holds the socket. Live events are folded
 * into per-MCU snapshots and sent on in frame batches; entity collections are sent when they
 * change. It runs in a Web Worker behind Comlink, or in-thread with the same interface.
 */
export function createDataCore(deps: CoreDeps = {}) {
  const now = deps.now ?? Date.now;
  let apiBase = "";
  let clientId: number | null = null;
  /** The session of the last started client ended (reset by the next start). */
  let sessionEnded = false;
  let socket: LiveSocket | null = null;
  let listener: ((update: CoreUpdate) => void) | null = null;
  let sessionListener: ((ended: SessionEnded) => void) | null = null;
  let rest: RestClient = sessionBound(createRestClient({ apiBase: "", fetch: deps.fetch }));
  const entities: Entities = { farms: [], mcus: [], profiles: [], notifications: [], controllers: [], sensors: [] };

  const events$ = new Subject<CoreEvent>();
  const ready$ = new Subject<void>();
  const { batches$ } = snapshotPipeline({ events$, ready$, scheduler: deps.scheduler, frameMs: deps.frameMs });
  batches$.subscribe((batch) => {
    if (listener) listener({ kind: "live", batch });
    else ready$.next();
  });

  const send = (update: CoreUpdate) => listener?.(update);
  function set<K extends EntityName>(name: K, value: Entities[K]): Entities[K] {
    entities[name] = value;
    send({ kind: "entities", entities: { [name]: value } });
    return value;
  }
  function requireClient(): number {
    if (clientId === null) throw sessionEnded ? new SessionEndedError() : new CoreError("NOT_STARTED", "Sign in first");
    return clientId;
  }

  /**
   * The server no longer knows the session of `ofClient`: report it once and stop, so nothing
   * more is loaded or sent for that client. Later failures of the same session stay quiet.
   */
  function endSession(ofClient: number, cause: SessionEndCause) {
    if (clientId !== ofClient) return;
    core.stop();
    sessionEnded = true;
    sessionListener?.({ clientId: ofClient, cause });
  }

  /**
   * Every call that needs the session: a 401 UNAUTHENTICATED to one made while a client was
   * started ends that client's session, and the call fails with SessionEndedError.
   */
  function sessionBound(r: RestClient): RestClient {
    const bound: Record<string, unknown> = { ...r };
    for (const name of Object.keys(r) as (keyof RestClient)[]) {
      if (SIGNED_OUT_CALLS.has(name)) continue;
      const call = r[name] as (...args: unknown[]) => Promise<unknown>;
      bound[name] = async (...args: unknown[]) => {
        const asClient = clientId;
        try {
          return await call(...args);
        } catch (err) {
          if (asClient === null || !(err instanceof CoreError) || err.code !== "UNAUTHENTICATED") throw err;
          endSession(asClient, "api");
          throw new SessionEndedError();
        }
      };
    }
    return bound as RestClient;
  }
  const replace = <T>(list: T[], match: (item: T) => boolean, item: T) => list.map((x) => (match(x) ? item : x));

  async function sendCommand(mac: string, target: CommandTarget, type: "auto" | "status", onOff: boolean): Promise<CommandAck> {
    if (!socket && sessionEnded) throw new SessionEndedError();
    if (!socket) return { ok: false, message: "Not connected to the server" };
    const key = pendingKey(target, type);
    events$.next({ kind: "pending", mac, key, value: onOff });
    const ack = await socket.sendCommand({ deviceId: mac, type, value: { type, onOff, target } });
    events$.next({ kind: "pending", mac, key, value: null });
    if (ack.ok) events$.next({ kind: "confirmed", mac, target, field: type, value: onOff });
    return ack;
  }

  const core = {
    /** The API base of SPEC §7 ({host}); "" is the page's own origin. */
    configure(options: { apiBase: string }) {
      apiBase = options.apiBase.replace(/\/$/, "");
      rest = sessionBound(createRestClient({ apiBase, fetch: deps.fetch }));
    },

    /** The main thread's receiver of updates (a Comlink proxy in the worker). */
    subscribe(receiver: (update: CoreUpdate) => void) {
      listener = receiver;
    },

    /** The main thread applied live batch `seq`: the next one may come. */
    ack(_seq: number) {
      ready$.next();
    },

    /**
     * The main thread's receiver of the one "session ended" report per session: an API call
     * answered 401 UNAUTHENTICATED, or the socket was refused. The core has stopped by then.
     */
    onSessionEnded(receiver: (ended: SessionEnded) => void) {
      sessionListener = receiver;
    },

    register: (body: RegisterRequest) => rest.register(body),
    async login(emailOrUsername: string, password: string): Promise<Client> {
      return (await rest.login({ username: emailOrUsername, password })).client;
    },
    async logout(): Promise<void> {
      core.stop();
      await rest.logout().catch(() => undefined);
    },
    me: () => rest.me(),
    async updateClient(id: number, body: UpdateClientRequest): Promise<Client> {
      return rest.updateClient(id, body);
    },

    /** Opens the realtime connection for a known client (SPEC §4). */
    start(id: number) {
      if (clientId === id && socket) return;
      core.stop();
      clientId = id;
      sessionEnded = false;
      socket = openLiveSocket({
        url: apiBase,
        clientId: id,
        connect: deps.connect,
        handlers: {
          authenticated: (p) => events$.next({ kind: "snapshot", devices: p.devices }),
          data: (p) => events$.next({ kind: "reading", mac: normalizeMac(p.deviceId), payload: p.payload, at: now() }),
          status: (p) => events$.next({ kind: "status", mac: normalizeMac(p.deviceId), status: p.status }),
          notification: (n) => {
            set("notifications", [n, ...entities.notifications]);
            send({ kind: "notification", notification: n });
          },
          connection: (state, message) => {
            // The server refused the socket: the session is over, not the connection.
            if (state === "unauthorized") endSession(id, "socket");
            else send({ kind: "connection", state, message });
          },
        },
      });
    },

    /** Closes the connection and forgets the client's data (sign-out, page gone). */
    stop() {
      socket?.close();
      socket = null;
      clientId = null;
      events$.next({ kind: "reset" });
      for (const name of Object.keys(entities) as EntityName[]) entities[name] = [];
      send({ kind: "entities", entities: { ...entities } });
      send({ kind: "connection", state: "idle" });
    },

    async loadNotifications() {
      set("notifications", await rest.notifications(requireClient()));
    },
    /**
     * Marks read the given notifications (those the panel showed), here at once and then on the
     * server, so the unread dot stays off after a reload. Ids already read are not sent again.
     */
    async markNotificationsRead(ids: readonly number[]) {
      const id = requireClient();
      const wanted = new Set(ids);
      const unread = entities.notifications.filter((n) => wanted.has(n.notification_id) && !n.read_status).map((n) => n.notification_id);
      if (unread.length === 0) return;
      const marked = new Set(unread);
      set("notifications", entities.notifications.map((n) => (marked.has(n.notification_id) ? { ...n, read_status: true } : n)));
      for (let i = 0; i < unread.length; i += MARK_READ_BATCH) {
        await rest.markNotificationsRead(id, { notification_ids: unread.slice(i, i + MARK_READ_BATCH) });
      }
    },
    async loadMcus() {
      set("mcus", await rest.mcus(requireClient()));
    },
    async loadFarms() {
      set("farms", await rest.farms(requireClient()));
    },
    async loadProfiles() {
      set("profiles", await rest.profiles(requireClient()));
    },
    async loadControllers() {
      set("controllers", await rest.controllers());
    },
    async loadSensors() {
      set("sensors", await rest.sensors());
    },

    async createFarm(body: Omit<CreateFarmRequest, "client_id">): Promise<Farm> {
      const farm = await rest.createFarm({ ...body, client_id: requireClient() });
      set("farms", [...entities.farms, farm]);
      return farm;
    },
    async updateFarm(id: number, body: UpdateFarmRequest): Promise<Farm> {
      const farm = await rest.updateFarm(id, body);
      set("farms", replace(entities.farms, (f) => f.farm_id === id, farm));
      return farm;
    },
    async deleteFarm(id: number): Promise<string> {
      const { message } = await rest.deleteFarm(id);
      set("farms", entities.farms.filter((f) => f.farm_id !== id));
      return message;
    },

    async createMcu(body: Omit<CreateMcuRequest, "status">): Promise<Mcu> {
      const mcu = await rest.createMcu({ ...body, status: "active" });
      set("mcus", [...entities.mcus, mcu]);
      await core.loadFarms().catch(() => undefined);
      return mcu;
    },
    async updateMcu(id: number, body: UpdateMcuRequest): Promise<Mcu> {
      const mcu = await rest.updateMcu(id, body);
      set("mcus", replace(entities.mcus, (m) => m.mcu_id === id, mcu));
      await core.loadFarms().catch(() => undefined);
      return mcu;
    },
    async deleteMcu(id: number): Promise<string> {
      const { message } = await rest.deleteMcu(id);
      set("mcus", entities.mcus.filter((m) => m.mcu_id !== id));
      await core.loadFarms().catch(() => undefined);
      return message;
    },

    async scanController(mac: string): Promise<ScanResult<Controller>> {
      const found = await rest.scanController(normalizeMac(mac));
      return "unit_id" in found ? { found: true, device: found } : { found: false, device: found };
    },
    /** Creates (unitId null) or updates a controller, then reloads the MCU list (SPEC §4). */
    async saveController(unitId: number | null, body: ControllerRequest): Promise<Controller> {
      const saved = unitId === null ? await rest.createController(body) : await rest.updateController(unitId, body);
      set("controllers", unitId === null ? [...entities.controllers, saved] : replace(entities.controllers, (c) => c.unit_id === unitId, saved));
      // The save succeeded; a failed reload of the list must not report it as failed.
      await core.loadMcus().catch(() => undefined);
      return saved;
    },
    async deleteController(unitId: number): Promise<void> {
      await rest.deleteController(unitId);
      set("controllers", entities.controllers.filter((c) => c.unit_id !== unitId));
      await core.loadMcus().catch(() => undefined);
    },
    async scanSensor(mac: string): Promise<ScanResult<Sensor>> {
      const found = await rest.scanSensor(normalizeMac(mac));
      return "sensor_id" in found ? { found: true, device: found } : { found: false, device: found };
    },
    async saveSensor(sensorId: number | null, body: SensorRequest): Promise<Sensor> {
      const saved = sensorId === null ? await rest.createSensor(body) : await rest.updateSensor(sensorId, body);
      set("sensors", sensorId === null ? [...entities.sensors, saved] : replace(entities.sensors, (s) => s.sensor_id === sensorId, saved));
      // The save succeeded; a failed reload of the list must not report it as failed.
      await core.loadMcus().catch(() => undefined);
      return saved;
    },
    async deleteSensor(sensorId: number): Promise<void> {
      await rest.deleteSensor(sensorId);
      set("sensors", entities.sensors.filter((s) => s.sensor_id !== sensorId));
      await core.loadMcus().catch(() => undefined);
    },

    async createProfile(body: Omit<ProfileRequest, "client_id">): Promise<SettingProfile> {
      const profile = await rest.createProfile({ ...body, client_id: requireClient() });
      set("profiles", [...entities.profiles, profile]);
      return profile;
    },
    async updateProfile(id: number, body: Omit<ProfileRequest, "client_id">): Promise<SettingProfile> {
      const profile = await rest.updateProfile(id, { ...body, client_id: requireClient() });
      set("profiles", replace(entities.profiles, (p) => p.profile_id === id, profile));
      return profile;
    },
    async deleteProfile(id: number): Promise<string> {
      const { message } = await rest.deleteProfile(id);
      set("profiles", entities.profiles.filter((p) => p.profile_id !== id));
      await core.loadMcus().catch(() => undefined);
      return message;
    },
    /** Links a profile to an MCU, then asks the device to refresh its settings (SPEC §4). */
    async linkProfile(mcuId: number, profileId: number): Promise<CommandAck> {
      await rest.link({ mcu_id: mcuId, profile_id: profileId });
      await Promise.all([core.loadMcus(), core.loadProfiles()]);
      const mac = entities.mcus.find((m) => m.mcu_id === mcuId)?.mac;
      return mac ? core.refresh(mac) : { ok: true };
    },
    async unlinkProfile(linkId: number): Promise<void> {
      await rest.unlink(linkId);
      await Promise.all([core.loadMcus(), core.loadProfiles()]);
    },

    sendCommand,
    async refresh(mac: string): Promise<CommandAck> {
      if (!socket && sessionEnded) throw new SessionEndedError();
      if (!socket) return { ok: false, message: "Not connected to the server" };
      return socket.refresh({ deviceId: mac, mac });
    },
  };
  return core;
}

export type DataCore = ReturnType<typeof createDataCore>;
