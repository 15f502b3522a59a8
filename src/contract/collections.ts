import { type } from "arktype";
import { API_PATHS, FIRST_MCUS } from "./api-paths.ts";
import type {
  BatchActionRequest,
  ControllerRequest,
  CreateFarmRequest,
  CreateMcuRequest,
  HarvestRequest,
  ProfileRequest,
  RecipeRequest,
  SensorRequest,
  StartBatchRequest,
  UpdateBatchRequest,
  UpdateFarmRequest,
  UpdateMcuRequest,
} from "./api.ts";
import { alarm, farmAcknowledgement, alarmPage } from "./alarms.ts";
import { ALARM_PAGE_MAX, ALARM_PATHS, type AlarmState } from "./alarms-values.ts";
import { batch, recipe, type Batch } from "./grow.ts";
import { controller, farm, mcu, mcuList, notification, profileLink, sensor, settingProfile } from "./entities.ts";
import { farmRole } from "./team.ts";
import type { CollectionEvents } from "./realtime.ts";

/**
 * The entity collections the data core keeps for the app, each declared once: how it loads, the
 * mutations that change it (and which other collections each one makes stale), and the live events
 * that patch it. The data core's one cache (worker/collections.ts) runs every declaration; the
 * collection names and types (`EntityName`, `Entities`, `Mutations`) derive from this table. Only
 * the core imports it as a value (the schemas): the main thread imports its types.
 */

const message = type({ message: "string" });

/** What one call of a mutation sends: where, what, and which item of its collection it changes (null: a new one). */
export interface MutationRequest {
  path: string;
  body?: unknown;
  id?: number | null;
}

/** What the server's answer does to the mutation's own collection. */
export type MutationEffect =
  /**
   * The answer is the item: it replaces the item with the request's `id`, or is added when that is
   * null. In a collection that declares `merge`, each item the answer carries meets its held version
   * by its own id (added when none is held).
   */
  | "upsert"
  /** The item with the request's `id` is gone. */
  | "remove"
  /** Nothing here: the collections it reloads say what changed. */
  | "none";

export interface MutationSpec<Args extends unknown[] = never, Answer extends type.Any = type.Any, Result = unknown, Names extends string = string> {
  /** "POST|PUT": a save, POST for a new item (the request's `id` null), PUT for an existing one. */
  method: "POST" | "PUT" | "DELETE" | "POST|PUT";
  /** The request of a call with these arguments; `clientId` throws when no client is started. */
  request(clientId: () => number, ...args: Args): MutationRequest;
  /** The answer's schema (the server's answer is checked against it). */
  answer: Answer;
  effect: MutationEffect;
  /** Other collections the server changed too: reloaded after it, and a failed reload does not fail the mutation. */
  invalidates?: readonly Names[];
  /** Collections reloaded after it whose failure is the mutation's (a link changes both sides). */
  reloads?: readonly Names[];
  /** The items an "upsert" answer carries (a collection with `merge`); the answer itself by default. */
  items?(answer: Answer["infer"]): readonly object[];
  /** What the caller gets; the answer by default. */
  result?(answer: Answer["infer"]): Result;
}

/** The live events a collection may be patched by (realtime.ts `COLLECTION_EVENT_PAYLOADS`), with their checked payloads. */
export type PatchEvents = CollectionEvents;

/** The fields of an item that hold a number (an item is named by one). */
type NumberField<Item> = { [F in keyof Item]-?: Item[F] extends number ? F : never }[keyof Item] & string;

/** A list the server gives a page at a time. */
export interface Pages<Item, P extends type.Any = type.Any> {
  /** One page's answer. */
  schema: P;
  items(page: P["infer"]): readonly Item[];
  /** The cursor of the page after it (sent back as the `cursor` parameter), null on the last page. */
  next(page: P["infer"]): string | null;
}

