import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DOOR_OPEN_LEAK, initialRoom, rng } from "./physics.ts";
import { DEFAULT_CONFIG } from "./physics.ts";
import { startIncidents } from "./incidents.ts";
import type { SimulatedMcu } from "./simulated-mcu.ts";

/** What startIncidents looks at of a device: its room, whether a profile is linked, whether it is connected. */
const device = (mac: string, linked: boolean, connected = true) =>
  ({ mac, room: initialRoom(rng(1)), configReceived: linked ? DEFAULT_CONFIG : undefined, connected }) as unknown as SimulatedMcu;

describe("demo incidents", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("opens one linked room's door at a time, in turn, and shuts it after a while", () => {
    const rooms = [device("A", true), device("B", false), device("C", true), device("D", true, false)];
    const incidents = startIncidents(rooms, { everyMs: 30 * 60_000, lastsMs: 12 * 60_000, firstAfterMs: 60_000 });
    const leaks = () => rooms.map((r) => r.room.airLeak);

    vi.advanceTimersByTime(59_000);
    expect(leaks()).toEqual([1, 1, 1, 1]);
    vi.advanceTimersByTime(1000);
    expect(incidents.current()).toBe("A");
    expect(leaks()).toEqual([DOOR_OPEN_LEAK, 1, 1, 1]);
    vi.advanceTimersByTime(12 * 60_000);
    expect(incidents.current()).toBeNull();
    expect(leaks()).toEqual([1, 1, 1, 1]);
    // The next one is the next room with a profile (B has none, D is not connected).
    vi.advanceTimersByTime(18 * 60_000);
    expect(incidents.current()).toBe("C");
    vi.advanceTimersByTime(30 * 60_000);
    expect(incidents.current()).toBe("A");
    incidents.stop();
    expect(leaks()).toEqual([1, 1, 1, 1]);
    vi.advanceTimersByTime(120 * 60_000);
    expect(leaks()).toEqual([1, 1, 1, 1]);
  });

  it("does nothing while no room has a profile", () => {
    const rooms = [device("A", false)];
    const incidents = startIncidents(rooms, { everyMs: 60_000, firstAfterMs: 0 });
    vi.advanceTimersByTime(10 * 60_000);
    expect(incidents.current()).toBeNull();
    expect(rooms[0]!.room.airLeak).toBe(1);
    incidents.stop();
  });
});
