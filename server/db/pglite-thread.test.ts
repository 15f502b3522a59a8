import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "../errors.ts";
import type { Database } from "./database.ts";
import { openPgliteThread } from "./pglite-thread.ts";

describe("PGlite in a worker thread", { timeout: 60_000 }, () => {
  let db: Database;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mf-thread-"));
    db = await openPgliteThread(dir);
    await db.exec("create table t (id int primary key, name text not null constraint name_unique unique, doc jsonb, at timestamptz)");
  });
  afterAll(async () => {
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("runs parameterised queries and returns rows with their types", async () => {
    const at = new Date("2026-06-01T08:00:00.123Z");
    const rows = await db.query<{ id: number; doc: unknown; at: Date }>("insert into t values ($1, $2, $3, $4) returning id, doc, at", [1, "one", JSON.stringify({ a: [1, 2] }), at]);
    expect(rows).toEqual([{ id: 1, doc: { a: [1, 2] }, at }]);
    expect(rows[0]!.at).toBeInstanceOf(Date);
  });

  it("keeps a PostgreSQL error's code and constraint", async () => {
    const err = await db.query("insert into t (id, name) values (2, 'one')").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(isUniqueViolation(err, "name_unique")).toBe(true);
    expect((err as Error).message).toMatch(/duplicate key/);
  });

  it("commits a transaction, and rolls it back when its function throws", async () => {
    await db.transaction(async (tx) => {
      await tx.query("insert into t (id, name) values (10, 'ten')");
      await tx.query("insert into t (id, name) values (11, 'eleven')");
    });
    const boom = new Error("boom");
    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into t (id, name) values (12, 'twelve')");
        throw boom;
      }),
    ).rejects.toBe(boom);
    // A failed statement inside aborts it too; the error is the database's.
    await expect(db.transaction((tx) => tx.query("insert into t (id, name) values (13, 'ten')"))).rejects.toMatchObject({ code: "23505" });
    const ids = (await db.query<{ id: number }>("select id from t where id >= 10 order by id")).map((r) => r.id);
    expect(ids).toEqual([10, 11]);
  });

  it("orders a query issued during a transaction after it, as one connection does", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = db.transaction(async (t) => {
      await t.query("update t set name = 'renamed' where id = 10");
      await held;
    });
    await new Promise((r) => setTimeout(r, 50));
    const outside = db.query<{ name: string }>("select name from t where id = 10");
    let answered = false;
    void outside.then(() => (answered = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(answered).toBe(false);
    release();
    await tx;
    expect(await outside).toEqual([{ name: "renamed" }]);
  });

  it("keeps its data in the folder across a reopen, and refuses queries once closed", async () => {
    await db.close();
    await expect(db.query("select 1")).rejects.toThrow(/database thread stopped/);
    db = await openPgliteThread(dir);
    expect((await db.query<{ n: number }>("select count(*)::int as n from t"))[0]!.n).toBe(3);
  });

  it("does not keep a process alive when it has nothing to do", async () => {
    const script = `
      import { openPgliteThread } from ${JSON.stringify(new URL("./pglite-thread.ts", import.meta.url).href)};
      const db = await openPgliteThread();
      const [row] = await db.query("select 41 + 1 as n");
      console.log(row.n);`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      child.once("exit", (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(out.trim()).toBe("42");
    expect(code).toBe(0);
  });
});