export interface CollectionSpec<S extends type.Any = type.Any, M extends object = object, Item = S["infer"][number], P extends type.Any = type.Any, Shown extends string = string> {
  /** The list's schema, for the server's answer and for a copy this device saved. */
  schema: S;
  /** The field that names an item (mutations find their item by it; a list crossing by record is keyed by it). */
  id: NumberField<Item>;
  /** Where the list is loaded from (its first page when paged); a function of the client's id for a list of one client. */
  path: string | ((clientId: number) => string);
  /**
   * The first this many items are asked for ahead of the whole list when the list is empty (a long
   * list's first screen paints before the whole list is built, sent and parsed). A list crossing by
   * record crosses in parts too, this many records first.
   */
  headFirst?: number;
  /** Loaded a page at a time, each page asked for with the cursor the one before gave. */
  pages?: Pages<Item, P>;
  /** The collection's mutations, by the name the core's method takes. */
  mutations: M;
  /**
   * Live events that change the list, each with the list it makes; "upsert": the payload is an
   * item's whole new version, met with the held one as an "upsert" answer is; "reload": the list
   * is loaded afresh (what the event changed is more than its payload says: a farm joined or left).
   */
  patches?: { [E in keyof PatchEvents]?: ((list: readonly Item[], payload: PatchEvents[E]) => Item[]) | (PatchEvents[E] extends Item ? "upsert" : never) | "reload" };
  /**
   * How a version of an item that arrives (a live event, a mutation's answer, an event heard while
   * the list loaded, laid over the load's answer, which may predate it) meets the version held
   * (undefined: none): the version the list holds then (the held one itself: nothing changed, or
   * what arrived is stale), or "leaves": the item leaves the list for good, is remembered, and any
   * later version of it is refused. Without it, what arrives replaces what is held.
   */
  merge?(held: Item | undefined, incoming: Item): Item | "leaves";
  /** Kept on this device for offline use (the default); false: only what the server answered this session is shown. */
  savedOnDevice?: boolean;
  /** Loaded by the core whenever the socket (re)authenticates: the live events that keep it current were lost while it was down. */
  loadsOnConnect?: boolean;
  /**
   * How it crosses to the main thread: "whole" (the default), each change carries the list; "by-record",
   * only the records that changed since the last crossing (by `id`), with the ids in order.
   */
  crossing?: "whole" | "by-record";
  /** Changes other than a load's wait this long (ms) before they cross, so a burst crosses as one message. */
  burstMs?: number;
  /**
   * Lists its items are shown with (an MCU's card says which batch its room follows). Until one of
   * them has answered in this session, a load of this list loads it alongside (or joins its load
   * under way) and lets its own items cross once that has answered or failed: the first items paint
   * whole rather than growing a moment later, which would move what the person has scrolled to.
   */
  shownWith?: readonly Shown[];
}

/** A mutation with its argument and result types kept (they become the core's method). */
const mutation = <Args extends unknown[], Answer extends type.Any, Result = Answer["infer"], const Names extends string = never>(spec: MutationSpec<Args, Answer, Result, Names>) => spec;
// The mutations are not typed by the collection: each keeps the types its own declaration gives it.
const collection = <S extends type.Any, M extends object, P extends type.Any = type.Any, const Shown extends string = never>(spec: CollectionSpec<S, M, S["infer"][number], P, Shown>) => spec;
/** The lists that hold what a person may see of other accounts' farms: joining or leaving one changes them. */
const SEEN_BY_ROLE = ["farms", "mcus", "profiles", "controllers", "sensors", "recipes", "batches", "alarms"] as const;
const messageOf = (answer: { message: string }) => answer.message;

/** An alarm only moves forward: open, then acknowledged, then resolved. */
const ALARM_RANK: Record<AlarmState, number> = { open: 0, acknowledged: 1, resolved: 2 };
const nothing = (): void => undefined;

