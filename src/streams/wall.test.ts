import { describe, expect, it } from "vitest";
import type { Mcu, ProfileConfig } from "../contract/entities.ts";
import type { McuLive, WallRequest } from "../contract/live.ts";
import { farmRecord, mcuRecord } from "../test-support/records.ts";
import { createWallGroups, wallColumns, wallPage, wallPages, wallTileState, type WallSlice } from "./wall.ts";

const PROFILE: ProfileConfig = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 800 },
  ac: { based_on: "room_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 93 },
};
const linked = (mcu: Mcu): Mcu => ({
  ...mcu,
  profile_links: [{ id: mcu.mcu_id, mcu_id: mcu.mcu_id, profile_id: 1, profile: { profile_id: 1, name: "Oyster fruiting", config: PROFILE } }] as Mcu["profile_links"],
});
const reading = (humidity: number, batteryLevel = 80) => ({ DHT: { temperature: 18, humidity, count: 1 }, batteryLevel });
const live = (mcu: Mcu, over: Partial<McuLive> = {}): McuLive => ({ mac: mcu.mac, mcuId: mcu.mcu_id, readings: reading(88), status: "online", lastReadingAt: 1, online: true, pending: null, ...over });

/** Farm 1 of the fixture with 6 MCUs (ids 1-6), all linked to the profile and reporting normal values. */
function farmOfSix() {
  const mcus = Array.from({ length: 6 }, (_, i) => linked(mcuRecord(i)));
  const snapshots = new Map(mcus.map((m) => [m.mac, live(m)]));
  const farms = [{ ...farmRecord(0), mcus: mcus.map((m) => ({ id: m.mcu_id, mcu_id: m.mcu_id, name: m.name })) }];
  return { mcus, snapshots, farms, liveOf: (mac: string) => snapshots.get(mac) };
}

describe("a wall tile's state", () => {
  it("is offline before anything else, then out of profile, then low battery", () => {
    expect(wallTileState(false, reading(70, 10), true)).toBe("offline");
    expect(wallTileState(true, reading(70, 10), true)).toBe("out-of-profile");
    expect(wallTileState(true, reading(88, 10), false)).toBe("low-battery");
    expect(wallTileState(true, reading(88, 30), false)).toBe("normal");
    expect(wallTileState(true, null, false)).toBe("normal");
  });
});

