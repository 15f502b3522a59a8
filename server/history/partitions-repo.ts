import type { Sql } from "../db/database.ts";
import type { Partition, PartitionedTable } from "./partitions.ts";

/** Lock taken while partitions are created or dropped: two nodes' DDL on one table would race in the catalog. */
const PARTITION_LOCK = 4242014;
/**
 * DDL on a partition waits for the parent table's lock; a long reader (a year's CSV export) holds
 * it, and every query after the waiting DDL would queue behind it. Giving up after this long
 * leaves the work to the next run.
 */
const DDL_LOCK_TIMEOUT = "3s";

/** The history tables' partitions in the catalog: which exist, and their DDL (partitions.ts decides which). */
export function partitionsRepo(sql: Sql) {
  return {
    /** The partitions that exist of `table` (in this connection's schema). */
    async existing(table: PartitionedTable): Promise<string[]> {
      const rows = await sql.query<{ name: string }>(
        "select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass($1) order by 1",
        [table],
      );
      return rows.map((r) => r.name);
    },

    /** Takes the partition DDL lock until the caller's transaction ends, and bounds the wait for the tables' locks. */
    async lockForDdl(): Promise<void> {
      await sql.query(`set local lock_timeout = '${DDL_LOCK_TIMEOUT}'`);
      await sql.query("select pg_advisory_xact_lock($1)", [PARTITION_LOCK]);
    },

    async create(p: Partition): Promise<void> {
      await sql.query(
        `create table if not exists ${p.name} partition of ${p.table} for values from ('${new Date(p.from).toISOString()}') to ('${new Date(p.to).toISOString()}')`,
      );
    },

    async drop(p: Partition): Promise<void> {
      await sql.query(`drop table if exists ${p.name}`);
    },
  };
}
