import type { Breach } from "./conditions.ts";
import type { Entities, EntityName } from "./collections.ts";
import type { ProfileConfig } from "./entities.ts";
import type { FarmStatus, LiveReading, McuStatus, Notification, SensorType } from "./entities.ts";

/**
 * What crosses the thread boundary between the data core (worker) and the main thread. The core
 * sends CoreUpdates; the main thread answers with control calls (ack, setInterest) over Comlink.
 */

/**
 * The live state of one MCU as the dashboard shows it. Snapshots are immutable: a change makes a
 * new object, an unchanged MCU keeps its object (so React can compare by identity).
 */
export interface McuLive {
  /** The MCU's MAC, the socket's deviceId. */
  mac: string;
  mcuId: number | null;
  /** The latest reading; each realtimeData replaces it whole (SPEC §4). */
  readings: LiveReading | null;
  /** The status the device or server reported: online, offline, active, maintenance. */
  status: string;
  /** When the latest reading arrived (epoch ms), or null if none has. */
  lastReadingAt: number | null;
  /** Online iff a reading arrived within the freshness window, judged at the last clock tick. */
  online: boolean;
  /** Toggles sent and not yet acknowledged: `${target}:${type}` → the requested value. */
  pending: Readonly<Record<string, boolean>> | null;
}

/**
 * What one MCU's card of the Dashboard's MCU Readings shows, joined and judged in the core: the
 * MCU's record (name, farm, linked profile, registered sensors) with its live snapshot, and the
 * readings outside the linked profile. Immutable: an unchanged card keeps its object.
 */
/** Where a batch is, as its phase line says it: a day of its phase's days, a day waiting for the grower to confirm `confirm`, or on hold. */
export type McuGrowPlace =
  | { state: "day"; phase: string; day: number; days: number }
  | { state: "waiting"; phase: string; day: number; confirm: string }
  | { state: "held"; phase: string };

/** The batch growing in an MCU's room, as its cards say it (the plan in contract/grow.ts, at the core's clock). */
export interface McuGrowView {
  batchId: number;
  batchName: string;
  /** "Fruiting · day 3 of 7", "Pinning · day 2 · waiting: Pins visible", "Fruiting · on hold". */
  label: string;
  /** The same place as parts, for a screen that words it in its reader's language (the phase's name and what it waits for are the grower's). */
  place: McuGrowPlace;
  /** The config the plan gives the room now: its readings are judged against it, not the set-aside profile. */
  config: ProfileConfig;
}

export interface McuCardView {
  mcuId: number;
  mac: string;
  name: string;
  farmName: string;
  /** The linked profile's name, null when none is linked. */
  profileName: string | null;
  online: boolean;
  readings: LiveReading | null;
  pending: McuLive["pending"];
  /** The readings outside the linked profile, judged only while online (an old reading says nothing about the room now). */
  breaches: readonly Breach[];
  /** Registered sensors by type: the "total" of each reading's "reporting/total" label. */
  sensorTotals: Readonly<Record<SensorType, number>>;
  /** The running batch the MCU follows (its linked profile is set aside meanwhile), null when none. */
  grow: McuGrowView | null;
}

/** How long ago an MCU was last seen, as SPEC §2 words it: under a minute, else whole minutes, hours or days (rounded down). */
export type LastSeenAgo = { unit: "now" } | { unit: "minutes" | "hours" | "days"; count: number };

/**
 * What one MCU's card of the MCU Manager shows, joined and judged in the core: the MCU's record
 * (name, farm, MAC, linked profile, when it was added) with its live snapshot (the status its badge
 * shows, the battery level, the newest sign of life in words at the core's clock). Immutable: a view
 * whose shown content is unchanged keeps its object (a reading that moves nothing shown sends nothing).
 */
