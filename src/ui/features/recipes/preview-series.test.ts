import { describe, expect, it } from "vitest";
import type { RecipePhase } from "../../../contract/grow.ts";
import { previewSeries, previewSummary, setpointText } from "./preview-series.ts";
import { phaseLengthText, runningBatchesText, totalDaysText } from "./recipe-summary.ts";
import { startTexts } from "../../../test-support/i18n.ts";

// The texts are the catalogue's, in English.
await startTexts();

const config = (target_temp: number, on: number, off: number, co2: number): RecipePhase["config"] => ({
  irrigation: { on_cycle_hours: 6, off_cycle_liters: 2, soil_moisture_on: 55, soil_moisture_off: 70 },
  ventilation: { co2_threshold: co2 },
  ac: { based_on: "room_temp", target_temp },
  humidifier: { humidity_on_below: on, humidity_off_above: off },
});

const spawnRun: RecipePhase = { name: "Spawn run", days: 10, confirm: null, config: config(24, 80, 90, 5000), ramps: [{ setting: "ac.target_temp", to: 20 }] };
const fruiting: RecipePhase = { name: "Fruiting", days: 4, confirm: "Pins visible", config: config(18, 88, 95, 800), ramps: [] };

describe("the recipe preview", () => {
  it("samples each phase with the plan's ramps, x in days from the start, a step between phases", () => {
    const s = previewSeries([spawnRun, fruiting], 2);
    expect(s.days).toEqual([0, 5, 10, 10, 12, 14]);
    expect(s.acTarget).toEqual([24, 22, 20, 18, 18, 18]);
    expect(s.humidityOnBelow).toEqual([80, 80, 80, 88, 88, 88]);
    expect(s.humidityOffAbove).toEqual([90, 90, 90, 95, 95, 95]);
    expect(s.co2).toEqual([5000, 5000, 5000, 800, 800, 800]);
    expect(s.starts).toEqual([
      { day: 0, name: "Spawn run" },
      { day: 10, name: "Fruiting" },
    ]);
    expect(s.totalDays).toBe(14);
  });

  it("leaves a gap where a value is not a number yet", () => {
    const s = previewSeries([{ ...fruiting, config: config(NaN, 88, 95, 800) }], 1);
    expect(s.acTarget).toEqual([null, null]);
  });

  it("words each phase's setpoints and the whole chart for a screen reader", () => {
    expect(setpointText(spawnRun, (c) => c.ac.target_temp, "°C")).toBe("24 → 20 °C");
    expect(setpointText(fruiting, (c) => c.ac.target_temp, "°C")).toBe("18 °C");
    expect(previewSummary([spawnRun, fruiting])).toBe("Planned setpoints over 14 days: Spawn run from day 0 to day 10; Fruiting from day 10 to day 14");
    expect(previewSummary([])).toBe("No phases to preview yet");
  });
});

describe("a recipe's card", () => {
  it("says each phase's length, a confirmed phase's as its maximum and what it waits for", () => {
    expect(phaseLengthText(spawnRun)).toBe("10 days");
    expect(phaseLengthText({ ...fruiting, days: 1 })).toBe("up to 1 day · waits for: Pins visible");
    expect(totalDaysText([spawnRun])).toBe("10 days");
    expect(totalDaysText([spawnRun, fruiting])).toBe("up to 14 days");
    expect(runningBatchesText(1)).toBe("1 running batch");
    expect(runningBatchesText(0)).toBe("0 running batches");
  });

  it("says them in the reader's language and digits", async () => {
    await startTexts({ language: "ar", digits: "arab" });
    try {
      expect(totalDaysText([spawnRun, fruiting])).toBe("حتى ١٤ يومًا");
      expect(setpointText(spawnRun, (c) => c.ac.target_temp, "°C")).toBe("٢٤ ← ٢٠ °C");
      expect(runningBatchesText(2)).toBe("دفعتان جاريتان");
    } finally {
      await startTexts();
    }
  });
});

