import type { Farm, Mcu } from "../contract/entities.ts";

/**
 * Records for tests of code that handles whole fleets: MCU i of a fleet, 100 to a farm, as the API
 * answers them. Not part of the app (only tests import it).
 */
const at = "2026-11-23T10:00:00.000Z";

/** The MAC of MCU i: 02:00:00:00:HH:LL. */
export const macOf = (i: number) => `02:00:00:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`.toUpperCase();

/** MCU i of a fleet; `over` replaces fields (a test's own MACs, farm or client). */
export const mcuRecord = (i: number, over: Partial<Mcu> = {}): Mcu => ({
  mcu_id: i + 1,
  name: `Room ${i + 1}`,
  mac: macOf(i),
  farm_id: Math.floor(i / 100) + 1,
  farm: { name: `Farm ${Math.floor(i / 100) + 1}` },
  client_id: 7,
  status: "active",
  readings: null,
  lastSeen: null,
  controllers: [],
  sensors: [],
  profile_links: [],
  createdAt: at,
  updatedAt: at,
  ...over,
});

/** Farm f (from 0) of a fleet, with its 100 MCUs. */
export const farmRecord = (f: number): Farm => ({
  farm_id: f + 1,
  name: `Farm ${f + 1}`,
  location: "Byblos",
  status: "active",
  mcuCount: 100,
  client_id: 7,
  mcus: Array.from({ length: 100 }, (_, k) => ({ id: f * 100 + k + 1, mcu_id: f * 100 + k + 1, name: `Room ${f * 100 + k + 1}` })),
  createdAt: at,
  updatedAt: at,
});
