import { describe, expect, it } from "vitest";
import type { Mcu, ProfileConfig } from "../../../contract/entities.ts";
import type { Batch } from "../../../contract/grow.ts";
import { effectiveConfig } from "./effective-config.ts";

const PROFILE: ProfileConfig = {
  irrigation: { on_cycle_hours: 6, off_cycle_liters: 15, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 1000 },
  ac: { based_on: "room_temp", target_temp: 20 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 92 },
};
const FRUITING: ProfileConfig = { ...PROFILE, humidifier: { humidity_on_below: 90, humidity_off_above: 95 } };
const NOW = Date.UTC(2026, 4, 10, 12);

const linked = { mcu_id: 4, profile_links: [{ profile: { name: "Pinning", config: PROFILE } }] } as unknown as Pick<Mcu, "mcu_id" | "profile_links">;
const batch = (status: Batch["status"], mcuIds: number[]) =>
  ({
    name: "Oyster 12",
    status,
    mcu_ids: mcuIds,
    phases: [{ name: "Fruiting", days: 7, confirm: null, config: FRUITING, ramps: [] }],
    phase_index: 0,
    phase_started_at: new Date(NOW - 2.5 * 86_400_000).toISOString(),
    extra_days: 0,
    held_ms: 0,
    held_since: null,
    time_zone: "UTC",
  }) as unknown as Batch;

describe("the config an MCU keeps now", () => {
  it("is its running batch's plan, with the phase and day", () => {
    expect(effectiveConfig(linked, [batch("running", [4])], NOW)).toEqual({ config: FRUITING, source: { kind: "plan", batch: "Oyster 12", phase: "Fruiting", day: 3 } });
  });

  it("is the linked profile's when no batch runs on it", () => {
    expect(effectiveConfig(linked, [batch("ended", [4]), batch("running", [5])], NOW)).toEqual({ config: PROFILE, source: { kind: "profile", profile: "Pinning" } });
  });

  it("is unknown with neither (the device's built-in settings)", () => {
    expect(effectiveConfig({ mcu_id: 4, profile_links: [] }, [], NOW).config).toBeNull();
  });
});