export const COLLECTIONS = {
  farms: collection({
    schema: farm.array(),
    id: "farm_id",
    path: API_PATHS.farmsOfClient,
    // Nothing else embeds a farm's fields.
    // A farm joined or left changes what the person may see.
    patches: { farmRolesChanged: "reload" },
    mutations: {
      createFarm: mutation({
        method: "POST",
        request: (clientId, body: Omit<CreateFarmRequest, "client_id">) => ({ path: API_PATHS.farms, body: { ...body, client_id: clientId() }, id: null }),
        answer: farm,
        effect: "upsert",
      }),
      updateFarm: mutation({
        method: "PUT",
        request: (_clientId, id: number, body: UpdateFarmRequest) => ({ path: API_PATHS.farm(id), body, id }),
        answer: farm,
        effect: "upsert",
      }),
      deleteFarm: mutation({ method: "DELETE", request: (_clientId, id: number) => ({ path: API_PATHS.farm(id), id }), answer: message, effect: "remove", result: messageOf }),
    },
  }),

  mcus: collection({
    schema: mcuList,
    id: "mcu_id",
    path: API_PATHS.mcusByClient,
    headFirst: FIRST_MCUS,
    // Megabytes for a large fleet, of which a reload changes a few records.
    crossing: "by-record",
    // Its cards say which batch each room follows (two more lines on the card).
    shownWith: ["batches"],
    // A farm lists its MCUs and counts them.
    // A farm joined or left changes what the person may see.
    patches: { farmRolesChanged: "reload" },
    mutations: {
      createMcu: mutation({
        method: "POST",
        request: (_clientId, body: Omit<CreateMcuRequest, "status">) => ({ path: API_PATHS.mcus, body: { ...body, status: "active" }, id: null }),
        answer: mcu,
        effect: "upsert",
        invalidates: ["farms"],
      }),
      updateMcu: mutation({
        method: "PUT",
        request: (_clientId, id: number, body: UpdateMcuRequest) => ({ path: API_PATHS.mcu(id), body, id }),
        answer: mcu,
        effect: "upsert",
        invalidates: ["farms"],
      }),
      deleteMcu: mutation({ method: "DELETE", request: (_clientId, id: number) => ({ path: API_PATHS.mcu(id), id }), answer: message, effect: "remove", invalidates: ["farms"], result: messageOf }),
    },
  }),

  profiles: collection({
    schema: settingProfile.array(),
    id: "profile_id",
    path: API_PATHS.profilesOfClient,
    // An MCU record embeds its linked profile.
    // A farm joined or left changes what the person may see.
    patches: { farmRolesChanged: "reload" },
    mutations: {
      createProfile: mutation({
        method: "POST",
        request: (clientId, body: Omit<ProfileRequest, "client_id">) => ({ path: API_PATHS.profiles, body: { ...body, client_id: clientId() }, id: null }),
        answer: settingProfile,
        effect: "upsert",
      }),
      updateProfile: mutation({
        method: "PUT",
        // A profile of another account (a Manager of one of its farms) is saved in that account.
        request: (clientId, id: number, body: Omit<ProfileRequest, "client_id"> & { client_id?: number }) => ({ path: API_PATHS.profile(id), body: { ...body, client_id: body.client_id ?? clientId() }, id }),
        answer: settingProfile,
        effect: "upsert",
      }),
      deleteProfile: mutation({ method: "DELETE", request: (_clientId, id: number) => ({ path: API_PATHS.profile(id), id }), answer: message, effect: "remove", invalidates: ["mcus"], result: messageOf }),
      link: mutation({
        method: "POST",
        request: (_clientId, mcuId: number, profileId: number) => ({ path: API_PATHS.link, body: { mcu_id: mcuId, profile_id: profileId } }),
        answer: profileLink,
        effect: "none",
        reloads: ["mcus", "profiles"],
        result: nothing,
      }),
      unlinkProfile: mutation({ method: "DELETE", request: (_clientId, linkId: number) => ({ path: API_PATHS.unlink(linkId) }), answer: message, effect: "none", reloads: ["mcus", "profiles"], result: nothing }),
    },
  }),

  notifications: collection({
    schema: notification.array(),
    id: "notification_id",
    path: API_PATHS.notifications,
    mutations: {},
    // Newest first.
    patches: { notification: (list, n) => [n, ...list] },
  }),

  controllers: collection({
    schema: controller.array(),
    id: "unit_id",
    path: API_PATHS.controllers,
    // An MCU record lists its devices (SPEC §4: reload the MCU list).
    // A farm joined or left changes what the person may see.
    patches: { farmRolesChanged: "reload" },
    mutations: {
      saveController: mutation({
        method: "POST|PUT",
        request: (_clientId, unitId: number | null, body: ControllerRequest) => ({ path: unitId === null ? API_PATHS.controllers : API_PATHS.controller(unitId), body, id: unitId }),
        answer: controller,
        effect: "upsert",
        invalidates: ["mcus"],
      }),
      deleteController: mutation({ method: "DELETE", request: (_clientId, unitId: number) => ({ path: API_PATHS.controller(unitId), id: unitId }), answer: message, effect: "remove", invalidates: ["mcus"], result: nothing }),
    },
  }),

  sensors: collection({
    schema: sensor.array(),
    id: "sensor_id",
    path: API_PATHS.sensors,
    // A farm joined or left changes what the person may see.
    patches: { farmRolesChanged: "reload" },
    mutations: {
      saveSensor: mutation({
        method: "POST|PUT",
        request: (_clientId, sensorId: number | null, body: SensorRequest) => ({ path: sensorId === null ? API_PATHS.sensors : API_PATHS.sensor(sensorId), body, id: sensorId }),
        answer: sensor,
        effect: "upsert",
        invalidates: ["mcus"],
      }),
      deleteSensor: mutation({ method: "DELETE", request: (_clientId, sensorId: number) => ({ path: API_PATHS.sensor(sensorId), id: sensorId }), answer: message, effect: "remove", invalidates: ["mcus"], result: nothing }),
    },
  }),

  recipes: collection({
    schema: recipe.array(),
    id: "recipe_id",
    path: API_PATHS.recipes,
    // A batch shows its recipe's name.
    // A farm joined or left changes what the person may see.
    patches: { farmRolesChanged: "reload" },
    mutations: {
      saveRecipe: mutation({
        method: "POST|PUT",
        request: (_clientId, recipeId: number | null, body: RecipeRequest) => ({ path: recipeId === null ? API_PATHS.recipes : API_PATHS.recipe(recipeId), body, id: recipeId }),
        answer: recipe,
        effect: "upsert",
        invalidates: ["batches"],
      }),
      deleteRecipe: mutation({ method: "DELETE", request: (_clientId, recipeId: number) => ({ path: API_PATHS.recipe(recipeId), id: recipeId }), answer: message, effect: "remove", result: messageOf }),
      addStarterRecipes: mutation({
        method: "POST",
        request: () => ({ path: API_PATHS.recipeStarters, body: {} }),
        answer: recipe.array(),
        effect: "none",
        reloads: ["recipes"],
        // The server answers with the whole library: the caller gets its size now (what was added is what it has beyond the list it showed).
        result: (list) => list.length,
      }),
    },
  }),

  batches: collection({
    schema: batch.array(),
    id: "batch_id",
    path: API_PATHS.batches,
    // The cards say which batch each room follows: the list is small, and its changes come live.
    loadsOnConnect: true,
    // A recipe counts its running batches; an MCU's card shows its batch's phase.
    mutations: {
      startBatch: mutation({
        method: "POST",
        request: (_clientId, body: StartBatchRequest) => ({ path: API_PATHS.batches, body, id: null }),
        answer: batch,
        effect: "upsert",
        invalidates: ["recipes"],
      }),
      updateBatch: mutation({
        method: "PUT",
        request: (_clientId, batchId: number, body: UpdateBatchRequest) => ({ path: API_PATHS.batch(batchId), body, id: batchId }),
        answer: batch,
        effect: "upsert",
      }),
      batchAction: mutation({
        method: "POST",
        request: (_clientId, batchId: number, body: BatchActionRequest) => ({ path: API_PATHS.batchActions(batchId), body, id: batchId }),
        answer: batch,
        effect: "upsert",
        invalidates: ["recipes"],
      }),
      addHarvest: mutation({
        method: "POST",
        request: (_clientId, batchId: number, body: HarvestRequest) => ({ path: API_PATHS.batchHarvests(batchId), body, id: batchId }),
        answer: batch,
        effect: "upsert",
      }),
      deleteHarvest: mutation({
        method: "DELETE",
        request: (_clientId, batchId: number, harvestId: number) => ({ path: API_PATHS.batchHarvest(batchId, harvestId), id: batchId }),
        answer: batch,
        effect: "upsert",
      }),
      deleteBatch: mutation({ method: "DELETE", request: (_clientId, batchId: number) => ({ path: API_PATHS.batch(batchId), id: batchId }), answer: message, effect: "remove", invalidates: ["recipes"], result: messageOf }),
    },
    // The plan advances by itself on the server, and another open app may act on a batch.
    patches: {
      farmRolesChanged: "reload",
      batch: (list, b) => (list.some((x) => x.batch_id === b.batch_id) ? list.map((x) => (x.batch_id === b.batch_id ? b : x)) : [...list, b as Batch]),
    },
  }),

  /**
   * The client's active (open or acknowledged) alarms: the farm statuses and the Warnings card are
   * computed from them. The resolved ones are a screen's query (the core's `alarms`).
   */
  alarms: collection({
    schema: alarm.array(),
    id: "alarm_id",
    path: `${ALARM_PATHS.alarms}?state=active&limit=${ALARM_PAGE_MAX}`,
    pages: { schema: alarmPage, items: (page) => page.alarms, next: (page) => page.next },
    merge(held, incoming) {
      if (held && ALARM_RANK[held.state] > ALARM_RANK[incoming.state]) return held;
      // Resolution is final: the alarm leaves the active set, and the screens show it resolved.
      if (incoming.state === "resolved") return "leaves";
      // A worse value reached is news too: the alarm shows it.
      if (held && held.state === incoming.state && held.acknowledged_at === incoming.acknowledged_at && held.worst_value === incoming.worst_value) return held;
      return incoming;
    },
    // A copy from an earlier session would show alarms resolved since as active.
    savedOnDevice: false,
    loadsOnConnect: true,
    // Alarms come in bursts (a gateway down: every MCU offline at once).
    crossing: "by-record",
    burstMs: 100,
    mutations: {
      acknowledgeAlarm: mutation({
        method: "POST",
        // An empty comment is sent as none.
        request: (_clientId, alarmId: number, comment: string) => ({ path: ALARM_PATHS.acknowledge(alarmId), body: comment ? { comment } : {}, id: alarmId }),
        answer: alarm,
        effect: "upsert",
      }),
      acknowledgeFarmAlarms: mutation({
        method: "POST",
        request: (_clientId, farmId: number, comment: string) => ({ path: ALARM_PATHS.acknowledgeFarm, body: comment ? { farm_id: farmId, comment } : { farm_id: farmId } }),
        answer: farmAcknowledgement,
        effect: "upsert",
        items: (answer) => answer.acknowledged,
        result: (answer) => answer.acknowledged,
      }),
    },
    patches: { alarm: "upsert", farmRolesChanged: "reload" },
  }),

  /** The person's role on each farm they see: the app hides or disables what a role cannot do (team.ts). */
  farmRoles: collection({
    schema: farmRole.array(),
    id: "farm_id",
    path: API_PATHS.farmRoles,
    loadsOnConnect: true,
    mutations: {
      acceptInvitation: mutation({
        method: "POST",
        request: (_clientId, code: string) => ({ path: API_PATHS.acceptInvitation, body: { code }, id: null }),
        answer: farmRole,
        effect: "upsert",
        invalidates: SEEN_BY_ROLE,
      }),
      // Leaving is removing oneself from the farm's members.
      leaveFarm: mutation({
        method: "DELETE",
        request: (clientId, farmId: number) => ({ path: API_PATHS.farmMember(farmId, clientId()), id: farmId }),
        answer: message,
        effect: "remove",
        invalidates: SEEN_BY_ROLE,
        result: messageOf,
      }),
    },
    patches: { farmRolesChanged: "reload" },
  }),
};

