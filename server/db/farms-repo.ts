import type { Farm, FarmStatus } from "../../src/contract/entities.ts";
import { AppError } from "../errors.ts";
import type { Sql } from "./database.ts";
import { groupBy, iso } from "./rows.ts";

interface FarmRow {
  farm_id: number;
  client_id: number;
  name: string;
  location: string;
  status: FarmStatus;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = "farm_id, client_id, name, location, status, created_at, updated_at";

function toFarm(row: FarmRow, mcus: { mcu_id: number; name: string }[]): Farm {
  return {
    farm_id: row.farm_id,
    name: row.name,
    location: row.location,
    status: row.status,
    mcuCount: mcus.length,
    client_id: row.client_id,
    mcus: mcus.map((m) => ({ id: m.mcu_id, mcu_id: m.mcu_id, name: m.name })),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

function stillHasMcus(count: number): AppError {
  return new AppError("CONFLICT", `This farm still has ${count} MCU${count === 1 ? "" : "s"}. Move or delete ${count === 1 ? "it" : "them"} first.`);
}

/** Farms of one client; every query is scoped by client_id. */
export function farmsRepo(sql: Sql) {
  async function mcusOf(clientId: number, farmId?: number) {
    return sql.query<{ mcu_id: number; farm_id: number; name: string }>(
      `select mcu_id, farm_id, name from mcus where client_id = $1 ${farmId ? "and farm_id = $2" : ""} order by mcu_id`,
      farmId ? [clientId, farmId] : [clientId],
    );
  }

  return {
    async list(clientId: number): Promise<Farm[]> {
      const [rows, mcus] = await Promise.all([
        sql.query<FarmRow>(`select ${COLUMNS} from farms where client_id = $1 order by farm_id`, [clientId]),
        mcusOf(clientId),
      ]);
      const byFarm = groupBy(mcus, (m) => m.farm_id);
      return rows.map((row) => toFarm(row, byFarm.get(row.farm_id) ?? []));
    },

    async get(clientId: number, farmId: number): Promise<Farm | undefined> {
      const [row] = await sql.query<FarmRow>(`select ${COLUMNS} from farms where client_id = $1 and farm_id = $2`, [clientId, farmId]);
      return row && toFarm(row, await mcusOf(clientId, farmId));
    },

    async create(clientId: number, name: string, location: string): Promise<Farm> {
      const [row] = await sql.query<FarmRow>(
        `insert into farms (client_id, name, location) values ($1, $2, $3) returning ${COLUMNS}`,
        [clientId, name, location],
      );
      return toFarm(row!, []);
    },

    async update(clientId: number, farmId: number, name: string, location: string, now: Date): Promise<Farm | undefined> {
      const [row] = await sql.query<FarmRow>(
        `update farms set name = $3, location = $4, updated_at = $5 where client_id = $1 and farm_id = $2 returning ${COLUMNS}`,
        [clientId, farmId, name, location, now],
      );
      return row && toFarm(row, await mcusOf(clientId, farmId));
    },

    /** Refuses to delete a farm that still has MCUs, so no MCU is lost with it. */
    async delete(clientId: number, farmId: number): Promise<boolean> {
      const [farm] = await sql.query<{ mcus: number }>(
        "select (select count(*)::int from mcus m where m.farm_id = f.farm_id) as mcus from farms f where client_id = $1 and farm_id = $2",
        [clientId, farmId],
      );
      if (!farm) return false;
      if (farm.mcus > 0) throw stillHasMcus(farm.mcus);
      try {
        await sql.query("delete from farms where client_id = $1 and farm_id = $2", [clientId, farmId]);
      } catch (err) {
        // An MCU was added to the farm since the count: the foreign key keeps it.
        if ((err as { code?: string }).code === "23503") throw stillHasMcus(1);
        throw err;
      }
      return true;
    },
  };
}
