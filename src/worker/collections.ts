import type {
  ControllerRequest,
  CreateFarmRequest,
  CreateMcuRequest,
  ProfileRequest,
  SensorRequest,
  UpdateFarmRequest,
  UpdateMcuRequest,
} from "../contract/api.ts";
import { type } from "arktype";
import { CoreError } from "../contract/core-error.ts";
import { controller, farm, mcuList, notification, sensor, settingProfile, type Controller, type Farm, type Mcu, type Sensor, type SettingProfile } from "../contract/entities.ts";
import type { Entities, EntityName } from "../contract/live.ts";
import { FIRST_MCUS } from "../contract/api-paths.ts";
import type { RestClient } from "./rest-client.ts";
import type { SavedLists } from "./saved-lists.ts";

/**
 * The lists shown from what this device saved (or kept from earlier in the page's life) because
 * the server could not be reached, each with when the server last gave it (epoch ms). A list not
 * named here is as the server last answered, or not loaded yet.
 */
export type SavedAges = Partial<Record<EntityName, number>>;

export interface CollectionsContext {
  /** The session-bound REST client of the moment. */
  rest(): RestClient;
  /** The started client's id; throws when there is none. */
  clientId(): number;
  /** A collection was replaced (sent on to the main thread). */
  changed<K extends EntityName>(name: K, value: Entities[K]): void;
  /** The first screen of a long MCU list, ahead of the whole list (sent on, not kept). */
  firstMcus?(mcus: Mcu[]): void;
  /** Where the lists are kept on this device; without it nothing is kept. */
  saved?: SavedLists;
  now?(): number;
  /** Lists shown from what was saved, or back to what the server says (sent on to the main thread). */
  agesChanged?(ages: SavedAges): void;
  /** A list as it is saved (the MCU list with the live readings folded in); the list itself by default. */
  toSave?<K extends EntityName>(name: K, value: Entities[K]): Entities[K];
  /** A list is shown from what this device saved (the MCUs' last readings seed the live side). */
  restored?<K extends EntityName>(name: K, value: Entities[K]): void;
  /** How long a changed list waits before it is saved, so a burst of changes is saved once (ms). */
  saveDelayMs?: number;
}

/** What a saved list must still be to be shown: the app may have changed since it was saved. */
const SAVED_SCHEMAS: { [K in EntityName]: (value: unknown) => Entities[K] | type.errors } = {
  farms: farm.array(),
  mcus: mcuList,
  profiles: settingProfile.array(),
  notifications: notification.array(),
  controllers: controller.array(),
  sensors: sensor.array(),
};

/**
 * The server could not be reached (no network, the server down, a gateway without it): what the
 * device saved is the best there is. A server that answered with an error said something else,
 * and that failure is the screen's to show.
 */
export function isUnreachable(err: unknown): boolean {
  if (!(err instanceof CoreError)) return false;
  if (err.code === "NETWORK" || err.code === "TIMEOUT") return true;
  return (err.status === 502 || err.status === 504) && err.serverMessage === null;
}

/** How each collection loads. */
const LOADERS: { [K in EntityName]: (rest: RestClient, clientId: () => number) => Promise<Entities[K]> } = {
  farms: (rest, id) => rest.farms(id()),
  mcus: (rest, id) => rest.mcus(id()),
  profiles: (rest, id) => rest.profiles(id()),
  notifications: (rest, id) => rest.notifications(id()),
  controllers: (rest) => rest.controllers(),
  sensors: (rest) => rest.sensors(),
};

const emptyEntities = (): Entities => ({ farms: [], mcus: [], profiles: [], notifications: [], controllers: [], sensors: [] });

/**
 * The entity collections of the core, each replaced whole when it changes. Each mutation is
 * declared with what it changes locally and which other collections it invalidates: those are
 * reloaded after it, and a failed reload does not fail a mutation that succeeded.
 */
