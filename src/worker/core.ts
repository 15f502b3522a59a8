import type { SchedulerLike } from "rxjs";
import type { NotificationPreferences } from "../contract/alarms-values.ts";
import type { RegisterRequest, UpdateClientRequest } from "../contract/api.ts";
import { CoreError } from "../contract/core-error.ts";
import type { Client, Controller, Mcu, Sensor } from "../contract/entities.ts";
import type { CollectionEvents, DeviceSnapshot } from "../contract/realtime.ts";
import { parseReadings, type McuLive } from "../streams/device-snapshots.ts";
import type { CoreUpdate, Entities, EntityName, McuViews, WallRequest } from "../contract/live.ts";
import { normalizeMac } from "../contract/mac.ts";
import { SOCKET_EVENTS, type CommandAck, type CommandTarget } from "../contract/realtime.ts";
import { SessionEndedError, type SessionEndCause, type SessionEnded } from "../contract/session-ended.ts";
import { createCollections, isUnreachable, type SavedAges } from "./collections.ts";
import { createCrossing } from "./crossing.ts";
import { createLive } from "./live.ts";
import type { LiveSocketOptions } from "./live-socket.ts";
import type { EarlyFetches } from "./early-fetch.ts";
import { createIndexedDbSavedLists, type SavedLists } from "./saved-lists.ts";
import { createRestClient, type AlarmQuery, type AuditQuery, type CommandLogQuery, type FarmHistoryQuery, type HistoryRange, type McuHistoryQuery, type RestClient } from "./rest-client.ts";
import type { Role } from "../contract/team.ts";
import type { RotaRequest } from "../contract/rota.ts";
import type { CreateInvitationRequest } from "../contract/api.ts";
import type { WebPushSubscription } from "../contract/push-values.ts";
import { createFarmMembers, type FarmMembersUpdate } from "./farm-members.ts";

export type { CoreUpdate, Entities, EntityName } from "../contract/live.ts";
export type { SavedAges } from "./collections.ts";

/**
 * The lists on screen that the server could not refresh, shown from what this device saved, with
 * when the server last gave each; sent whenever that changes (empty: everything is current).
 */
export interface SavedAgesUpdate {
  kind: "saved-ages";
  ages: SavedAges;
}

/** What the core sends to the main thread. */
export type DataCoreUpdate = CoreUpdate | SavedAgesUpdate | FarmMembersUpdate;
export type { FarmMembersUpdate } from "./farm-members.ts";

export interface CoreDeps {
  fetch?: typeof fetch;
  scheduler?: SchedulerLike;
  now?: () => number;
  connect?: LiveSocketOptions["connect"];
  frameMs?: number;
  /** Responses the worker's entry requested before the core loaded (early-fetch.ts). */
  early?: Pick<EarlyFetches, "take" | "clear">;
  /** Where the lists are kept on this device (IndexedDB by default, where there is one). */
  savedLists?: SavedLists;
  /** How long a changed list waits before it is saved (ms). */
  saveDelayMs?: number;
  /** While connected, the MCU list is saved again this often with the live readings that came (ms). */
  readingsSaveMs?: number;
}

/** An MCU record with its latest live reading (if newer than the record's), as it is saved on the device. */
function withLatestReading(mcu: Mcu, live: McuLive | undefined): Mcu {
  if (!live?.readings || live.lastReadingAt === null) return mcu;
  const recorded = mcu.lastSeen ? Date.parse(mcu.lastSeen) : Number.NaN;
  if (!Number.isNaN(recorded) && recorded >= live.lastReadingAt) return mcu;
  return { ...mcu, readings: live.readings, lastSeen: new Date(live.lastReadingAt).toISOString() };
}

/** What the socket would have said of a saved MCU: its last readings seed the live side until it does. */
const savedSnapshot = (mcu: Mcu): DeviceSnapshot => ({ deviceId: normalizeMac(mcu.mac), mcu_id: mcu.mcu_id, status: mcu.status, readings: parseReadings(mcu.readings), lastSeen: mcu.lastSeen });

/** The calls that work without a session (or end one): a 401 from them is an answer, not an ended session. */
const SIGNED_OUT_CALLS: ReadonlySet<keyof RestClient> = new Set(["register", "login", "logout", "me"]);

