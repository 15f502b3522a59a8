import type { LiveReading, Mcu, McuStatus, ProfileConfig } from "../../src/contract/entities.ts";
import { CONTROLLERS, peripheralsRepo, SENSORS } from "./peripherals-repo.ts";
import type { Sql } from "./database.ts";
import { inventoryRepo } from "./inventory-repo.ts";
import { CLAIM_CODE_REQUIRED } from "../../src/contract/claim-code.ts";
import { refusal } from "../errors.ts";
import { groupBy, iso, isoOrNull } from "./rows.ts";

interface McuRow {
  mcu_id: number;
  client_id: number;
  farm_id: number;
  farm_name: string;
  name: string;
  mac: string;
  status: McuStatus;
  readings: LiveReading | null;
  last_seen_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface LinkRow {
  id: number;
  mcu_id: number;
  profile_id: number;
  name: string;
  config: ProfileConfig;
}

const SELECT = `select m.mcu_id, m.client_id, m.farm_id, f.name as farm_name, m.name, m.mac, m.status, m.readings,
  m.last_seen_at, m.created_at, m.updated_at from mcus m join farms f on f.farm_id = m.farm_id`;

const SELECT_LINKS = `select l.id, l.mcu_id, l.profile_id, p.name, p.config
  from profile_links l join setting_profiles p on p.profile_id = l.profile_id`;

export interface McuInput {
  name: string;
  mac: string;
  farm_id: number;
}

/** MCUs of one client with their controllers, sensors and profile link. */
export function mcusRepo(sql: Sql) {
  const controllers = peripheralsRepo(sql, CONTROLLERS);
  const sensors = peripheralsRepo(sql, SENSORS);

  /** The MCUs of `rows` with their devices and links; `all` says the rows are every MCU of the client. */
  async function assemble(rows: McuRow[], clientId: number, all = false): Promise<Mcu[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.mcu_id);
    const [cs, ss, links] = await Promise.all(
      all
        ? [controllers.list(clientId), sensors.list(clientId), sql.query<LinkRow>(`${SELECT_LINKS} where l.client_id = $1`, [clientId])]
        : [
            controllers.listForMcus(clientId, ids),
            sensors.listForMcus(clientId, ids),
            sql.query<LinkRow>(`${SELECT_LINKS} where l.client_id = $1 and l.mcu_id = any($2::int[])`, [clientId, ids]),
          ],
    );
    const csByMcu = groupBy(cs, (c) => c.mcu_id);
    const ssByMcu = groupBy(ss, (s) => s.mcu_id);
    const linksByMcu = groupBy(links, (l) => l.mcu_id);
    return rows.map((row) => ({
      mcu_id: row.mcu_id,
      name: row.name,
      mac: row.mac,
      farm_id: row.farm_id,
      farm: { name: row.farm_name },
      client_id: row.client_id,
      status: row.status,
      readings: row.readings,
      lastSeen: isoOrNull(row.last_seen_at),
      controllers: csByMcu.get(row.mcu_id) ?? [],
      sensors: ssByMcu.get(row.mcu_id) ?? [],
      profile_links: (linksByMcu.get(row.mcu_id) ?? []).map((l) => ({
        id: l.id,
        mcu_id: l.mcu_id,
        profile_id: l.profile_id,
        profile: { profile_id: l.profile_id, name: l.name, config: l.config },
      })),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    }));
  }

  async function get(clientId: number, mcuId: number): Promise<Mcu | undefined> {
    const rows = await sql.query<McuRow>(`${SELECT} where m.client_id = $1 and m.mcu_id = $2`, [clientId, mcuId]);
    return (await assemble(rows, clientId))[0];
  }

  return {
    get,

    async list(clientId: number): Promise<Mcu[]> {
      return assemble(await sql.query<McuRow>(`${SELECT} where m.client_id = $1 order by m.mcu_id`, [clientId]), clientId, true);
    },

    /** One page of the list (same order), and how many MCUs the client has in all. */
    async page(clientId: number, limit: number, offset: number): Promise<{ items: Mcu[]; total: number }> {
      const [rows, [count]] = await Promise.all([
        sql.query<McuRow>(`${SELECT} where m.client_id = $1 order by m.mcu_id limit $2 offset $3`, [clientId, limit, offset]),
        sql.query<{ total: number }>("select count(*)::int as total from mcus where client_id = $1", [clientId]),
      ]);
      return { items: await assemble(rows, clientId), total: count!.total };
    },

    async exists(clientId: number, mcuId: number): Promise<boolean> {
      return (await sql.query("select 1 from mcus where client_id = $1 and mcu_id = $2", [clientId, mcuId])).length > 0;
    },

    /** Call inside a transaction: claims the MAC, then stores the MCU with status active. */
    async create(clientId: number, input: McuInput & { claim_code: string }, now: Date): Promise<Mcu> {
      await inventoryRepo(sql).claimMcu(input.mac, input.claim_code, clientId, now);
      const [row] = await sql.query<{ mcu_id: number }>(
        `insert into mcus (client_id, farm_id, name, mac, status, created_at, updated_at)
         values ($1, $2, $3, $4, 'active', $5, $5) returning mcu_id`,
        [clientId, input.farm_id, input.name, input.mac, now],
      );
      return (await get(clientId, row!.mcu_id))!;
    },

    /**
     * Call inside a transaction. A new MAC is claimed and the old one released; the MCU then
     * starts over as a new one (status active) until its new device is heard.
     */
    async update(clientId: number, mcuId: number, input: McuInput & { claim_code?: string }, now: Date): Promise<{ mcu: Mcu; macChanged: boolean; releasedMac?: string } | undefined> {
      const [current] = await sql.query<{ mac: string }>("select mac from mcus where client_id = $1 and mcu_id = $2 for update", [clientId, mcuId]);
      if (!current) return undefined;
      const inventory = inventoryRepo(sql);
      const macChanged = current.mac !== input.mac;
      if (macChanged) {
        if (input.claim_code === undefined) throw refusal("VALIDATION", "claim_code_required", "Enter the claim code from the new device's label to move this MCU to it", undefined, [{ path: "claim_code", message: CLAIM_CODE_REQUIRED, reason: "claim_code_required" }]);
        await inventory.claimMcu(input.mac, input.claim_code, clientId, now);
      }
      await sql.query(
        `update mcus set name = $3, farm_id = $4, mac = $5, updated_at = $6, status = case when $7 then 'active' else status end
         where client_id = $1 and mcu_id = $2`,
        [clientId, mcuId, input.name, input.farm_id, input.mac, now, macChanged],
      );
      if (macChanged) await inventory.release(current.mac);
      const mcu = await get(clientId, mcuId);
      return mcu && { mcu, macChanged, releasedMac: macChanged ? current.mac : undefined };
    },

    /** Call inside a transaction. Its controllers and sensors stay registered, unassigned. */
    /** Call inside a transaction; answers the released MAC. */
    async delete(clientId: number, mcuId: number): Promise<string | undefined> {
      const [row] = await sql.query<{ mac: string }>("delete from mcus where client_id = $1 and mcu_id = $2 returning mac", [clientId, mcuId]);
      if (!row) return undefined;
      await inventoryRepo(sql).release(row.mac);
      return row.mac;
    },
  };
}
