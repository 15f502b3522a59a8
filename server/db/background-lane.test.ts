import { describe, expect, it } from "vitest";
import { withBackgroundLane, type BackgroundLaneOptions } from "./background-lane.ts";
import type { PlainDatabase } from "./database.ts";

/** A database whose queries end when the test says so; it records the order they started in. */
function manualDatabase() {
  const started: string[] = [];
  const open = new Map<string, () => void>();
  const db: PlainDatabase = {
    kind: "pglite",
    query<T>(text: string): Promise<T[]> {
      started.push(text);
      return new Promise<T[]>((resolve) => open.set(text, () => resolve([])));
    },
    transaction: async (fn) => fn(db),
    exec: async () => undefined,
    close: async () => undefined,
  };
  return {
    db,
    started,
    end(text: string) {
      const done = open.get(text);
      if (!done) throw new Error(`${text} is not running`);
      open.delete(text);
      done();
    },
  };
}

const turn = () => new Promise((r) => setTimeout(r, 5));
const lane = (options: Partial<BackgroundLaneOptions> = {}) => {
  const m = manualDatabase();
  return { ...m, laned: withBackgroundLane(m.db, { yieldToOthers: true, ...options }) };
};

describe("background lane", () => {
  it("starts a background query only once no other query is running", async () => {
    const { laned, started, end } = lane();
    void laned.query("farm list");
    void laned.background.query("export chunk");
    await turn();
    expect(started).toEqual(["farm list"]);
    end("farm list");
    await turn();
    expect(started).toEqual(["farm list", "export chunk"]);
  });

  it("runs background queries one at a time, oldest first, and lets a query that arrives meanwhile go before the next", async () => {
    const { laned, started, end } = lane();
    void laned.background.query("A1");
    void laned.background.query("B1");
    void laned.background.query("C1");
    await turn();
    expect(started).toEqual(["A1"]);
    void laned.query("sign-in");
    end("A1");
    await turn();
    expect(started).toEqual(["A1", "sign-in"]);
    end("sign-in");
    await turn();
    expect(started).toEqual(["A1", "sign-in", "B1"]);
    end("B1");
    await turn();
    expect(started.at(-1)).toBe("C1");
    expect(laned.backgroundStats()).toMatchObject({ waiting: 0, ran: 3, forced: 0 });
  });

  it("runs a background query that has waited its longest even while other queries keep the database busy", async () => {
    const { laned, started, end } = lane({ maxWaitMs: 40 });
    void laned.query("busy 1");
    void laned.background.query("export chunk");
    await turn();
    expect(started).not.toContain("export chunk");
    await new Promise((r) => setTimeout(r, 80));
    expect(started).toContain("export chunk");
    expect(laned.backgroundStats().forced).toBe(1);
    end("busy 1");
    end("export chunk");
  });

  it("without yielding (a pool), runs background queries beside others, at most `concurrency` at once", async () => {
    const { laned, started, end } = lane({ yieldToOthers: false, concurrency: 2 });
    void laned.query("farm list");
    for (const q of ["A1", "B1", "C1"]) void laned.background.query(q);
    await turn();
    expect(started).toEqual(["farm list", "A1", "B1"]);
    end("A1");
    await turn();
    expect(started.at(-1)).toBe("C1");
    end("farm list");
    end("B1");
    end("C1");
  });

  it("passes each query's rows and errors through", async () => {
    const db: PlainDatabase = {
      kind: "pglite",
      query: async <T>(text: string) => {
        if (text === "bad") throw Object.assign(new Error("syntax error"), { code: "42601" });
        return [{ text }] as T[];
      },
      transaction: async (fn) => fn(db),
      exec: async () => undefined,
      close: async () => undefined,
    };
    const laned = withBackgroundLane(db, { yieldToOthers: true });
    expect(await laned.background.query("select 1")).toEqual([{ text: "select 1" }]);
    await expect(laned.background.query("bad")).rejects.toMatchObject({ code: "42601" });
    expect(await laned.query("select 2")).toEqual([{ text: "select 2" }]);
  });
});
