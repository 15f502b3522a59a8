import type { Sql } from "./database.ts";

/** Failed sign-ins per username key, and the browsers known to have signed in to an account. */
export function loginGuardRepo(sql: Sql) {
  return {
    async lockedUntil(usernameKey: string): Promise<Date | null> {
      const [row] = await sql.query<{ locked_until: Date | null }>("select locked_until from login_failures where username_key = $1", [usernameKey]);
      return row?.locked_until ?? null;
    },
    /** Counts one more failure; `lockFor(failures)` says how long the key is then locked (0: not). */
    async fail(usernameKey: string, now: Date, lockFor: (failures: number) => number): Promise<number> {
      const [row] = await sql.query<{ failures: number }>(
        `insert into login_failures (username_key, failures, last_failed_at) values ($1, 1, $2)
         on conflict (username_key) do update set failures = login_failures.failures + 1, last_failed_at = excluded.last_failed_at
         returning failures`,
        [usernameKey, now],
      );
      const failures = row!.failures;
      const ms = lockFor(failures);
      if (ms > 0) await sql.query("update login_failures set locked_until = $2 where username_key = $1", [usernameKey, new Date(now.getTime() + ms)]);
      return failures;
    },
    /**
     * Forgets what no longer counts: failure counts quiet for `failuresFor` and not locked, and
     * browsers unused for `browsersFor` (their owner signs in from them again to be known).
     */
    async sweep(now: Date, failuresFor: number, browsersFor: number): Promise<number> {
      const failures = await sql.query(
        "delete from login_failures where (last_failed_at is null or last_failed_at < $1) and (locked_until is null or locked_until < $2) returning 1",
        [new Date(now.getTime() - failuresFor), now],
      );
      const browsers = await sql.query("delete from known_devices where last_used_at < $1 returning 1", [new Date(now.getTime() - browsersFor)]);
      return failures.length + browsers.length;
    },
    async clear(usernameKey: string): Promise<void> {
      await sql.query("delete from login_failures where username_key = $1", [usernameKey]);
    },
    async isKnown(tokenHash: string, clientId: number): Promise<boolean> {
      const rows = await sql.query("select 1 from known_devices where token_hash = $1 and client_id = $2", [tokenHash, clientId]);
      return rows.length > 0;
    },
    async remember(tokenHash: string, clientId: number, now: Date): Promise<void> {
      await sql.query(
        `insert into known_devices (token_hash, client_id, created_at, last_used_at) values ($1, $2, $3, $3)
         on conflict (token_hash, client_id) do update set last_used_at = excluded.last_used_at`,
        [tokenHash, clientId, now],
      );
    },
  };
}