/** The collections the fleet results are computed from (farm statuses, summary, the wall, the cards' batch). */
const FLEET_INPUTS: ReadonlySet<EntityName> = new Set<EntityName>(["farms", "mcus", "batches", "alarms"]);

/** The server takes at most this many ids per mark-read request. */
const MARK_READ_BATCH = 500;

const NOT_CONNECTED: CommandAck = { ok: false, message: "Not connected to the server", reason: "not_connected" };

export type ScanResult<T> = { found: true; device: T } | { found: false; device: { mac: string; type: string; name: string; mcu_id: null } };

/**
 * The data core: the only place that calls the API and holds the socket. It composes the entity
 * collections (collections.ts) and the live side (live.ts: socket, fold, interest, fleet results)
 * with the session. It runs in a Web Worker behind Comlink, or in-thread with the same interface.
 */
export function createDataCore(deps: CoreDeps = {}) {
  let apiBase = "";
  let clientId: number | null = null;
  /** The session of the last started client ended (reset by the next start). */
  let sessionEnded = false;
  let listener: ((update: DataCoreUpdate) => void) | null = null;
  let sessionListener: ((ended: SessionEnded) => void) | null = null;
  let rest: RestClient = sessionBound(createRestClient({ apiBase: "", fetch: deps.fetch, early: deps.early?.take }));

  const send = (update: DataCoreUpdate) => listener?.(update);
  const now = deps.now ?? Date.now;
  function requireClient(): number {
    if (clientId === null) throw sessionEnded ? new SessionEndedError() : new CoreError("NOT_STARTED", "Sign in first");
    return clientId;
  }

  /** The card views that go with a collection's records when they first cross, so the first cards paint with them. */
  const viewsWithRecords: { [K in EntityName]?: (records: Entities[K]) => McuViews } = { mcus: (records) => live.viewsOf(records) };
  const crossing = createCrossing({
    send,
    views: (name, records) => (viewsWithRecords[name] as ((records: Entities[typeof name]) => McuViews) | undefined)?.(records),
  });
  const collections = createCollections({
    rest: () => rest,
    clientId: requireClient,
    changed(name, change) {
      crossing.changed(name, change);
      if (change.list && FLEET_INPUTS.has(name)) live.entitiesChanged();
    },
    head: (name, items) => crossing.head(name, items),
    saved: deps.savedLists ?? createIndexedDbSavedLists(),
    now,
    saveDelayMs: deps.saveDelayMs,
    agesChanged: (ages) => send({ kind: "saved-ages", ages }),
    // The MCU list is saved with the live readings folded in, and its last readings seed the live side until the socket speaks.
    toSave: (name, value) => (name === "mcus" ? ((value as Mcu[]).map((m) => withLatestReading(m, live.state.devices.get(normalizeMac(m.mac)))) as typeof value) : value),
    restored(name, value) {
      if (name === "mcus") live.seed((value as Mcu[]).map(savedSnapshot));
    },
  });
  const { entities } = collections;

  /** The MCUs with an active alarm, made again when the active set changed; null until the set has loaded once. */
  let alarmed: { of: Entities["alarms"]; mcus: ReadonlySet<number> } | null = null;
  function alarmedMcus(): ReadonlySet<number> | null {
    if (!collections.loaded("alarms")) return null;
    if (alarmed?.of !== entities.alarms) alarmed = { of: entities.alarms, mcus: new Set(entities.alarms.map((a) => a.mcu_id)) };
    return alarmed.mcus;
  }

  const live = createLive({
    scheduler: deps.scheduler,
    now: deps.now,
    connect: deps.connect,
    frameMs: deps.frameMs,
    entities,
    deliver(batch) {
      if (!listener) return false;
      listener({ kind: "live", batch });
      return true;
    },
    collectionEvent(event, payload) {
      collections.patch(event, payload);
      if (event === SOCKET_EVENTS.farmMembersChanged) members.reload((payload as CollectionEvents["farmMembersChanged"]).farm_id);
      if (event === SOCKET_EVENTS.notification) send({ kind: "notification", notification: payload as CollectionEvents["notification"] });
    },
    authenticated() {
      // What the socket's events keep current missed them while it was down. Failures are the
      // lists' load states (the Alarms page shows its own, with Try again).
      collections.connected();
      // The server is back: the lists it could not give while it was away are loaded again.
      collections.reloadUnreached();
      // A member change made while the socket was down was not heard: the Members lists on screen
      // load again (not at the first authentication: they loaded when their screen opened).
      if (heardBefore) members.reloadAll();
      heardBefore = true;
      readingsSaves.start();
    },
    alarmed: alarmedMcus,
    connection(state, message, heardAt) {
      // The server refused the socket: the session is over, not the connection.
      if (state === "unauthorized") {
        if (clientId !== null) endSession(clientId, "socket");
      } else send({ kind: "connection", state, message, ...(heardAt == null ? {} : { heardAt }) });
      if (state !== "connected") readingsSaves.stop();
      // The server just went away: the readings it sent until then are what this device will show.
      if (state === "reconnecting" && heardAt != null) void collections.saveAgain("mcus", heardAt);
    },
  });

  /**
   * While connected, the MCU list is saved again every so often with the readings that came, so a
   * page closed without warning leaves recent readings on the device.
   */
  const readingsSaves = (() => {
    let timer: ReturnType<typeof setInterval> | null = null;
    return {
      start() {
        if (timer !== null) return;
        timer = setInterval(() => void collections.saveAgain("mcus", now()), deps.readingsSaveMs ?? 60_000);
        // Node (tests): a pending save must not keep the process alive.
        (timer as { unref?: () => void }).unref?.();
      },
      stop() {
        if (timer !== null) clearInterval(timer);
        timer = null;
      },
    };
  })();

  /** The Members lists on screen (farm-members.ts). */
  const members = createFarmMembers({ load: (farmId) => rest.farmMembers(farmId), send });
  /** Whether the socket of this start has authenticated before (a later authentication is a reconnect). */
  let heardBefore = false;

  /** Closes the connection and forgets the client's data. */
  function halt() {
    readingsSaves.stop();
    live.close();
    clientId = null;
    heardBefore = false;
    members.clear();
    crossing.clear(collections.clear());
    live.entitiesChanged();
    send({ kind: "connection", state: "idle" });
  }

  /**
   * The server no longer knows the session of `ofClient`: report it once and stop, so nothing
   * more is loaded or sent for that client. Later failures of the same session stay quiet.
   */
  function endSession(ofClient: number, cause: SessionEndCause) {
    if (clientId !== ofClient) return;
    core.stop();
    // Whoever signs in next on this device must not see this client's saved lists.
    void collections.forgetSaved();
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
          const answer = await call(...args);
          serverAnswered();
          return answer;
        } catch (err) {
          heardOrNot(err);
          if (asClient === null || !(err instanceof CoreError) || err.code !== "UNAUTHENTICATED") throw err;
          endSession(asClient, "api");
          throw new SessionEndedError();
        }
      };
    }
    return bound as RestClient;
  }

  /**
   * Whether the last call found no server. When it answers again (the socket may still be
   * reconnecting), the lists it could not give are loaded again, once: a list it then refuses is
   * the screen's failure to show, not a reason to ask again and again.
   */
  let serverAway = false;
  function serverAnswered() {
    if (!serverAway) return;
    serverAway = false;
    if (clientId !== null && collections.waiting) collections.reloadUnreached();
  }
  /** A failed call: no server, or a server that answered with an error. */
  function heardOrNot(err: unknown) {
    if (isUnreachable(err)) serverAway = true;
    else if (err instanceof CoreError && err.status !== null) serverAnswered();
  }

  /** A socket call's answer, or why there is none. */
  function answered(ack: CommandAck | null): CommandAck {
    if (ack) return ack;
    if (sessionEnded) throw new SessionEndedError();
    return NOT_CONNECTED;
  }

  const { link, ...mutations } = collections.mutations;

  const core = {
    /** The API base of SPEC §7 ({host}); "" is the page's own origin. */
    configure(options: { apiBase: string }) {
      apiBase = options.apiBase.replace(/\/$/, "");
      rest = sessionBound(createRestClient({ apiBase, fetch: deps.fetch, early: deps.early?.take }));
    },

    /** The main thread's receiver of updates (a Comlink proxy in the worker). */
    subscribe(receiver: (update: DataCoreUpdate) => void) {
      listener = receiver;
    },

    /**
     * The live stream's counts: `droppedEvents`, the server events (or entries of a batch) dropped
     * for not matching their contract schema since the core started.
     */
    liveStats(): { droppedEvents: number } {
      return live.stats();
    },

    /** The main thread applied live batch `seq`: the next one may come. */
    ack(_seq: number) {
      live.ack();
    },

    /**
     * The MCUs whose cards are mounted (by MAC): only their snapshots are sent from now on, and
     * those new to the set get their latest snapshot in the next frame batch.
     */
    setInterest(macs: readonly string[]) {
      live.setInterest(macs);
    },

    /** The MCUs whose dashboard cards are mounted (by id): each gets its card view, and again when it changes. */
    setCardInterest(ids: readonly number[]) {
      live.setCardInterest(ids);
    },

    /** The MCUs whose MCU Manager cards are mounted (by id): each gets its view, and again when what it shows changes. */
    setManagerCardInterest(ids: readonly number[]) {
      live.setManagerCardInterest(ids);
    },

    /**
     * The wall view's page on screen and the layout it is cut for, or null when no wall
     * is on screen: the core groups and orders the whole fleet and sends that page's MCU ids.
     */
    setWall(request: WallRequest | null) {
      live.setWall(request);
    },

    /**
     * The MCU Manager queries (search and filters, by `mcuQueryKey`) shown on the main thread: the
     * core sends the ids each one matches over the whole fleet, when they change.
     */
    setQueries(keys: readonly string[]) {
      live.setQueries(keys);
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
    /**
     * Signs out: stops, forgets the lists saved on this device and ends the session on the server.
     * `pushEndpoint`: this browser's push subscription, which the page has just unsubscribed; the
     * server forgets it for the client first, while the session still allows it, so a shared phone
     * stops ringing with the alarms of whoever signed out.
     */
    async logout(leaving: { pushEndpoint?: string | null } = {}): Promise<void> {
      core.stop();
      const forgotten = leaving.pushEndpoint ? rest.forgetPushSubscription(leaving.pushEndpoint).catch(() => false) : Promise.resolve(false);
      await Promise.all([collections.forgetSaved(), forgotten.then(() => rest.logout().catch(() => undefined))]);
    },
    /** The signed-in client; its answer also tells that the server is back (the lists it could not give are loaded again). */
    async me(): Promise<Client> {
      try {
        const client = await rest.me();
        serverAnswered();
        return client;
      } catch (err) {
        heardOrNot(err);
        throw err;
      }
    },
    async updateClient(id: number, body: UpdateClientRequest): Promise<Client> {
      return rest.updateClient(id, body);
    },

    /** Opens the realtime connection for a known client (SPEC §4). */
    start(id: number) {
      if (clientId === id && live.connected) return;
      // Not stop(): the early responses are this start's (they are for this client's URLs only).
      halt();
      clientId = id;
      sessionEnded = false;
      live.open(apiBase, id);
      members.reloadAll();
      // The lists every live screen starts from are fetched now, while the page's code loads: the
      // screen's own load joins these requests. Their failure is the screen's to show.
      for (const load of [collections.loaders.loadFarms, collections.loaders.loadMcus]) load().catch(() => undefined);
    },

    /** Closes the connection and forgets the client's data (sign-out, page gone). */
    stop() {
      deps.early?.clear();
      halt();
    },

    ...collections.loaders,
    /** A screen's load of a collection, by name (it joins a load under way). */
    load: (name: EntityName) => collections.load(name),
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
      collections.set("notifications", entities.notifications.map((n) => (marked.has(n.notification_id) ? { ...n, read_status: true } : n)));
      for (let i = 0; i < unread.length; i += MARK_READ_BATCH) {
        await rest.markNotificationsRead(id, { notification_ids: unread.slice(i, i + MARK_READ_BATCH) });
      }
    },

    ...mutations,

    async scanController(mac: string): Promise<ScanResult<Controller>> {
      const found = await rest.scanController(normalizeMac(mac));
      return "unit_id" in found ? { found: true, device: found } : { found: false, device: found };
    },
    async scanSensor(mac: string): Promise<ScanResult<Sensor>> {
      const found = await rest.scanSensor(normalizeMac(mac));
      return "sensor_id" in found ? { found: true, device: found } : { found: false, device: found };
    },

    /** Links a profile to an MCU, then asks the device to refresh its settings (SPEC §4). */
    async linkProfile(mcuId: number, profileId: number): Promise<CommandAck> {
      await link(mcuId, profileId);
      const mac = entities.mcus.find((m) => m.mcu_id === mcuId)?.mac;
      return mac ? core.refresh(mac) : { ok: true };
    },

    /**
     * Reading history, answered to the screen that asks and not kept here: a chart's
     * range is its own, and the live readings that extend it already reach the screen.
     */
    mcuHistory: (mcuId: number, query: McuHistoryQuery) => rest.mcuHistory(mcuId, query),
    farmHistory: (farmId: number, query: FarmHistoryQuery) => rest.farmHistory(farmId, query),
    mcuTimeline: (mcuId: number, range: HistoryRange) => rest.mcuTimeline(mcuId, range),
    commandLog: (mcuId: number, query: CommandLogQuery) => rest.commandLog(mcuId, query),

    /**
     * A page of the alarm list (the resolved ones, filtered), answered to the screen that asks; the
     * active ones are a collection (`alarms`).
     */
    alarms: (query: AlarmQuery) => rest.alarms(query),
    notificationPreferences: () => rest.notificationPreferences(),
    saveNotificationPreferences: (preferences: NotificationPreferences) => rest.saveNotificationPreferences(preferences),

    /**
     * Farm teams, answered to the screen that asks and not kept here: a farm's members and
     * invitations, its on-call rota, its audit trail, an alarm's calls. (The person's role on each
     * farm is a collection, `farmRoles`, kept current by the socket.)
     */
    farmMembers: (farmId: number) => rest.farmMembers(farmId),
    async changeMemberRole(farmId: number, person: number, role: Role) {
      const changed = await rest.changeMemberRole(farmId, person, role);
      members.update(farmId, (list) => list.map((m) => (m.client_id === changed.client_id ? changed : m)));
      return changed;
    },
    async removeMember(farmId: number, person: number) {
      const answer = await rest.removeMember(farmId, person);
      members.update(farmId, (list) => list.filter((m) => m.client_id !== person));
      return answer;
    },
    /**
     * The farms whose Members list is on screen: each list is loaded and sent (a `farm-members`
     * update), and kept current while it is on screen, whoever changes the farm's members.
     */
    setMembersInterest(farmIds: readonly number[]) {
      members.setInterest(farmIds, clientId !== null);
    },
    /** Loads a farm's Members list again (Try again after a failure). */
    reloadFarmMembers(farmId: number) {
      members.reload(farmId);
    },
    farmInvitations: (farmId: number) => rest.farmInvitations(farmId),
    invite: (farmId: number, body: CreateInvitationRequest) => rest.invite(farmId, body),
    revokeInvitation: (farmId: number, invitationId: number) => rest.revokeInvitation(farmId, invitationId),
    previewInvitation: (code: string) => rest.previewInvitation(code),
    farmRota: (farmId: number) => rest.farmRota(farmId),
    saveFarmRota: (farmId: number, body: RotaRequest) => rest.saveFarmRota(farmId, body),
    farmAudit: (farmId: number, query: AuditQuery) => rest.farmAudit(farmId, query),
    alarmNotices: (alarmId: number) => rest.alarmNotices(alarmId),

    /**
     * Web Push (the app built without Firebase's config): the server's public key, and this
     * browser's subscription stored for the signed-in client or forgotten (answers whether the
     * client had it). The subscription itself is the page's: PushManager and the notification
     * permission belong to its service worker registration and its user's gestures.
     */
    pushVapidPublicKey: () => rest.pushVapidPublicKey(),
    savePushSubscription: (subscription: WebPushSubscription) => rest.savePushSubscription(subscription),
    forgetPushSubscription: (endpoint: string) => rest.forgetPushSubscription(endpoint),

    async sendCommand(mac: string, target: CommandTarget, type: "auto" | "status", onOff: boolean): Promise<CommandAck> {
      return answered(await live.sendCommand(mac, target, type, onOff));
    },
    async refresh(mac: string): Promise<CommandAck> {
      return answered(await live.refresh(mac));
    },
  };
  return core;
}

export type DataCore = ReturnType<typeof createDataCore>;
export type { AlarmQuery, AuditQuery, CommandLogQuery, FarmHistoryQuery, HistoryRange, McuHistoryQuery } from "./rest-client.ts";
