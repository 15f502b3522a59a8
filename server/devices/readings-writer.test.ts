import { afterEach, describe, expect, it, vi } from "vitest";
import type { LiveReading } from "../../src/contract/entities.ts";
import { openPglite, type Sql } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { createReadingsWriter } from "./readings-writer.ts";

const reading = { lastUpdated: "2026-11-25T00:00:00.000Z" } as LiveReading;

/** A database that only counts the rows each write statement carries. */
function countingSql() {
  const writes: number[] = [];
  const sql = { query: async (_text: string, params: unknown[]) => (writes.push((params[0] as number[]).length), []) } as unknown as Sql;
  return { sql, writes };
}

describe("latest-readings writer", () => {
  afterEach(() => vi.useRealTimers());

  it("writes a small fleet every second, in one statement", async () => {
    vi.useFakeTimers();
    const { sql, writes } = countingSql();
    const w = createReadingsWriter(sql, { flushMs: 1000 });
    for (let second = 0; second < 3; second++) {
      for (let id = 1; id <= 12; id++) w.put(id, reading, new Date());
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(writes).toEqual([12, 12, 12]);
    await w.close();
  });

  it("writes a large fleet less often (a second more per 250 MCUs, at most 10 s), in chunks of 100, and all of it on close", async () => {
    vi.useFakeTimers();
    const { sql, writes } = countingSql();
    const w = createReadingsWriter(sql, { flushMs: 1000 });
    const flushesIn = async (seconds: number) => {
      const before = writes.length;
      for (let s = 0; s < seconds; s++) {
        for (let id = 1; id <= 2000; id++) w.put(id, reading, new Date());
        await vi.advanceTimersByTimeAsync(1000);
      }
      return writes.slice(before);
    };
    // 2 000 waiting: one write every 8 s, each the 2 000 latest readings in 20 statements.
    expect(await flushesIn(7)).toEqual([]);
    expect(await flushesIn(1)).toEqual(Array(20).fill(100));
    expect(await flushesIn(8)).toEqual(Array(20).fill(100));
    w.put(1, reading, new Date());
    await w.close();
    expect(writes.at(-1)).toBe(1);
  });
});

describe("latest-readings writer: what it keeps", () => {
  it("keeps a waiting reading until it is a second old (a newer one replaces it then), and the time last heard exactly", async () => {
    const rows: { readings: string[]; at: string[] }[] = [];
    const sql = { query: async (_text: string, params: unknown[]) => (rows.push({ readings: params[1] as string[], at: params[2] as string[] }), []) } as unknown as Sql;
    const w = createReadingsWriter(sql, { flushMs: 60_000 });
    const t0 = Date.parse("2026-11-25T10:00:00.000Z");
    const r = (humidity: number) => ({ DHT: { temperature: 20, humidity, count: 1 } }) as LiveReading;
    w.put(1, r(80), new Date(t0));
    w.put(1, r(81), new Date(t0 + 200));
    w.put(1, r(82), new Date(t0 + 999));
    await w.flush();
    w.put(1, r(83), new Date(t0 + 2000));
    w.put(1, r(84), new Date(t0 + 2400));
    w.put(1, r(85), new Date(t0 + 3000));
    w.put(1, r(86), new Date(t0 + 3100));
    await w.flush();
    expect(rows.map((row) => [JSON.parse(row.readings[0]!).DHT.humidity, row.at[0]])).toEqual([
      [80, "2026-11-25T10:00:00.999Z"],
      [85, "2026-11-25T10:00:03.100Z"],
    ]);
    await w.close();
  });
});

describe("latest readings in the database", () => {
  it("rewrite each MCU's row in place: 40 writes of 300 MCUs leave the table its size (PGlite has no autovacuum)", async () => {
    const db = await openPglite();
    try {
      await migrate(db);
      const [{ client_id }] = (await db.query<{ client_id: number }>("insert into clients (username, email, password_hash) values ('grower', 'g@example.com', 'x') returning client_id")) as [{ client_id: number }];
      const [{ farm_id }] = (await db.query<{ farm_id: number }>("insert into farms (client_id, name, location) values ($1, 'Farm', 'Here') returning farm_id", [client_id])) as [{ farm_id: number }];
      await db.query(
        `with macs as (select 'AA:BB:CC:DD:' || lpad(to_hex(g / 256), 2, '0') || ':' || lpad(to_hex(g % 256), 2, '0') as mac, g from generate_series(1, 300) g),
              inv as (insert into device_inventory (mac, kind) select upper(mac), 'mcu' from macs)
         insert into mcus (client_id, farm_id, name, mac) select $1, $2, 'MCU ' || g, upper(mac) from macs`,
        [client_id, farm_id],
      );
      const ids = (await db.query<{ mcu_id: number }>("select mcu_id from mcus")).map((r) => r.mcu_id);
      const w = createReadingsWriter(db);
      const size = async () => Number((await db.query<{ size: string }>("select pg_relation_size('mcus') as size"))[0]!.size);
      const full: LiveReading = {
        DHT: { temperature: 21.4, humidity: 86.2, count: 1 },
        SOIL_TEMP: { soil_temperature: 18.1, count: 1 },
        CO2: { co2: 912, count: 1 },
        MOISTURE: { soil_moisture: 54.3, count: 1 },
        Irrigation: { status: false, auto: true, session: false },
        AC: { status: true, auto: true },
        Ventilation: { status: false, auto: true },
        Humidifier: { status: true, auto: true },
        batteryLevel: 88,
        lastUpdated: "2026-11-25T00:00:00.000Z",
      };
      const writeAll = async (n: number) => {
        for (const id of ids) w.put(id, { ...full, DHT: { ...full.DHT!, count: n } }, new Date());
        await w.flush();
      };
      for (let n = 0; n < 3; n++) await writeAll(n);
      const settled = await size();
      for (let n = 3; n < 40; n++) await writeAll(n);
      // Without room on the pages each write added a copy of every row: ~15x the size by now.
      expect(await size()).toBeLessThanOrEqual(settled * 1.5);
      const [row] = await db.query<{ readings: LiveReading }>("select readings from mcus where mcu_id = $1", [ids[7]]);
      expect(row!.readings.DHT!.count).toBe(39);
      await w.close();
    } finally {
      await db.close();
    }
  });
});
