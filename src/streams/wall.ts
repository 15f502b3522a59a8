import { isLowBattery, thresholdBreaches } from "../contract/conditions.ts";
import type { Farm, LiveReading, Mcu, ProfileConfig } from "../contract/entities.ts";
import { WALL_TILE_STATES, type McuCardView, type McuLive, type WallCounts, type WallPage, type WallRequest, type WallSection, type WallTileState } from "../contract/live.ts";
import { linkedConfig } from "./live-status.ts";

/**
 * The wall view's whole-fleet work, done where the data lives (the data core): every MCU judged,
 * grouped by farm, ordered trouble first and cut into the pages that fit the screen. Only the page
 * on screen crosses to the main thread.
 */

/**
 * A tile's state from what its card view holds (the same judgement on both sides of the boundary):
 * offline first, since an old reading says nothing about the room now (the card view judges the
 * profile only while online for the same reason).
 */
export function wallTileState(online: boolean, readings: LiveReading | null, outOfProfile: boolean): WallTileState {
  if (!online) return "offline";
  if (outOfProfile) return "out-of-profile";
  return isLowBattery(readings) ? "low-battery" : "normal";
}

/**
 * A wall tile's values are drawn at most this often; what it says (its state, the values out of
 * profile, online, a low battery, its name) at once. A number that changes five times a second
 * cannot be read from across a room, and redrawing it costs the wall's screen five times as much.
 */
export const WALL_TILE_VALUES_MS = 1000;

/** Whether two card views of an MCU show the same on a wall tile but for its values. */
export function sameWallTile(a: McuCardView, b: McuCardView): boolean {
  return (
    a.name === b.name &&
    a.online === b.online &&
    a.grow === b.grow &&
    isLowBattery(a.readings) === isLowBattery(b.readings) &&
    (a.readings === null) === (b.readings === null) &&
    a.breaches.length === b.breaches.length &&
    a.breaches.every((x, i) => x.metric === b.breaches[i]!.metric && x.limit === b.breaches[i]!.limit)
  );
}

/**
 * How long a tile that left trouble keeps its place among the tiles in trouble. A reading that
 * wavers about a limit would otherwise move its tile to the top of its farm and back every few
 * seconds (and across pages), which nobody can follow from across a room. Its colour and text
 * follow the reading at once; only its place waits.
 */
export const WALL_HOLD_MS = 15_000;

const NORMAL_RANK = WALL_TILE_STATES.indexOf("normal");
const RANK = Object.fromEntries(WALL_TILE_STATES.map((s, i) => [s, i])) as Record<WallTileState, number>;

/** One farm's MCUs in wall order (trouble first, list order within a state), with its counts. */
export interface WallGroup {
  farmId: number;
  name: string;
  counts: WallCounts;
  ids: number[];
}

const noCounts = (): WallCounts => ({ mcus: 0, outOfProfile: 0, offline: 0, lowBattery: 0 });

function count(c: WallCounts, state: WallTileState): void {
  c.mcus++;
  if (state === "out-of-profile") c.outOfProfile++;
  else if (state === "offline") c.offline++;
  else if (state === "low-battery") c.lowBattery++;
}

/**
 * The wall's grouping over the whole fleet. Farms keep the farm list's order (farms not in it yet
 * come after, by their MCUs' order); a farm without MCUs has nothing to watch and is left out. It
 * keeps two things between calls, both bounded by the fleet: each snapshot's judgement (snapshots
 * are immutable, so a call judges only the MCUs that changed) and the tiles held in place.
 */
export function createWallGroups(holdMs = WALL_HOLD_MS) {
  const judged = new WeakMap<McuLive, { config: ProfileConfig | null; state: WallTileState }>();
  const held = new Map<number, { rank: number; until: number }>();

  function stateOf(mcu: Mcu, live: McuLive | undefined): WallTileState {
    if (!live) return "offline";
    const config = linkedConfig(mcu);
    const memo = judged.get(live);
    if (memo && memo.config === config) return memo.state;
    const { online, readings } = live;
    const state = wallTileState(online, readings, online && readings !== null && config !== null && thresholdBreaches("", readings, config).length > 0);
    judged.set(live, { config, state });
    return state;
  }

  return (farms: readonly Farm[], mcus: readonly Mcu[], liveOf: (mac: string) => McuLive | undefined, now: number): { groups: WallGroup[]; counts: WallCounts } => {
    for (const [id, h] of held) if (h.until <= now) held.delete(id);
    const byFarm = new Map<number, { name: string; counts: WallCounts; ranks: number[][] }>();
    const group = (name: string) => ({ name, counts: noCounts(), ranks: WALL_TILE_STATES.map((): number[] => []) });
    for (const f of farms) byFarm.set(f.farm_id, group(f.name));
    const counts = noCounts();
    for (const m of mcus) {
      let g = byFarm.get(m.farm_id);
      if (!g) byFarm.set(m.farm_id, (g = group(m.farm.name)));
      const state = stateOf(m, liveOf(m.mac));
      count(g.counts, state);
      count(counts, state);
      let rank = RANK[state];
      if (rank < NORMAL_RANK) held.set(m.mcu_id, { rank, until: now + holdMs });
      else rank = held.get(m.mcu_id)?.rank ?? rank;
      g.ranks[rank]!.push(m.mcu_id);
    }
    const groups: WallGroup[] = [];
    for (const [farmId, g] of byFarm) if (g.counts.mcus > 0) groups.push({ farmId, name: g.name, counts: g.counts, ids: g.ranks.flat() });
    return { groups, counts };
  };
}

