import type { McuStatus, ProfileConfig } from "../../src/contract/entities.ts";
import type { Sql } from "../db/database.ts";

/** What ingest needs to know about the MCU behind a MAC: its owner, name and linked config. */
export interface McuEntry {
  mcuId: number;
  clientId: number;
  mac: string;
  name: string;
  farmName: string;
  status: McuStatus;
  config: ProfileConfig | null;
}

/**
 * A read-through cache from MAC to MCU, so a reading costs no query. Entries live `ttlMs`
 * (other server nodes may change MCUs too); this node drops them at once when it changes an
 * MCU or a profile link. A MAC with no registered MCU is remembered briefly as such.
 */
export function createMcuDirectory(sql: Sql, { ttlMs = 30_000, missTtlMs = 5_000, now = () => Date.now() } = {}) {
  const cache = new Map<string, { entry: McuEntry | null; until: number }>();
  const loading = new Map<string, Promise<McuEntry | null>>();
  /** Bumped by every invalidation: a load that began before one does not fill the cache. */
  let generation = 0;

  async function load(mac: string): Promise<McuEntry | null> {
    const startedIn = generation;
    const [row] = await sql.query<{
      mcu_id: number;
      client_id: number;
      mac: string;
      name: string;
      farm_name: string;
      status: McuStatus;
      config: ProfileConfig | null;
    }>(
      `select m.mcu_id, m.client_id, m.mac, m.name, f.name as farm_name, m.status, p.config
       from mcus m join farms f on f.farm_id = m.farm_id
       left join profile_links l on l.mcu_id = m.mcu_id
       left join setting_profiles p on p.profile_id = l.profile_id
       where m.mac = $1`,
      [mac],
    );
    const entry = row
      ? { mcuId: row.mcu_id, clientId: row.client_id, mac: row.mac, name: row.name, farmName: row.farm_name, status: row.status, config: row.config }
      : null;
    if (startedIn === generation) cache.set(mac, { entry, until: now() + (entry ? ttlMs : missTtlMs) });
    return entry;
  }

  return {
    async lookup(mac: string): Promise<McuEntry | null> {
      const hit = cache.get(mac);
      if (hit && hit.until > now()) return hit.entry;
      let pending = loading.get(mac);
      if (!pending) {
        const started = load(mac).finally(() => {
          if (loading.get(mac) === started) loading.delete(mac);
        });
        pending = started;
        loading.set(mac, pending);
      }
      return pending;
    },

    /** Keeps the cached status in step with what the device reported. */
    setStatus(mac: string, status: McuStatus): void {
      const hit = cache.get(mac);
      if (hit?.entry) hit.entry.status = status;
    },

    /** Forgets every MCU of a client, and every unknown MAC (one may just have been registered). */
    invalidateClient(clientId: number): void {
      for (const [mac, { entry }] of cache) if (!entry || entry.clientId === clientId) cache.delete(mac);
      // A lookup under way may have read the database before the change: the next one reads again.
      generation++;
      loading.clear();
    },
  };
}

export type McuDirectory = ReturnType<typeof createMcuDirectory>;