export function createCollections(ctx: CollectionsContext) {
  const entities = emptyEntities();
  const now = ctx.now ?? Date.now;

  /** When each list last came from the server (or a mutation the server answered), in this page's life. */
  const answeredAt = new Map<EntityName, number>();
  /** The lists shown from what was saved or kept, and when the server last gave them. */
  const ages = new Map<EntityName, number>();
  /** The lists whose load found neither the server nor a saved copy. */
  const unreached = new Set<EntityName>();
  const saveTimers = new Map<EntityName, ReturnType<typeof setTimeout>>();

  const sendAges = () => ctx.agesChanged?.(Object.fromEntries(ages));

  /** A list from the server (or changed by a mutation it answered): it is current, and saved on the device. */
  function set<K extends EntityName>(name: K, value: Entities[K]): Entities[K] {
    entities[name] = value;
    ctx.changed(name, value);
    answeredAt.set(name, now());
    unreached.delete(name);
    if (ages.delete(name)) sendAges();
    scheduleSave(name);
    return value;
  }

  /** Saves the list as it is then, once a burst of changes is over; a list shown from the saved copy is not saved again. */
  function scheduleSave(name: EntityName) {
    if (!ctx.saved || saveTimers.has(name)) return;
    const asOf = generation;
    saveTimers.set(
      name,
      setTimeout(() => {
        saveTimers.delete(name);
        if (asOf === generation) void save(name);
      }, ctx.saveDelayMs ?? 250),
    );
  }
  async function save(name: EntityName, savedAt = answeredAt.get(name)): Promise<void> {
    if (!ctx.saved || savedAt === undefined || ages.has(name)) return;
    let clientId: number;
    try {
      clientId = ctx.clientId();
    } catch {
      return;
    }
    const value = ctx.toSave ? ctx.toSave(name, entities[name]) : entities[name];
    // A device that cannot keep it (storage full, refused) shows the server's lists as before.
    await ctx.saved.write(clientId, name, { value, savedAt }).catch((err: unknown) => console.warn(`The ${name} list could not be saved on this device`, err));
  }

  /**
   * The server could not be reached: the list stays what this page already has from it, or becomes
   * what this device saved. False when there is neither.
   */
  async function showSaved(name: EntityName, asOf: number): Promise<boolean> {
    if (ages.has(name)) return true;
    const kept = answeredAt.get(name);
    if (kept !== undefined) {
      ages.set(name, kept);
      sendAges();
      return true;
    }
    if (!ctx.saved) return false;
    let clientId: number;
    try {
      clientId = ctx.clientId();
    } catch {
      return false;
    }
    const saved = await ctx.saved.read(clientId, name);
    if (asOf !== generation) return false;
    // The server answered another load of it meanwhile.
    if (answeredAt.has(name)) return true;
    if (!saved) return false;
    const value = SAVED_SCHEMAS[name](saved.value);
    if (value instanceof type.errors) return false;
    entities[name] = value as never;
    ctx.changed(name, value as Entities[typeof name]);
    ages.set(name, saved.savedAt);
    sendAges();
    ctx.restored?.(name, value as Entities[typeof name]);
    return true;
  }

  /** Counts clears: a list that arrives after one belongs to the session that ended, and is dropped. */
  let generation = 0;
  async function load(name: EntityName): Promise<void> {
    const asOf = generation;
    try {
      await loadFromServer(name, asOf);
    } catch (err) {
      if (asOf !== generation || !isUnreachable(err)) throw err;
      if (await showSaved(name, asOf)) return;
      if (asOf === generation) unreached.add(name);
      throw err;
    }
  }
  async function loadFromServer(name: EntityName, asOf: number): Promise<void> {
    if (name === "mcus" && entities.mcus.length === 0 && ctx.firstMcus) {
      // A large fleet's first cards paint before the whole list (megabytes) is built, sent and parsed.
      // One after the other: on one database connection the whole list would hold the first page up.
      const head = await ctx.rest().mcusFirst(ctx.clientId(), FIRST_MCUS);
      if (asOf !== generation) return;
      if (head.total !== null && head.total <= head.items.length) return void set(name, head.items);
      ctx.firstMcus(head.items);
      const value = await LOADERS.mcus(ctx.rest(), ctx.clientId);
      if (asOf === generation) set(name, value);
      return;
    }
    const value = await LOADERS[name](ctx.rest(), ctx.clientId);
    if (asOf === generation) set(name, value);
  }
  /** Reloads what a successful mutation invalidated; its failure is not the mutation's. */
  async function invalidate(names: readonly EntityName[]): Promise<void> {
    await Promise.all(names.map((n) => load(n).catch(() => undefined)));
  }

  const replaceIn = <T>(list: T[], match: (item: T) => boolean, item: T) => list.map((x) => (match(x) ? item : x));
  /** A created item is appended, an updated one replaces its old self. */
  const upsert = <K extends EntityName>(name: K, item: Entities[K][number], match: ((x: Entities[K][number]) => boolean) | null) =>
    set(name, (match ? replaceIn(entities[name] as Entities[K][number][], match, item) : [...entities[name], item]) as Entities[K]);
  const removeFrom = <K extends EntityName>(name: K, match: (x: Entities[K][number]) => boolean) =>
    set(name, (entities[name] as Entities[K][number][]).filter((x) => !match(x)) as Entities[K]);

  /**
   * A screen's load joins one already under way (the start's prefetch, another screen's): one
   * request, one answer. Reloads after a mutation never join (they must see the mutation).
   */
  const inFlight = new Map<EntityName, Promise<void>>();
  function shared(name: EntityName): Promise<void> {
    let p = inFlight.get(name);
    if (!p) {
      p = load(name).finally(() => inFlight.delete(name));
      inFlight.set(name, p);
    }
    return p;
  }

  const loaders = {
    loadNotifications: () => shared("notifications"),
    loadMcus: () => shared("mcus"),
    loadFarms: () => shared("farms"),
    loadProfiles: () => shared("profiles"),
    loadControllers: () => shared("controllers"),
    loadSensors: () => shared("sensors"),
  };

  const mutations = {
    // farms: nothing else embeds a farm's fields.
    async createFarm(body: Omit<CreateFarmRequest, "client_id">): Promise<Farm> {
      const farm = await ctx.rest().createFarm({ ...body, client_id: ctx.clientId() });
      upsert("farms", farm, null);
      return farm;
    },
    async updateFarm(id: number, body: UpdateFarmRequest): Promise<Farm> {
      const farm = await ctx.rest().updateFarm(id, body);
      upsert("farms", farm, (f) => f.farm_id === id);
      return farm;
    },
    async deleteFarm(id: number): Promise<string> {
      const { message } = await ctx.rest().deleteFarm(id);
      removeFrom("farms", (f) => f.farm_id === id);
      return message;
    },

    // mcus: a farm lists its MCUs and counts them.
    async createMcu(body: Omit<CreateMcuRequest, "status">): Promise<Mcu> {
      const mcu = await ctx.rest().createMcu({ ...body, status: "active" });
      upsert("mcus", mcu, null);
      await invalidate(["farms"]);
      return mcu;
    },
    async updateMcu(id: number, body: UpdateMcuRequest): Promise<Mcu> {
      const mcu = await ctx.rest().updateMcu(id, body);
      upsert("mcus", mcu, (m) => m.mcu_id === id);
      await invalidate(["farms"]);
      return mcu;
    },
    async deleteMcu(id: number): Promise<string> {
      const { message } = await ctx.rest().deleteMcu(id);
      removeFrom("mcus", (m) => m.mcu_id === id);
      await invalidate(["farms"]);
      return message;
    },

    // controllers and sensors: an MCU record lists its devices (SPEC §4: reload the MCU list).
    async saveController(unitId: number | null, body: ControllerRequest): Promise<Controller> {
      const saved = unitId === null ? await ctx.rest().createController(body) : await ctx.rest().updateController(unitId, body);
      upsert("controllers", saved, unitId === null ? null : (c) => c.unit_id === unitId);
      await invalidate(["mcus"]);
      return saved;
    },
    async deleteController(unitId: number): Promise<void> {
      await ctx.rest().deleteController(unitId);
      removeFrom("controllers", (c) => c.unit_id === unitId);
      await invalidate(["mcus"]);
    },
    async saveSensor(sensorId: number | null, body: SensorRequest): Promise<Sensor> {
      const saved = sensorId === null ? await ctx.rest().createSensor(body) : await ctx.rest().updateSensor(sensorId, body);
      upsert("sensors", saved, sensorId === null ? null : (s) => s.sensor_id === sensorId);
      await invalidate(["mcus"]);
      return saved;
    },
    async deleteSensor(sensorId: number): Promise<void> {
      await ctx.rest().deleteSensor(sensorId);
      removeFrom("sensors", (s) => s.sensor_id === sensorId);
      await invalidate(["mcus"]);
    },

    // profiles: an MCU record embeds its linked profile.
    async createProfile(body: Omit<ProfileRequest, "client_id">): Promise<SettingProfile> {
      const profile = await ctx.rest().createProfile({ ...body, client_id: ctx.clientId() });
      upsert("profiles", profile, null);
      return profile;
    },
    async updateProfile(id: number, body: Omit<ProfileRequest, "client_id">): Promise<SettingProfile> {
      const profile = await ctx.rest().updateProfile(id, { ...body, client_id: ctx.clientId() });
      upsert("profiles", profile, (p) => p.profile_id === id);
      return profile;
    },
    async deleteProfile(id: number): Promise<string> {
      const { message } = await ctx.rest().deleteProfile(id);
      removeFrom("profiles", (p) => p.profile_id === id);
      await invalidate(["mcus"]);
      return message;
    },
    /** Links change both sides: both lists are reloaded, and their failure is the link's. */
    async link(mcuId: number, profileId: number): Promise<void> {
      await ctx.rest().link({ mcu_id: mcuId, profile_id: profileId });
      await Promise.all([load("mcus"), load("profiles")]);
    },
    async unlinkProfile(linkId: number): Promise<void> {
      await ctx.rest().unlink(linkId);
      await Promise.all([load("mcus"), load("profiles")]);
    },
  };

  return {
    entities,
    set,
    /**
     * Loads again the lists the server could not give (shown from the saved copy, or not at all):
     * it answers again. Each joins a load of it under way.
     */
    reloadUnreached(): void {
      for (const name of new Set([...ages.keys(), ...unreached])) shared(name).catch(() => undefined);
    },
    /** Whether some list waits for the server to answer again. */
    get waiting(): boolean {
      return ages.size > 0 || unreached.size > 0;
    },
    /**
     * Saves a current list again as of `savedAt` (the MCU list, for the live readings that came since
     * it loaded); a list shown from the saved copy is left as it was saved.
     */
    saveAgain(name: EntityName, savedAt: number): Promise<void> {
      const answered = answeredAt.get(name);
      return answered === undefined ? Promise.resolve() : save(name, Math.max(answered, savedAt));
    },
    /** Forgets every list saved on this device (sign-out). */
    forgetSaved(): Promise<void> {
      return ctx.saved ? ctx.saved.clear().catch((err: unknown) => console.warn("The lists saved on this device could not be removed", err)) : Promise.resolve();
    },
    /** Forgets every collection (sign-out) and sends them empty at once. */
    clear(): Entities {
      generation++;
      inFlight.clear();
      for (const timer of saveTimers.values()) clearTimeout(timer);
      saveTimers.clear();
      answeredAt.clear();
      unreached.clear();
      if (ages.size > 0) {
        ages.clear();
        sendAges();
      }
      Object.assign(entities, emptyEntities());
      return { ...entities };
    },
    loaders,
    mutations,
  };
}

export type Collections = ReturnType<typeof createCollections>;
