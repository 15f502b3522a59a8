import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Database } from "./database.ts";

const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));

/**
 * Applies the numbered SQL files of migrations/ that this database has not seen, in order,
 * each in its own transaction. An advisory lock keeps two server nodes from migrating at once.
 * `before` stops short of the migration of that number (a test of it sees the rows it finds).
 */
export async function migrate(db: Database, o: { before?: string } = {}): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_.+\.sql$/.test(f) && (o.before === undefined || f < o.before)).sort();
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock(4242001)");
    await tx.query(
      "create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())",
    );
    const done = new Set((await tx.query<{ version: string }>("select version from schema_migrations")).map((r) => r.version));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const script = await readFile(MIGRATIONS_DIR + file, "utf8");
      for (const statement of splitStatements(script)) await tx.query(statement);
      await tx.query("insert into schema_migrations (version) values ($1)", [file]);
      applied.push(file);
    }
    return applied;
  });
}

/** Splits a migration on semicolons at line ends; our migrations hold no function bodies. */
function splitStatements(script: string): string[] {
  return script
    .replace(/^\s*--.*$/gm, "")
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
}