describe("the wall's grouping", () => {
  it("puts the tiles in trouble first within their farm, worst first, list order within a state, and counts them", () => {
    const { mcus, snapshots, farms, liveOf } = farmOfSix();
    snapshots.set(mcus[4]!.mac, live(mcus[4]!, { readings: reading(70) })); // humidity below 85 - 2
    snapshots.set(mcus[2]!.mac, live(mcus[2]!, { online: false }));
    snapshots.set(mcus[1]!.mac, live(mcus[1]!, { readings: reading(88, 12) }));
    snapshots.delete(mcus[5]!.mac); // never reported
    const { groups, counts } = createWallGroups()(farms, mcus, liveOf, 0);
    expect(groups.map((g) => [g.farmId, g.name, g.ids])).toEqual([[1, "Farm 1", [5, 3, 6, 2, 1, 4]]]);
    expect(groups[0]!.counts).toEqual({ mcus: 6, outOfProfile: 1, offline: 2, lowBattery: 1 });
    expect(counts).toEqual(groups[0]!.counts);
  });

  it("judges nothing against a profile for an MCU without one, nor for one that is offline", () => {
    const { mcus, snapshots, farms, liveOf } = farmOfSix();
    const unlinked = { ...mcus[3]!, profile_links: [] };
    snapshots.set(unlinked.mac, live(unlinked, { readings: reading(50) }));
    const { groups } = createWallGroups()(farms, mcus.map((m) => (m.mcu_id === unlinked.mcu_id ? unlinked : m)), liveOf, 0);
    expect(groups[0]!.ids).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("keeps a tile that left trouble in its place for the hold time, then puts it back in list order", () => {
    const { mcus, snapshots, farms, liveOf } = farmOfSix();
    const group = createWallGroups(15_000);
    snapshots.set(mcus[5]!.mac, live(mcus[5]!, { readings: reading(70) }));
    expect(group(farms, mcus, liveOf, 1_000).groups[0]!.ids).toEqual([6, 1, 2, 3, 4, 5]);
    snapshots.set(mcus[5]!.mac, live(mcus[5]!, { readings: reading(88) }));
    const back = group(farms, mcus, liveOf, 10_000);
    expect(back.groups[0]!.ids).toEqual([6, 1, 2, 3, 4, 5]);
    // The counts follow the reading at once: it is no longer out of profile.
    expect(back.counts.outOfProfile).toBe(0);
    expect(group(farms, mcus, liveOf, 16_000).groups[0]!.ids).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("keeps the farm list's order, leaves out farms without MCUs and puts farms it does not know yet last", () => {
    const mcus = [mcuRecord(250), mcuRecord(0), mcuRecord(120), mcuRecord(1)];
    const farms = [farmRecord(1), farmRecord(0), farmRecord(5)];
    const { groups } = createWallGroups()(farms, mcus, () => undefined, 0);
    expect(groups.map((g) => [g.name, g.ids])).toEqual([
      ["Farm 2", [121]],
      ["Farm 1", [1, 2]],
      ["Farm 3", [251]],
    ]);
  });
});

const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

describe("the wall's pages", () => {
  // A screen of 4 columns, 1000 px high: a heading costs 100, a row 300 (3 rows under one heading).
  const layout = { width: 1000, height: 1000, tileWidth: 250, tileHeight: 300, gap: 0, headingHeight: 100, sectionGap: 0 };

  it("puts farms that fit together on one page", () => {
    expect(wallPages([{ ids: ids(4) }, { ids: ids(3) }], layout)).toEqual([
      [
        { group: 0, from: 0, count: 4 },
        { group: 1, from: 0, count: 3 },
      ],
    ]);
  });

  it("starts a farm on the next page when it fits a page of its own but not what is left", () => {
    expect(wallPages([{ ids: ids(4) }, { ids: ids(5) }], layout)).toEqual([[{ group: 0, from: 0, count: 4 }], [{ group: 1, from: 0, count: 5 }]]);
    expect(wallPages([{ ids: ids(8) }, { ids: ids(9) }], layout)).toEqual([[{ group: 0, from: 0, count: 8 }], [{ group: 1, from: 0, count: 9 }]]);
  });

  it("splits a farm larger than a page over as many pages as it needs", () => {
    expect(wallPages([{ ids: ids(2) }, { ids: ids(30) }], layout)).toEqual([
      [
        { group: 0, from: 0, count: 2 },
        { group: 1, from: 0, count: 4 },
      ],
      [{ group: 1, from: 4, count: 12 }],
      [{ group: 1, from: 16, count: 12 }],
      [{ group: 1, from: 28, count: 2 }],
    ]);
  });

  it("shows at least one row a page on a screen too small for one", () => {
    expect(wallPages([{ ids: ids(5) }], { ...layout, width: 500, height: 50 })).toEqual([
      [{ group: 0, from: 0, count: 2 }],
      [{ group: 0, from: 2, count: 2 }],
      [{ group: 0, from: 4, count: 1 }],
    ]);
  });

  it("answers the page asked for with its farms' MCU ids, clamped to the pages there are", () => {
    const counts = { mcus: 32, outOfProfile: 1, offline: 0, lowBattery: 0 };
    const groups = [
      { farmId: 7, name: "North", counts: { ...counts, mcus: 2 }, ids: ids(2, 100) },
      { farmId: 9, name: "South", counts: { ...counts, mcus: 30 }, ids: ids(30, 200) },
    ];
    const second = wallPage(groups, counts, { ...layout, page: 1 });
    expect(second).toEqual({ page: 1, pages: 4, scale: 1, columns: 4, counts, sections: [{ farmId: 9, name: "South", counts: groups[1]!.counts, from: 4, mcuIds: ids(12, 204) }] });
    expect(wallPage(groups, counts, { ...layout, page: 7 }).page).toBe(3);
    expect(wallPage([], { ...counts, mcus: 0 }, { ...layout, page: 3 })).toMatchObject({ page: 0, pages: 1, sections: [] });
    // Nonsense measurements (a screen not laid out yet) still give pages.
    expect(wallPage(groups, counts, { ...layout, width: 0, height: Number.NaN, tileHeight: -1, page: 0 }).sections[0]!.mcuIds).toEqual([100]);
  });

  it("draws a fleet that fits one screen at a larger size at the largest size at which it still does", () => {
    const counts = { mcus: 6, outOfProfile: 0, offline: 0, lowBattery: 0 };
    const groups = [
      { farmId: 1, name: "North", counts, ids: ids(4) },
      { farmId: 2, name: "South", counts, ids: ids(2, 10) },
    ];
    // With gaps, as on screen: 20 px between tiles, 30 between farms.
    const screen = { width: 2000, height: 1200, tileWidth: 300, tileHeight: 200, gap: 20, headingHeight: 60, sectionGap: 30 };
    // Four columns (North in one row) while 4 × 320 s ≤ 2000 + 20 s, i.e. up to 1.58; then two rows
    // of 310 s each fit 1200 + 50 s. Three columns put North on 2 rows: 840 s ≤ 1200 + 50 s only below 1.52.
    const page = wallPage(groups, counts, { ...screen, page: 0 });
    expect([page.scale, page.columns, page.pages]).toEqual([1.58, 4, 1]);
    expect(page.sections.map((s) => s.mcuIds)).toEqual([ids(4), ids(2, 10)]);
    expect(usedHeight(wallPages(groups, screen, page.scale), screen, page.scale)).toBeLessThanOrEqual(screen.height);
    // A fleet that takes more than one screen stays at the base size.
    const big = [{ ...groups[0]!, ids: ids(40) }];
    expect(wallPage(big, counts, { ...screen, page: 0 })).toMatchObject({ scale: 1, columns: 6, pages: 2 });
  });

  it("fills a wall screen's height with a small fleet: no eighth of the screen left empty at the bottom", () => {
    // The demo (three farms of four MCUs) on a 3840x2160 wall, as the page measures it there.
    const counts = { mcus: 4, outOfProfile: 0, offline: 0, lowBattery: 0 };
    const groups = [1, 2, 3].map((farmId) => ({ farmId, name: `Farm ${farmId}`, counts, ids: ids(4, farmId * 10) }));
    const wall = { width: 3740, height: 1990, tileWidth: 600, tileHeight: 408, gap: 20, headingHeight: 56, sectionGap: 20 };
    const page = wallPage(groups, counts, { ...wall, page: 0 });
    expect(page.pages).toBe(1);
    const used = usedHeight(wallPages(groups, wall, page.scale), wall, page.scale);
    expect(used).toBeLessThanOrEqual(wall.height);
    expect(used / wall.height).toBeGreaterThan(0.97);
    expect(page.columns).toBe(4);
  });

  it("spreads a one-page fleet whose farms are narrower than a row over the row's width", () => {
    // Four farms, the largest of four MCUs, on the same wall: six columns fit, four are used.
    const counts = { mcus: 4, outOfProfile: 0, offline: 0, lowBattery: 0 };
    const groups = [1, 2, 3, 4].map((farmId) => ({ farmId, name: `Farm ${farmId}`, counts, ids: ids(farmId === 4 ? 3 : 4, farmId * 10) }));
    const wall = { width: 3740, height: 1990, tileWidth: 600, tileHeight: 408, gap: 20, headingHeight: 56, sectionGap: 20 };
    const page = wallPage(groups, counts, { ...wall, page: 0 });
    expect([page.pages, page.columns]).toEqual([1, 4]);
    expect(wallColumns(wall, page.scale)).toBeGreaterThan(4);
  });
});

/** The height a page's farms take at `scale` as the page draws them: headings, rows and gaps between rows, and the page's gaps between farms. */
function usedHeight(pages: WallSlice[][], layout: Omit<WallRequest, "page">, scale: number): number {
  const columns = wallColumns(layout, scale);
  const farms = pages[0]!.map((slice) => {
    const rows = Math.ceil(slice.count / columns);
    return (layout.headingHeight + rows * layout.tileHeight + (rows - 1) * layout.gap) * scale;
  });
  return farms.reduce((a, b) => a + b, 0) + (farms.length - 1) * layout.sectionGap;
}
