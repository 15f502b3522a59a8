import type { RecipeRequest } from "../../src/contract/api.ts";
import type { ProfileConfig } from "../../src/contract/entities.ts";

/**
 * Starter recipes: the climate commonly given for each stage of four crops in grower guides and
 * extension fact sheets (README: "Starter recipes: where the numbers come from"). They are
 * starting points a grower adjusts to the strain, the substrate and the room.
 *
 * How the settings read: the AC holds `target_temp` (of the room air, or of the substrate/compost
 * where that is what the guides give); the humidifier keeps relative humidity between its "on
 * below" and "off above"; the exhaust fan runs above `co2_threshold` ppm (a high threshold is a
 * phase that tolerates, or wants, CO2 building up); irrigation waters a casing or substrate between
 * its moisture thresholds.
 */

interface Climate {
  temp: number;
  /** Of the substrate (compost, block core) rather than the room air. */
  substrate?: boolean;
  rh: [onBelow: number, offAbove: number];
  co2: number;
  /** Soil (casing/substrate) moisture: watering on below, off above (%). */
  moisture?: [on: number, off: number];
  /** Hours between irrigation cycles, and litres per cycle. */
  water?: [hours: number, liters: number];
}

function climate(c: Climate): ProfileConfig {
  const [on, off] = c.moisture ?? [45, 65];
  const [hours, liters] = c.water ?? [12, 5];
  return {
    irrigation: { on_cycle_hours: hours, off_cycle_liters: liters, soil_moisture_on: on, soil_moisture_off: off },
    ventilation: { co2_threshold: c.co2 },
    ac: { based_on: c.substrate ? "soil_temp" : "room_temp", target_temp: c.temp },
    humidifier: { humidity_on_below: c.rh[0], humidity_off_above: c.rh[1] },
  };
}

type Phase = RecipeRequest["phases"][number];
const phase = (name: string, days: number, c: Climate, more: Partial<Pick<Phase, "confirm" | "ramps">> = {}): Phase => ({
  name,
  days,
  confirm: more.confirm ?? null,
  config: climate(c),
  ramps: more.ramps ?? [],
});

export const STARTER_RECIPES: RecipeRequest[] = [
  {
    // Pleurotus ostreatus on pasteurised straw in bags or columns.
    name: "Oyster on straw",
    species: "Oyster",
    phases: [
      // The colonising substrate warms itself: the room is kept cooler than the mycelium's optimum; CO2 may build up.
      phase("Spawn run", 16, { temp: 20, rh: [95, 98], co2: 5000 }),
      // Fresh air, light and a cooler room trigger pins.
      phase("Pinning", 6, { temp: 16, rh: [95, 98], co2: 700 }, { confirm: "Pins visible" }),
      phase("Fruiting", 6, { temp: 18, rh: [85, 92], co2: 800 }),
      phase("Rest", 7, { temp: 20, rh: [80, 88], co2: 1500 }),
      phase("Second flush pinning", 6, { temp: 16, rh: [95, 98], co2: 700 }, { confirm: "Pins visible" }),
      phase("Second flush fruiting", 6, { temp: 18, rh: [85, 92], co2: 800 }),
    ],
  },
  {
    // Lentinula edodes on supplemented sawdust blocks.
    name: "Shiitake on sawdust blocks",
    species: "Shiitake",
    phases: [
      // A long incubation in the bag, CO2 high.
      phase("Incubation", 45, { temp: 23, substrate: true, rh: [80, 90], co2: 10000 }),
      // Blocks out of the bag, some air and light: the surface browns and hardens.
      phase("Browning", 21, { temp: 20, rh: [80, 88], co2: 2000 }),
      // A cold soak of the blocks triggers fruiting.
      phase("Cold shock and soak", 2, { temp: 12, rh: [90, 96], co2: 1000 }, { confirm: "Blocks soaked" }),
      phase("Pinning", 5, { temp: 15, rh: [90, 95], co2: 800 }, { confirm: "Pins visible" }),
      phase("Fruiting", 8, { temp: 16, rh: [85, 90], co2: 900 }),
      // Dry rest before the next soak.
      phase("Rest", 14, { temp: 22, rh: [65, 75], co2: 1500 }),
    ],
  },
  {
    // Agaricus bisporus on phase II compost with a peat casing.
    name: "Button on compost",
    species: "Button",
    phases: [
      // Compost temperature is what the guides hold (about 25 °C); CO2 high is no harm.
      phase("Spawn run", 14, { temp: 25, substrate: true, rh: [90, 95], co2: 10000, moisture: [50, 65] }),
      // Mycelium grows through the casing; CO2 up to about 6 000 ppm keeps it vegetative.
      phase("Case run", 8, { temp: 25, substrate: true, rh: [92, 96], co2: 6000, moisture: [55, 70], water: [8, 10] }),
      // Airing: fresh air and the air cooled step by step to about 18 °C bring pins on.
      phase("Airing and pinning", 9, { temp: 21, rh: [88, 94], co2: 1500, moisture: [55, 70], water: [8, 10] }, {
        ramps: [
          { setting: "ac.target_temp", to: 18 },
          { setting: "ventilation.co2_threshold", to: 1000 },
        ],
      }),
      phase("First flush", 7, { temp: 17, rh: [85, 90], co2: 1000, moisture: [55, 70], water: [8, 10] }),
      phase("Second flush", 8, { temp: 17, rh: [85, 90], co2: 1000, moisture: [55, 70], water: [8, 10] }),
      phase("Third flush", 8, { temp: 16, rh: [85, 90], co2: 1000, moisture: [55, 70], water: [8, 10] }),
    ],
  },
  {
    // Hericium erinaceus on supplemented hardwood sawdust.
    name: "Lion's mane on sawdust",
    species: "Lion's mane",
    phases: [
      phase("Incubation", 14, { temp: 23, rh: [90, 95], co2: 5000 }),
      // Cooler, fresh air: CO2 low, or the spines grow long and the heads stay small.
      phase("Pinning", 5, { temp: 16, rh: [93, 98], co2: 700 }, { confirm: "Pins visible" }),
      phase("Fruiting", 10, { temp: 18, rh: [90, 95], co2: 900 }),
      phase("Rest", 10, { temp: 21, rh: [85, 90], co2: 1200 }),
      phase("Second flush", 10, { temp: 18, rh: [90, 95], co2: 900 }),
    ],
  },
];