export interface McuManagerCardView {
  mcuId: number;
  mac: string;
  name: string;
  farmName: string;
  /** The linked profile (an MCU has at most one link), null when none is linked. */
  profileLink: { linkId: number; profileId: number; name: string } | null;
  /** The status the badge shows, filters match and stats count (`mcuLiveStatus`). */
  status: McuStatus;
  /** The battery level in % (the live reading's, else the record's), null when none was ever reported. */
  battery: number | null;
  /** The newest sign of life (epoch ms: a live reading or the record's lastSeen), null when none. */
  lastSeenAt: number | null;
  /** `lastSeenAt` in words ("Just now", "5m ago", "Never") at the core's clock. */
  lastSeenText: string;
  /** The same moment as the words' parts (just now, or whole minutes, hours or days ago), for the card to say in the reader's language; null when never. */
  lastSeenAgo: LastSeenAgo | null;
  /** When the MCU was added (ISO date-time, from the record). */
  createdAt: string;
  /** The running batch the MCU follows (its linked profile is set aside meanwhile), null when none. */
  grow: McuGrowView | null;
}

/** Card views of some MCUs, the dashboard's and the MCU Manager's. */
export interface McuViews {
  cards: McuCardView[];
  managerCards: McuManagerCardView[];
}

/** The four summary cards of the Dashboard (SPEC §2), over the whole fleet. */
export interface DashboardSummary {
  totalFarms: number;
  /** MCUs whose live status is online (a reading within 120 s). */
  activeMcus: number;
  /** Farms with status warning. */
  warnings: number;
  offlineMcus: number;
}

/** The MCU Manager's stat cards (SPEC §2), counted with the badge's live status (`mcuLiveStatus`). */
export interface McuStats {
  total: number;
  online: number;
  offline: number;
  lowBattery: number;
}

/** The MCU Manager's search and filters (SPEC §2); "" means "all". */
export interface McuQuery {
  search: string;
  status: McuStatus | "";
  /** A farm_id as text, or "". */
  farmId: string;
}

/** The one text naming a query, on both sides of the boundary. */
export const mcuQueryKey = (q: McuQuery): string => JSON.stringify([q.search.trim().toLowerCase(), q.status, q.farmId]);

export function parseMcuQueryKey(key: string): McuQuery {
  const [search, status, farmId] = JSON.parse(key) as [string, McuQuery["status"], string];
  return { search, status, farmId };
}

/** Whole-fleet results the core computes and sends when they change (small, whatever the fleet). */
export interface FleetResults {
  summary: DashboardSummary;
  mcuStats: McuStats;
  /** SPEC §3 live status of every farm, by farm_id. */
  farmStatuses: Readonly<Record<number, FarmStatus>>;
  /** The ids of the MCUs each watched query matches, in list order, by `mcuQueryKey`. */
  queries: Readonly<Record<string, readonly number[]>>;
}

/** The parts of the fleet results that changed; `queries` holds only the queries whose result changed. */
export type FleetChanges = Partial<FleetResults>;

/**
 * The wall view: MCUs grouped by farm, trouble first within each farm, in pages of what
 * fits one screen. The main thread measures the screen and says which page it shows; the core
 * groups, orders and pages the whole fleet and sends that one page's MCU ids (what is on screen),
 * again only when it changed.
 */
export interface WallRequest {
  /** Width and height (px) of the area the farm sections may take on one screen. */
  width: number;
  height: number;
  /** The least width of a tile and its height (px), at the base size (scale 1). */
  tileWidth: number;
  tileHeight: number;
  /** The gap between tiles (px). */
  gap: number;
  /** A farm's heading with the gap under it, and the gap between farms (px). */
  headingHeight: number;
  sectionGap: number;
  /** The page shown (from 0); the core answers with it clamped to the pages there are. */
  page: number;
}

const WALL_REQUEST_FIELDS = ["width", "height", "tileWidth", "tileHeight", "gap", "headingHeight", "sectionGap", "page"] as const;

/** The one text naming a wall request, on both sides of the boundary. */
export const wallRequestKey = (r: WallRequest): string => JSON.stringify(WALL_REQUEST_FIELDS.map((f) => r[f]));

export function parseWallRequestKey(key: string): WallRequest {
  const values = JSON.parse(key) as number[];
  return Object.fromEntries(WALL_REQUEST_FIELDS.map((f, i) => [f, values[i]])) as unknown as WallRequest;
}

/**
 * A wall tile's state, worst first (the order tiles sort in within their farm): a reading outside
 * the linked profile (judged while online), offline (no reading within 120 s), a battery below 30 %.
 */
export const WALL_TILE_STATES = ["out-of-profile", "offline", "low-battery", "normal"] as const;
export type WallTileState = (typeof WALL_TILE_STATES)[number];

