import type { Farm, FarmStatus } from "../../src/contract/entities.ts";
import { CONSTANTS } from "../../src/contract/limits.ts";
import { AppError, refusal } from "../errors.ts";
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

/** A farm's MCU with what its status is judged on. */
interface FarmMcuRow {
  mcu_id: number;
  farm_id: number;
  name: string;
  /** Said online and reported within the dashboard's freshness window (SPEC §4). */
  online: boolean;
  /** An alarm of this MCU is open or acknowledged. */
  alarmed: boolean;
}

const COLUMNS = "farm_id, client_id, name, location, status, created_at, updated_at";

/**
 * SPEC §3 farm status from its MCUs: offline when none is online; otherwise warning
 * while one of them has an unresolved alarm (open or acknowledged: an MCU offline among online
 * ones counts, and a reading outside the profile only once it has lasted the alarm's grace
 * period), otherwise active. A farm without MCUs is active.
 */
function statusOf(mcus: FarmMcuRow[]): FarmStatus {
  if (mcus.length > 0 && mcus.every((m) => !m.online)) return "offline";
  return mcus.some((m) => m.alarmed) ? "warning" : "active";
}

function toFarm(row: FarmRow, mcus: FarmMcuRow[]): Farm {
  return {
    farm_id: row.farm_id,
    name: row.name,
    location: row.location,
    status: statusOf(mcus),
    mcuCount: mcus.length,
    client_id: row.client_id,
    mcus: mcus.map((m) => ({ id: m.mcu_id, mcu_id: m.mcu_id, name: m.name })),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

function stillHasMcus(count: number): AppError {
  return refusal("CONFLICT", "farm_has_mcus", `This farm still has ${count} MCU${count === 1 ? "" : "s"}. Move or delete ${count === 1 ? "it" : "them"} first.`, { count });
}

/**
 * Farms of one client; every query is scoped by client_id. A farm's status is derived from its
 * MCUs whenever it is read (the stored column is not kept up to date); `now` is the clock the
 * freshness of their readings is judged by.
 */
export function farmsRepo(sql: Sql, now: () => Date = () => new Date()) {
  async function mcusOf(clientId: number, farmId?: number) {
    const freshSince = new Date(now().getTime() - CONSTANTS.freshnessWindowMs);
    return sql.query<FarmMcuRow>(
      `select m.mcu_id, m.farm_id, m.name, coalesce(m.status = 'online' and m.last_seen_at > $2, false) as online,
         exists (select 1 from alerts a where a.client_id = m.client_id and a.mcu_id = m.mcu_id and a.state <> 'resolved') as alarmed
       from mcus m
       where m.client_id = $1 ${farmId ? "and m.farm_id = $3" : ""} order by m.mcu_id`,
      farmId ? [clientId, freshSince, farmId] : [clientId, freshSince],
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

    /** Whether the client has this farm (another client's is as missing). */
    async exists(clientId: number, farmId: number): Promise<boolean> {
      const rows = await sql.query("select 1 from farms where client_id = $1 and farm_id = $2", [clientId, farmId]);
      return rows.length > 0;
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