/** A part of a farm on a page: `count` of its tiles from `from`. */
export interface WallSlice {
  group: number;
  from: number;
  count: number;
}

/** A measured number from the main thread, made safe to lay out with. */
const sane = (n: number, min: number) => (Number.isFinite(n) && n >= min ? n : min);

/**
 * A fleet that fits one screen is drawn at the largest size up to this at which it still does, in
 * hundredths: its tiles fill the screen's height within a hundredth of their size, rather than the
 * next size down of a few leaving an eighth of the screen empty.
 */
export const WALL_MAX_SCALE = 2;
const SCALE_STEPS = 100;

/** How many tile columns fit at `scale` times the base size (gaps scale with the tiles). */
export function wallColumns(layout: Omit<WallRequest, "page">, scale = 1): number {
  const gap = sane(layout.gap, 0) * scale;
  return Math.max(1, Math.floor((sane(layout.width, 0) + gap) / (sane(layout.tileWidth, 1) * scale + gap)));
}

/**
 * Cuts the farms into pages that fit the screen at `scale` times the base size: each farm a
 * heading and rows of tiles. A farm that does not fit what is left of a page but fits a page of
 * its own starts the next page (a farm is split only when it must be); a farm larger than a page
 * goes on over as many as it needs. Every page shows at least one row, however small the screen.
 */
export function wallPages(groups: readonly { ids: readonly number[] }[], layout: Omit<WallRequest, "page">, scale = 1): WallSlice[][] {
  const columns = wallColumns(layout, scale);
  const gap = sane(layout.gap, 0) * scale;
  // Between farms, outside them: the page's gap, not drawn larger with the tiles.
  const sectionGap = sane(layout.sectionGap, 0);
  const rowHeight = (sane(layout.tileHeight, 1) + sane(layout.gap, 0)) * scale;
  // A farm's last row has no gap under it: one gap less than its rows' steps.
  const headingHeight = sane(layout.headingHeight, 0) * scale - gap;
  const height = sane(layout.height, 0);
  const rowsOnEmptyPage = Math.max(1, Math.floor((height - headingHeight) / rowHeight));
  const pages: WallSlice[][] = [];
  let page: WallSlice[] = [];
  let used = 0;
  const nextPage = () => {
    pages.push(page);
    page = [];
    used = 0;
  };
  groups.forEach((g, group) => {
    let from = 0;
    while (from < g.ids.length) {
      const rowsLeft = Math.ceil((g.ids.length - from) / columns);
      const before = page.length > 0 ? sectionGap : 0;
      const rowsFit = Math.floor((height - used - before - headingHeight) / rowHeight);
      if (page.length > 0 && (rowsFit < 1 || (rowsFit < rowsLeft && rowsLeft <= rowsOnEmptyPage))) {
        nextPage();
        continue;
      }
      const rows = Math.min(rowsLeft, Math.max(1, rowsFit));
      const count = Math.min(g.ids.length - from, rows * columns);
      page.push({ group, from, count });
      used += before + headingHeight + rows * rowHeight;
      from += count;
      if (from < g.ids.length) nextPage();
    }
  });
  if (page.length > 0) pages.push(page);
  return pages;
}

/**
 * The page `request` asks for (clamped to the pages there are), from the grouped fleet: at the
 * largest size at which the whole fleet fits one screen, or at the base size over as many pages as
 * it takes. The size depends on the farms' sizes only, not on their order, so it holds still while
 * tiles move in and out of trouble.
 */
export function wallPage(groups: readonly WallGroup[], counts: WallCounts, request: WallRequest): WallPage {
  let scale = 1;
  let pages = wallPages(groups, request);
  if (pages.length <= 1) {
    // Largest first: a larger size may need fewer columns and so more rows, so fitting is not monotonic.
    for (let step = Math.round(WALL_MAX_SCALE * SCALE_STEPS); step > SCALE_STEPS; step--) {
      const s = step / SCALE_STEPS;
      const larger = wallPages(groups, request, s);
      if (larger.length <= 1) {
        scale = s;
        pages = larger;
        break;
      }
    }
  }
  const page = Math.min(Math.max(0, Math.floor(sane(request.page, 0))), Math.max(0, pages.length - 1));
  const sections: WallSection[] = (pages[page] ?? []).map(({ group, from, count }) => {
    const g = groups[group]!;
    return { farmId: g.farmId, name: g.name, counts: g.counts, from, mcuIds: g.ids.slice(from, from + count) };
  });
  // On a single page whose farms are all narrower than a row, the tiles share the row's width among
  // the most a farm has, rather than leave the right of the screen empty (the rows stay the same).
  const widest = Math.max(1, ...sections.map((s) => s.mcuIds.length));
  const columns = pages.length <= 1 ? Math.min(wallColumns(request, scale), widest) : wallColumns(request, scale);
  return { page, pages: Math.max(1, pages.length), scale, columns, sections, counts };
}
