import { describe, expect, it } from "vitest";
import { type } from "arktype";
import { mcu, mcuList, type Mcu } from "./entities.ts";
import { firstMcus, hasFirstScreenShape, isFirstMcusMessage } from "./first-mcus.ts";
import { mcuRecord } from "../test-support/records.ts";

const at = "2026-11-23T10:00:00.000Z";
const config = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 1200 },
  ac: { based_on: "room_temp" as const, target_temp: 18 },
  humidifier: { humidity_on_below: 80, humidity_off_above: 93 },
};
/** An MCU with everything a card reads: devices, a linked profile, a stored reading. */
const full = (i: number): Mcu =>
  mcuRecord(i, {
    status: "online",
    readings: { DHT: { temperature: 20, humidity: 90, count: 1 }, batteryLevel: 80 },
    lastSeen: at,
    controllers: [{ unit_id: 1, name: "Mist maker", mac: "D6:CA:30:03:88:68", type: "Humidifier", mcu_id: i + 1, mcu_name: `Room ${i + 1}`, createdAt: at, updatedAt: at }],
    sensors: [{ sensor_id: 1, name: "CO2 1", mac: "32:28:81:9B:C0:42", type: "CO2", mcu_id: i + 1, mcu_name: `Room ${i + 1}`, createdAt: at, updatedAt: at }],
    profile_links: [{ id: 1, mcu_id: i + 1, profile_id: 3, profile: { profile_id: 3, name: "Oyster fruiting", config } }],
  });

/** A copy of `m` with the value at `path` replaced (or removed, for undefined). */
function broken(m: Mcu, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(m) as unknown as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

describe("the first screen's records, checked before the schema library has loaded", () => {
  it("takes records of SPEC §3's shape, as the schema does", () => {
    const records = [mcuRecord(0), full(1), mcuRecord(2, { readings: '{"batteryLevel":50}' })];
    for (const r of records) expect(mcu(r) instanceof type.errors).toBe(false);
    expect(firstMcus(records)).toBe(records);
  });

  it("refuses a record a card could not show, which the schema refuses too", () => {
    const variants: [string, unknown][] = [
      ["no farm", broken(full(0), ["farm"], undefined)],
      ["a farm name that is not text", broken(full(0), ["farm", "name"], 7)],
      ["a fractional id", broken(full(0), ["mcu_id"], 1.5)],
      ["no name", broken(full(0), ["name"], undefined)],
      ["an unknown status", broken(full(0), ["status"], "broken")],
      ["a reading that is a number", broken(full(0), ["readings"], 5)],
      // What a device's 1e309 became once stored: null where a number was.
      ["a stored temperature of null", broken(full(0), ["readings", "DHT", "temperature"], null)],
      ["sensors that are not a list", broken(full(0), ["sensors"], {})],
      ["an unknown sensor type", broken(full(0), ["sensors", 0, "type"], "Light")],
      ["an unknown controller type", broken(full(0), ["controllers", 0, "type"], "Heater")],
      ["a profile without its name", broken(full(0), ["profile_links", 0, "profile", "name"], undefined)],
      ["a profile config without its AC basis", broken(full(0), ["profile_links", 0, "profile", "config", "ac", "based_on"], undefined)],
      ["a profile threshold that is not a number", broken(full(0), ["profile_links", 0, "profile", "config", "ventilation", "co2_threshold"], "high")],
      ["no list of links", broken(full(0), ["profile_links"], null)],
    ];
    for (const [what, record] of variants) {
      expect(hasFirstScreenShape(record), what).toBe(false);
      expect(mcu(record) instanceof type.errors, what).toBe(true);
    }
  });

  it("sends nothing for a list with one bad record, an empty list or an answer that is no list", () => {
    expect(firstMcus([full(0), broken(full(1), ["farm"], undefined)])).toBeNull();
    expect(firstMcus([])).toBeNull();
    expect(firstMcus({ code: "UNAUTHORIZED", message: "Sign in" })).toBeNull();
    expect(firstMcus(null)).toBeNull();
  });

  it("tells its message from the core's", () => {
    expect(isFirstMcusMessage({ kind: "first-mcus", mcus: [full(0)], cards: [], managerCards: [] })).toBe(true);
    for (const other of [{ id: "1", type: "APPLY" }, { kind: "first-mcus" }, { kind: "first-mcus", mcus: [full(0)] }, null, "first-mcus"]) expect(isFirstMcusMessage(other)).toBe(false);
  });
});

describe("the MCU list as the core validates it", () => {
  it("keeps an MCU whose stored readings do not hold, without them, and leaves out a record that is no MCU", () => {
    const list = [full(0), broken(full(1), ["readings", "DHT", "temperature"], null), broken(full(2), ["farm"], undefined), full(3)];
    const out = mcuList(list);
    if (out instanceof type.errors) throw new Error(out.summary);
    expect(out.map((m) => m.mcu_id)).toEqual([1, 2, 4]);
    expect(out[1]!.readings).toBeNull();
    expect(out[1]!.profile_links[0]!.profile.name).toBe("Oyster fruiting");
    expect(out[0]).toEqual(full(0));
  });

  it("refuses an answer that is no list", () => {
    expect(mcuList({ code: "INTERNAL" }) instanceof type.errors).toBe(true);
  });
});
