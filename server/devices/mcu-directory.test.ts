import { describe, expect, it } from "vitest";
import type { Sql } from "../db/database.ts";
import { createMcuDirectory } from "./mcu-directory.ts";

/** A database of MCUs by MAC that records the MACs each query asked for. */
function fakeDb() {
  const rows = new Map<string, { mcu_id: number; client_id: number; mac: string; name: string; farm_name: string; status: string; config: null }>();
  const queries: string[][] = [];
  let gate: Promise<void> | undefined;
  const sql: Sql = {
    async query<T>(_text: string, params?: readonly unknown[]) {
      const macs = Array.isArray(params![0]) ? (params![0] as string[]) : [params![0] as string];
      queries.push(macs);
      await gate;
      return macs.flatMap((m) => (rows.has(m) ? [{ ...rows.get(m)! }] : [])) as T[];
    },
  };
  const add = (i: number, name = `MCU ${i}`) => rows.set(mac(i), { mcu_id: i, client_id: 1, mac: mac(i), name, farm_name: "Cellar", status: "online", config: null });
  return { sql, rows, queries, add, hold: (p: Promise<void>) => (gate = p) };
}
const mac = (i: number) => `AA:BB:CC:DD:${((i >> 8) & 255).toString(16).padStart(2, "0").toUpperCase()}:${(i & 255).toString(16).padStart(2, "0").toUpperCase()}`;
const settle = () => new Promise((r) => setTimeout(r, 0));

describe("MCU directory", () => {
  it("reads a MAC once, then answers from memory without waiting", async () => {
    const db = fakeDb();
    db.add(1);
    const dir = createMcuDirectory(db.sql, { now: () => 0 });
    expect(dir.cached(mac(1))).toBeUndefined();
    expect((await dir.lookup(mac(1)))?.name).toBe("MCU 1");
    expect(dir.cached(mac(1))?.name).toBe("MCU 1");
    expect(await dir.lookup(mac(2))).toBeNull();
    expect(db.queries).toEqual([[mac(1)], [mac(2)]]);
  });

  it("keeps answering a due entry while it reads the due ones again, 500 MACs a query", async () => {
    const db = fakeDb();
    let t = 0;
    const dir = createMcuDirectory(db.sql, { now: () => t, ttlMs: 30_000, refreshDelayMs: 0 });
    for (let i = 1; i <= 1200; i++) {
      db.add(i);
      await dir.lookup(mac(i));
    }
    db.queries.length = 0;
    for (let i = 1; i <= 1200; i++) db.add(i, `Renamed ${i}`);
    db.rows.delete(mac(7)); // deleted meanwhile (by another server node)
    const entry = dir.cached(mac(5))!;
    t = 31_000;
    for (let i = 1; i <= 1200; i++) expect(dir.cached(mac(i))?.name).toMatch(/^MCU /); // answered at once, as it was
    for (let i = 0; i < 10; i++) await settle();
    expect(db.queries.map((q) => q.length)).toEqual([500, 500, 200]);
    expect(dir.cached(mac(1))?.name).toBe("Renamed 1");
    expect(dir.cached(mac(7))).toBeNull();
    // The entry object the gateway holds is kept, with the new values.
    expect(dir.cached(mac(5))).toBe(entry);
    expect(entry.name).toBe("Renamed 5");
    // Read again: nothing is due until the next TTL.
    db.queries.length = 0;
    dir.cached(mac(1));
    await settle();
    expect(db.queries).toEqual([]);
  });

  it("does not let a read that began before a change fill the cache", async () => {
    const db = fakeDb();
    db.add(1);
    let t = 0;
    const dir = createMcuDirectory(db.sql, { now: () => t, ttlMs: 1000, refreshDelayMs: 0 });
    await dir.lookup(mac(1));
    let release!: () => void;
    db.hold(new Promise<void>((r) => (release = r)));
    t = 2000;
    dir.cached(mac(1)); // due: the read starts and waits
    db.add(1, "Old name read");
    dir.invalidateClient(1); // the client changed its MCUs meanwhile
    release();
    for (let i = 0; i < 5; i++) await settle();
    expect(dir.cached(mac(1))).toBeUndefined();
    db.add(1, "New name");
    expect((await dir.lookup(mac(1)))?.name).toBe("New name");
  });

  it("keeps the config the device was just sent, without a read", async () => {
    const db = fakeDb();
    db.add(1);
    const dir = createMcuDirectory(db.sql, { now: () => 0 });
    await dir.lookup(mac(1));
    const reads = db.queries.length;
    const config = { irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 }, ventilation: { co2_threshold: 700 }, ac: { based_on: "room_temp" as const, target_temp: 16 }, humidifier: { humidity_on_below: 90, humidity_off_above: 95 } };
    dir.setConfig(mac(1), config);
    expect(dir.cached(mac(1))?.config).toEqual(config);
    expect(db.queries.length).toBe(reads);
  });
});
