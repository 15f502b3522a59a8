import type {
  ControllerRequest,
  CreateFarmRequest,
  CreateMcuRequest,
  ProfileRequest,
  SensorRequest,
  UpdateFarmRequest,
  UpdateMcuRequest,
} from "../contract/api.ts";
import type { Controller, Farm, Mcu, Sensor, SettingProfile } from "../contract/entities.ts";
import type { Entities, EntityName } from "../contract/live.ts";
import { FIRST_MCUS } from "../contract/api-paths.ts";
import type { RestClient } from "./rest-client.ts";

export interface CollectionsContext {
  /** The session-bound REST client of the moment. */
  rest(): RestClient;
  /** The started client's id; throws when there is none. */
  clientId(): number;
  /** A collection was replaced (sent on to the main thread). */
  changed<K extends EntityName>(name: K, value: Entities[K]): void;
  /** The first screen of a long MCU list, ahead of the whole list (sent on, not kept). */
  firstMcus?(mcus: Mcu[]): void;
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

  function set<K extends EntityName>(name: K, value: Entities[K]): Entities[K] {
    entities[name] = value;
    ctx.changed(name, value);
    return value;
  }
  /** Counts clears: a list that arrives after one belongs to the session that ended, and is dropped. */
  let generation = 0;
  async function load(name: EntityName): Promise<void> {
    const asOf = generation;
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
    /** Forgets every collection (sign-out) and sends them empty at once. */
    clear(): Entities {
      generation++;
      inFlight.clear();
      Object.assign(entities, emptyEntities());
      return { ...entities };
    },
    loaders,
    mutations,
  };
}

export type Collections = ReturnType<typeof createCollections>;
