import type { Mcu } from "../contract/entities.ts";
import type { LastSeenAgo, McuGrowView, McuLive, McuManagerCardView } from "../contract/live.ts";
import { mcuBatteryLevel, mcuLiveStatus } from "./live-status.ts";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * SPEC §2 Last Seen: "Just now" under a minute, then whole minutes, hours or days ago (rounded
 * down, so "1h ago" lasts until the second hour is complete). A time in the future (the
 * device's or the server's clock ahead of ours) still reads "Just now".
 */
export function lastSeenAgo(lastSeenMs: number | null, now: number): LastSeenAgo | null {
  if (lastSeenMs === null || Number.isNaN(lastSeenMs)) return null;
  const ago = now - lastSeenMs;
  if (ago < MINUTE_MS) return { unit: "now" };
  if (ago < HOUR_MS) return { unit: "minutes", count: Math.floor(ago / MINUTE_MS) };
  if (ago < DAY_MS) return { unit: "hours", count: Math.floor(ago / HOUR_MS) };
  return { unit: "days", count: Math.floor(ago / DAY_MS) };
}

const SHORT_UNIT = { minutes: "m", hours: "h", days: "d" } as const;

/** Last Seen in SPEC's words: what the core compares views by (the card says it in the reader's language from `lastSeenAgo`). */
export function formatLastSeen(lastSeenMs: number | null, now: number): string {
  const ago = lastSeenAgo(lastSeenMs, now);
  if (ago === null) return "Never";
  return ago.unit === "now" ? "Just now" : `${ago.count}${SHORT_UNIT[ago.unit]} ago`;
}

export type BatteryColor = "green" | "yellow" | "red";

/** SPEC §4/§9 battery colour: above 50 green, above 20 yellow, otherwise red. */
export function batteryColor(level: number): BatteryColor {
  if (level > 50) return "green";
  if (level > 20) return "yellow";
  return "red";
}

/** A level as a battery bar shows it: clamped to 0-100, in whole percent, and its colour. */
export function shownBattery(level: number): { clamped: number; shown: string; color: BatteryColor } {
  const clamped = Math.min(100, Math.max(0, level));
  return { clamped, shown: `${Math.round(clamped)}%`, color: batteryColor(clamped) };
}

/** Whether two levels look the same in a battery bar (same whole percent, same colour). */
export function sameShownBattery(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  const x = shownBattery(a);
  const y = shownBattery(b);
  return x.shown === y.shown && x.color === y.color;
}

/** The newest sign of life: a live reading of the core's life, or the record's lastSeen. */
function lastSeenMs(mcu: Mcu, liveAt: number | null | undefined): number | null {
  const recorded = mcu.lastSeen ? Date.parse(mcu.lastSeen) : Number.NaN;
  const candidates = [liveAt ?? Number.NaN, recorded].filter((t) => !Number.isNaN(t));
  return candidates.length ? Math.max(...candidates) : null;
}

/** One MCU's MCU Manager card view from its record and live snapshot (none before it reported), its Last Seen in words at `now`. */
export function managerCardView(mcu: Mcu, live: McuLive | undefined, now: number, grow: McuGrowView | null = null): McuManagerCardView {
  const link = mcu.profile_links[0];
  const lastSeenAt = lastSeenMs(mcu, live?.lastReadingAt);
  return {
    mcuId: mcu.mcu_id,
    mac: mcu.mac,
    name: mcu.name,
    farmName: mcu.farm.name,
    profileLink: link ? { linkId: link.id, profileId: link.profile_id, name: link.profile.name } : null,
    status: mcuLiveStatus(mcu.status, live),
    battery: mcuBatteryLevel(mcu, live),
    lastSeenAt,
    lastSeenText: formatLastSeen(lastSeenAt, now),
    lastSeenAgo: lastSeenAgo(lastSeenAt, now),
    createdAt: mcu.createdAt,
    grow,
  };
}

const sameLink = (a: McuManagerCardView["profileLink"], b: McuManagerCardView["profileLink"]) =>
  a === null || b === null ? a === b : a.linkId === b.linkId && a.profileId === b.profileId && a.name === b.name;

/**
 * Whether two views show the same card. Readings come five times a second; what the card shows of
 * them changes far less often: the battery by whole percent and colour, Last Seen by its words.
 * (The `<time>`'s machine-readable moment is then the one of the reading that last changed its
 * words: "Just now" stays "Just now", and so does its moment, until the minute has passed.)
 */
export function sameManagerCard(a: McuManagerCardView, b: McuManagerCardView): boolean {
  return (
    a.mcuId === b.mcuId &&
    a.mac === b.mac &&
    a.name === b.name &&
    a.farmName === b.farmName &&
    a.createdAt === b.createdAt &&
    a.status === b.status &&
    a.lastSeenText === b.lastSeenText &&
    (a.lastSeenAt === null) === (b.lastSeenAt === null) &&
    sameShownBattery(a.battery, b.battery) &&
    sameLink(a.profileLink, b.profileLink) &&
    a.grow === b.grow
  );
}

/**
 * MCU Manager card views that keep their object while what the card shows is unchanged: computed
 * again only when the MCU's record or snapshot is a new object (both are immutable) or the clock
 * moved (Last Seen's words), and then kept if it shows the same.
 */
export function createManagerCardViews() {
  const made = new Map<number, { mcu: Mcu; live: McuLive | undefined; now: number; view: McuManagerCardView }>();
  return {
    view(mcu: Mcu, live: McuLive | undefined, now: number, grow: McuGrowView | null = null): McuManagerCardView {
      const last = made.get(mcu.mcu_id);
      if (last && last.mcu === mcu && last.live === live && last.now === now && last.view.grow === grow) return last.view;
      const next = managerCardView(mcu, live, now, grow);
      const view = last && sameManagerCard(last.view, next) ? last.view : next;
      made.set(mcu.mcu_id, { mcu, live, now, view });
      return view;
    },
    /** Forgets the MCUs no longer shown. */
    keep(ids: ReadonlySet<number>) {
      for (const id of made.keys()) if (!ids.has(id)) made.delete(id);
    },
  };
}
