import { afterEach, describe, expect, it, vi } from "vitest";
import type { LiveReading } from "../../src/contract/entities.ts";
import type { Sql } from "../db/database.ts";
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

  it("writes a large fleet less often (a second more per 500 MCUs, at most 5 s), in chunks of 100, and all of it on close", async () => {
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
    // 2 000 waiting: one write every 4 s, each the 2 000 latest readings in 20 statements.
    expect(await flushesIn(3)).toEqual([]);
    expect(await flushesIn(1)).toEqual(Array(20).fill(100));
    expect(await flushesIn(4)).toEqual(Array(20).fill(100));
    w.put(1, reading, new Date());
    await w.close();
    expect(writes.at(-1)).toBe(1);
  });
});
