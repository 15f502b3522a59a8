import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { withBackgroundLane, type BackgroundLaneStats } from "./background-lane.ts";

/** What repositories need: parameterised queries ($1, $2 …) in the PostgreSQL dialect. */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Database extends Sql {
  /** Runs `fn` in one transaction; it commits if `fn` resolves and rolls back if it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
  close(): Promise<void>;
  readonly kind: "pglite" | "postgres";
  /** Queries that yield to every other query of this node: export chunks and other bulk reads (background-lane.ts). */
  readonly background: Sql;
  backgroundStats(): BackgroundLaneStats;
}

/** A database before its background lane is added. */
export type PlainDatabase = Omit<Database, "background" | "backgroundStats">;

/** PGlite in `dataDir` (files survive restarts), or in memory when `dataDir` is undefined. */
export async function openPglite(dataDir?: string): Promise<Database> {
  const db = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  const wrap = (q: Pick<PGlite, "query">): Sql => ({
    async query<T>(text: string, params?: readonly unknown[]) {
      const result = await q.query<T>(text, params as unknown[] | undefined);
      return result.rows;
    },
  });
  return withBackgroundLane(
    {
      kind: "pglite",
      ...wrap(db),
      transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
      exec: async (script) => {
        await db.exec(script);
      },
      close: () => db.close(),
    },
    { yieldToOthers: true },
  );
}

/**
 * A PostgreSQL pool. `schema`, when given, is created if missing and put first on the
 * search_path of every connection: the test suite gives each server its own schema.
 */
export async function openPostgres(connectionString: string, options: { schema?: string; max?: number } = {}): Promise<Database> {
  const { schema, max = 10 } = options;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name ${schema}`);
  if (schema) {
    const setup = new pg.Client({ connectionString });
    await setup.connect();
    try {
      await setup.query(`create schema if not exists ${schema}`);
    } finally {
      await setup.end();
    }
  }
  const pool = new pg.Pool({ connectionString, max, options: schema ? `-c search_path=${schema}` : undefined });
  // An idle client that loses its connection must not crash the process.
  pool.on("error", (err) => console.error("PostgreSQL pool error:", err.message));
  const wrap = (q: pg.Pool | pg.PoolClient): Sql => {
    // One connection runs one query at a time: queries issued together inside a transaction
    // (Promise.all in a repository) are chained rather than handed to pg concurrently.
    let tail: Promise<unknown> = Promise.resolve();
    return {
      query<T>(text: string, params?: readonly unknown[]) {
        const run = async () => (await q.query(text, params as unknown[] | undefined)).rows as T[];
        if (q instanceof pg.Pool) return run();
        const result = tail.then(run, run);
        tail = result.catch(() => undefined);
        return result;
      },
    };
  };
  return withBackgroundLane({
    kind: "postgres",
    ...wrap(pool),
    async transaction(fn) {
      const conn = await pool.connect();
      try {
        await conn.query("begin");
        const result = await fn(wrap(conn));
        await conn.query("commit");
        return result;
      } catch (err) {
        await conn.query("rollback").catch(() => undefined);
        throw err;
      } finally {
        conn.release();
      }
    },
    exec: async (script) => {
      await pool.query(script);
    },
    async close() {
      await pool.end();
    },
  }, { yieldToOthers: false, concurrency: Math.max(1, Math.floor(max / 4)) });
}
