import { beforeAll, describe, expect, it } from "vitest";
import type { ProfileConfig } from "../../../contract/entities.ts";
import type { Batch, RecipePhase } from "../../../contract/grow.ts";
import type { HistoryMetric } from "../../../contract/history-values.ts";
import { batchRecord, DAY, OYSTER_PHASES, T0 } from "../../../test-support/batches.ts";
import { startTexts } from "../../../test-support/i18n.ts";
import { i18n } from "../../i18n/i18n.ts";
import { gaps } from "./limits-plugin.ts";
import { limitsWithPlan as withPlanIn, plannedLimits as plannedIn } from "./plan-limits.ts";
import { limitsFor as limitsIn, type MetricLimits } from "./profile-limits.ts";

beforeAll(() => startTexts());
const en = () => i18n.getFixedT("en", "history");
const limitsFor = (metric: HistoryMetric, config: ProfileConfig | null) => limitsIn(en(), metric, config);
const plannedLimits = (metric: HistoryMetric, batches: readonly Batch[], now: number) => plannedIn(en(), metric, batches, now);
const limitsWithPlan = (metric: HistoryMetric, profile: MetricLimits | null, batches: readonly Batch[], now: number) => withPlanIn(en(), metric, profile, batches, now);

const cooling: RecipePhase = { ...OYSTER_PHASES[0]!, name: "Cooling", days: 2, ramps: [{ setting: "ac.target_temp", to: 16 }] };

describe("a batch's planned limits on the history charts", () => {
  it("draws each phase's limits over the phase, and a ramp as steps from its start to its end value", () => {
    const b = batchRecord({ phases: [cooling, OYSTER_PHASES[2]!] });
    const pieces = plannedLimits("temperature", [b], T0 + DAY);
    const ramp = pieces.filter((p) => p.to <= T0 + 2 * DAY);
    expect(ramp[0]!.line).toBeCloseTo(18, 0);
    expect(ramp.at(-1)!.line).toBeCloseTo(16, 0);
    // Steps only fall: 18 → 16 °C over two days.
    for (let i = 1; i < ramp.length; i++) expect(ramp[i]!.line!).toBeLessThanOrEqual(ramp[i - 1]!.line!);
    // Fruiting holds its target flat: one piece.
    expect(pieces.filter((p) => p.from >= T0 + 2 * DAY)).toHaveLength(1);
  });

  it("gives a humidity band per phase, and says whose plan it is beside the profile", () => {
    const b = batchRecord();
    const profile = limitsFor("humidity", { ...OYSTER_PHASES[0]!.config, humidifier: { humidity_on_below: 80, humidity_off_above: 90 } });
    const limits = limitsWithPlan("humidity", profile, [b], T0 + DAY)!;
    expect(limits.plan![0]).toMatchObject({ from: T0, band: { low: 85, high: 93 } });
    expect(limits.band).toEqual({ low: 80, high: 90 });
    expect(limits.text).toBe("Plan of batch Oyster 1; elsewhere profile: humidifier on below 80 %, off above 90 %");
  });

  it("leaves the profile's limits alone where no batch ran", () => {
    const profile = limitsFor("co2", OYSTER_PHASES[0]!.config);
    expect(limitsWithPlan("co2", profile, [], T0)).toBe(profile);
  });

  it("finds the stretches no plan covers", () => {
    expect(gaps([[10, 20], [15, 30], [40, 50]], 0, 60)).toEqual([[0, 10], [30, 40], [50, 60]]);
    expect(gaps([[0, 60]], 0, 60)).toEqual([]);
  });
});
