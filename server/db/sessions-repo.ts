import type { Sql } from "./database.ts";

export interface SessionRow {
  client_id: number;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

/** Sessions keyed by the SHA-256 of their id; the id itself lives only in the cookie. */
export function sessionsRepo(sql: Sql) {
  return {
    async create(idHash: string, clientId: number, now: Date, expiresAt: Date): Promise<void> {
      await sql.query(
        "insert into sessions (id_hash, client_id, created_at, last_seen_at, expires_at) values ($1, $2, $3, $3, $4)",
        [idHash, clientId, now, expiresAt],
      );
    },
    async find(idHash: string): Promise<SessionRow | undefined> {
      const [row] = await sql.query<SessionRow>(
        "select client_id, created_at, last_seen_at, expires_at from sessions where id_hash = $1",
        [idHash],
      );
      return row;
    },
    async touch(idHash: string, now: Date): Promise<void> {
      await sql.query("update sessions set last_seen_at = $2 where id_hash = $1", [idHash, now]);
    },
    async delete(idHash: string): Promise<void> {
      await sql.query("delete from sessions where id_hash = $1", [idHash]);
    },
    /** Ends every session of a client but one (after a password change). */
    async deleteOthers(clientId: number, keepIdHash: string): Promise<string[]> {
      const rows = await sql.query<{ id_hash: string }>("delete from sessions where client_id = $1 and id_hash <> $2 returning id_hash", [clientId, keepIdHash]);
      return rows.map((r) => r.id_hash);
    },
    async deleteExpired(now: Date, idleBefore: Date): Promise<number> {
      const rows = await sql.query("delete from sessions where expires_at <= $1 or last_seen_at <= $2 returning 1", [now, idleBefore]);
      return rows.length;
    },
  };
}
