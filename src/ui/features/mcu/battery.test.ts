import { describe, expect, it } from "vitest";
import type { Mcu } from "../../../contract/entities.ts";
import type { McuLive } from "../../../streams/device-snapshots.ts";
import { mcuBatteryLevel } from "../../../streams/live-status.ts";
import { batteryColor } from "./battery.ts";

const mcu = (readings: Mcu["readings"]): Mcu => ({
  mcu_id: 1,
  name: "Tunnel 1",
  mac: "02:4D:46:00:00:01",
  farm_id: 1,
  farm: { name: "Valley Tunnels" },
  client_id: 1,
  status: "online",
  readings,
  lastSeen: null,
  controllers: [],
  sensors: [],
  profile_links: [],
  createdAt: "2025-01-01T00:00:00Z",
  updatedAt: "2025-01-01T00:00:00Z",
});

const live = (batteryLevel?: number): McuLive => ({
  mac: "02:4D:46:00:00:01",
  mcuId: 1,
  readings: batteryLevel === undefined ? {} : { batteryLevel },
  status: "online",
  lastReadingAt: 0,
  online: true,
  pending: null,
});

describe("batteryColor", () => {
  it("is green above 50, yellow above 20, red at 20 and below", () => {
    expect(batteryColor(100)).toBe("green");
    expect(batteryColor(51)).toBe("green");
    expect(batteryColor(50)).toBe("yellow");
    expect(batteryColor(21)).toBe("yellow");
    expect(batteryColor(20)).toBe("red");
    expect(batteryColor(0)).toBe("red");
  });
});

describe("mcuBatteryLevel", () => {
  it("reads readings given as an object or as text holding JSON", () => {
    expect(mcuBatteryLevel(mcu({ batteryLevel: 64 }), undefined)).toBe(64);
    expect(mcuBatteryLevel(mcu('{"batteryLevel":12.5}'), undefined)).toBe(12.5);
  });

  it("prefers the live reading over the loaded record", () => {
    expect(mcuBatteryLevel(mcu({ batteryLevel: 64 }), live(40))).toBe(40);
    expect(mcuBatteryLevel(mcu({ batteryLevel: 64 }), live())).toBe(64);
  });

  it("is null when no battery level was ever reported", () => {
    expect(mcuBatteryLevel(mcu(null), undefined)).toBeNull();
    expect(mcuBatteryLevel(mcu("not json"), undefined)).toBeNull();
    expect(mcuBatteryLevel(mcu({}), live())).toBeNull();
  });
});
