import { describe, expect, it } from "vitest";
import { groupIncidents } from "./alarms-groups.ts";

const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 8, minute)).toISOString();
/** An entry of MCU `mcu` opened at 08:`minute`. */
const e = (id: string, mcu: number | null, minute: number) => ({ id, mcu, at: at(minute) });
const grouped = (list: ReturnType<typeof e>[]) => groupIncidents(list, (x) => ({ mcuId: x.mcu, at: x.at }), 5 * 60_000).map((g) => g.entries.map((x) => x.id).join(" "));

describe("grouping alarms into incidents", () => {
  it("groups an MCU's alarms opened within a few minutes of each other, apart from other MCUs' in between", () => {
    // Newest first: Tunnel 1's door (3 alarms within 2 min) while Tunnel 2 had one of its own.
    expect(grouped([e("co2", 1, 32), e("t2", 2, 31), e("hum", 1, 31), e("temp", 1, 30)])).toEqual(["co2 hum temp", "t2"]);
  });

  it("chains alarms each within the window of the next newer one, and starts a new incident after a longer gap", () => {
    expect(grouped([e("a", 1, 50), e("b", 1, 46), e("c", 1, 42), e("d", 1, 30)])).toEqual(["a b c", "d"]);
  });

  it("keeps entries of no MCU alone, and a single alarm a group of one", () => {
    expect(grouped([e("account", null, 40), e("other", null, 40), e("x", 3, 39)])).toEqual(["account", "other", "x"]);
    expect(grouped([])).toEqual([]);
  });
});