type Table = typeof COLLECTIONS;
export type EntityName = keyof Table;
/** The collections as the core keeps them, each replaced whole when it changes. */
export type Entities = { [K in EntityName]: Table[K]["schema"]["infer"] };

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every collection's mutations as the core's methods, by their declared names. */
export type Mutations = UnionToIntersection<
  {
    [K in EntityName]: {
      [N in keyof Table[K]["mutations"]]: Table[K]["mutations"][N] extends MutationSpec<infer Args, type.Any, infer Result, string> ? (...args: Args) => Promise<Result> : never;
    };
  }[EntityName]
>;
export type MutationName = keyof Mutations;

/** The names a mutation invalidates or reloads are collections of this table (checked here, at compile time). */
type NamedByMutations = {
  [K in EntityName]: {
    [N in keyof Table[K]["mutations"]]: Table[K]["mutations"][N] extends { invalidates?: readonly (infer I)[]; reloads?: readonly (infer R)[] } ? I | R : never;
  }[keyof Table[K]["mutations"]];
}[EntityName];
const namedByMutations: readonly EntityName[] = [] as NamedByMutations[];
void namedByMutations;

/** The lists a collection is shown with are collections of this table (checked here, at compile time). */
type NamedByShownWith = { [K in EntityName]: Table[K] extends { shownWith?: readonly (infer N)[] } ? N : never }[EntityName];
const namedByShownWith: readonly EntityName[] = [] as NamedByShownWith[];
void namedByShownWith;