/** How many MCUs are in each state that needs someone (of a farm, of the fleet). */
export interface WallCounts {
  mcus: number;
  outOfProfile: number;
  offline: number;
  lowBattery: number;
}

/** One farm's part of a wall page. */
export interface WallSection {
  farmId: number;
  name: string;
  /** The whole farm's counts, not only the part shown. */
  counts: WallCounts;
  /** Where the part shown starts in the farm's order (from 0): a farm larger than a screen goes on over the next pages. */
  from: number;
  /** The MCUs shown, trouble first. */
  mcuIds: number[];
}

/** The page of the wall on screen. */
export interface WallPage {
  page: number;
  pages: number;
  /**
   * How many times the base size the tiles are drawn: a fleet that fits one screen at a larger
   * size fills it (1 when it takes more than one screen at the base size).
   */
  scale: number;
  /** Tile columns at that size. */
  columns: number;
  sections: WallSection[];
  /** The whole fleet's counts. */
  counts: WallCounts;
}

/**
 * One frame's message: the snapshots of the MCUs of interest that changed since the last batch
 * (or that just became of interest), MCUs gone from the fleet, and the fleet results if changed.
 */
export interface SnapshotBatch {
  seq: number;
  upserts: McuLive[];
  removed: string[];
  clock: number;
  fleet?: FleetChanges;
  /** The card views of the MCUs whose cards are mounted that changed (or whose cards just mounted). */
  cards?: McuCardView[];
  /** The views of the MCUs whose MCU Manager cards are mounted that changed (or whose cards just mounted). */
  managerCards?: McuManagerCardView[];
  /** The wall page asked for (`WallRequest`), when it changed or was asked for again. */
  wall?: WallPage;
}

/** The collections the core keeps for the app (declared in collections.ts), each replaced whole when it changes. */
export type { Entities, EntityName } from "./collections.ts";

export type ConnectionState = "connecting" | "connected" | "reconnecting" | "unauthorized" | "closed";

/**
 * How the core's copy of a collection stands: loading (before its first answer of the session: a
 * list it holds stays "ready" while it loads again), ready, or failed with why; idle when signed out.
 */
export interface LoadState {
  state: "idle" | "loading" | "ready" | "error";
  /** Why the last load failed. */
  message?: string;
}

/** One collection crossing by record (contract/collections.ts `crossing`), by its name. */
export interface RecordsOf<K extends EntityName> {
  kind: "records";
  name: K;
  /** The field naming each record (the declaration's `id`). */
  key: string;
  /** Every id in list order; absent when the list is as last sent (only `left` or `load` changed). */
  ids?: number[];
  /** The records that changed since the last list sent (for the others the receiver keeps the objects it holds). */
  changed: Entities[K];
  /** True on all but the last part of a list (and on a list's head, which is not the list). */
  more?: boolean;
  /** Items that left the list for good (its declaration's `merge`), each as its last version, in the order they left. */
  left?: Entities[K];
  /** The load's state, when it changed. */
  load?: LoadState;
  /** The card views (both screens') of the first part's records, so the first cards paint with it rather than a round trip after they mount. */
  views?: McuViews;
}
export type RecordsUpdate = { [K in EntityName]: RecordsOf<K> }[EntityName];

/** What the core sends to the main thread. */
export type CoreUpdate =
  | { kind: "live"; batch: SnapshotBatch }
  /**
   * Collections crossing whole (the default), each replaced there by the list it carries; `left`,
   * items that left a list for good, and `loads`, load states that changed, by collection.
   */
  | { kind: "entities"; entities: Partial<Entities>; left?: Partial<Entities>; loads?: Partial<Record<EntityName, LoadState>> }
  /**
   * A collection declared to cross by record (the MCU list: megabytes for a large fleet), compared
   * in the core: only the records that changed cross. A long list of changes comes in parts, the
   * first screen's records first, each part in its own message (the receiver never parses the
   * whole fleet at once).
   */
  | RecordsUpdate
  /**
   * `heardAt`: when the server was last heard from (epoch ms: any event, or its keep-alive ping);
   * while the link is down, what the screens show is as fresh as that.
   */
  | { kind: "connection"; state: ConnectionState | "idle"; message?: string; heardAt?: number }
  | { kind: "notification"; notification: Notification };
