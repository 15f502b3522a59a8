import type { LiveReading, McuStatus, ProfileConfig } from "../../src/contract/entities.ts";
import type { DeviceSnapshot } from "../../src/contract/realtime.ts";
import type { Sql } from "./database.ts";

/** What ingest needs to know about the MCU behind a MAC: its owner, name and the config its device was sent. */
export interface McuEntry {
  mcuId: number;
  clientId: number;
  farmId: number;
  mac: string;
  name: string;
  farmName: string;
  status: McuStatus;
  config: ProfileConfig | null;
}

// The config is the one the device was last sent (a running batch's plan, else the linked profile,
// else none: the latest config change), and the linked profile's before any was recorded.
const ENTRIES = `select m.mcu_id, m.client_id, m.farm_id, m.mac, m.name, f.name as farm_name, m.status,
         case when c.cause is null then p.config else c.config end as config
       from mcus m join farms f on f.farm_id = m.farm_id
       left join profile_links l on l.mcu_id = m.mcu_id
       left join setting_profiles p on p.profile_id = l.profile_id
       left join lateral (
         select cause, config from config_changes where mcu_id = m.mcu_id order by at desc, change_id desc limit 1
       ) c on true`;

interface EntryRow {
  mcu_id: number;
  client_id: number;
  farm_id: number;
  mac: string;
  name: string;
  farm_name: string;
  status: McuStatus;
  config: ProfileConfig | null;
}

const entryOf = (row: EntryRow): McuEntry => ({ mcuId: row.mcu_id, clientId: row.client_id, farmId: row.farm_id, mac: row.mac, name: row.name, farmName: row.farm_name, status: row.status, config: row.config });

/** An MCU's latest reading as the readings writer keeps it, and when it was heard (ms). */
export interface LatestReading {
  reading: LiveReading;
  atMs: number;
}

/**
 * MCUs as their devices report them: what ingest needs to know of the MCU behind a MAC, the
 * status and latest reading it stores, and a client's fleet as a socket first gets it.
 */
export function mcuLiveRepo(sql: Sql) {
  return {
    /** The MCU registered with this MAC, or null. */
    async entryOfMac(mac: string): Promise<McuEntry | null> {
      const [row] = await sql.query<EntryRow>(`${ENTRIES} where m.mac = $1`, [mac]);
      return row ? entryOf(row) : null;
    },

    /** The MCUs registered with these MACs (a MAC without one is left out). */
    async entriesOfMacs(macs: readonly string[]): Promise<McuEntry[]> {
      const rows = await sql.query<EntryRow>(`${ENTRIES} where m.mac = any($1::text[])`, [macs]);
      return rows.map(entryOf);
    },

    /**
     * Marks every MCU seen online offline: the embedded broker just started, so no device is
     * connected to it, whatever the database last saw.
     */
    async markAllOffline(): Promise<void> {
      await sql.query("update mcus set status = 'offline' where status = 'online'");
    },

    /** Stores the status its device reported (not a change of the MCU's settings: `updated_at` stays). */
    async setStatus(mac: string, status: McuStatus): Promise<void> {
      await sql.query("update mcus set status = $2, updated_at = updated_at where mac = $1", [mac, status]);
    },

    /** Stores each MCU's latest reading and when it was heard, in one statement. */
    async writeReadings(batch: readonly (readonly [mcuId: number, latest: LatestReading])[]): Promise<void> {
      await sql.query(
        `update mcus m set readings = v.readings::jsonb, last_seen_at = v.at
       from (select unnest($1::int[]) as id, unnest($2::text[]) as readings, unnest($3::timestamptz[]) as at) v
       where m.mcu_id = v.id`,
        [batch.map(([id]) => id), batch.map(([, v]) => JSON.stringify(v.reading)), batch.map(([, v]) => new Date(v.atMs).toISOString())],
      );
    },

    /** Every MCU of the client with its status and latest reading, by id. */
    async devicesOf(clientId: number, memberFarms: readonly number[] = []): Promise<DeviceSnapshot[]> {
      const rows = await sql.query<{ mac: string; mcu_id: number; status: DeviceSnapshot["status"]; readings: DeviceSnapshot["readings"]; last_seen_at: Date | null }>(
        memberFarms.length === 0
          ? "select mac, mcu_id, status, readings, last_seen_at from mcus where client_id = $1 order by mcu_id"
          : "select mac, mcu_id, status, readings, last_seen_at from mcus where client_id = $1 or farm_id = any($2::int[]) order by mcu_id",
        memberFarms.length === 0 ? [clientId] : [clientId, memberFarms],
      );
      return rows.map((r) => ({
        deviceId: r.mac,
        mcu_id: r.mcu_id,
        status: r.status,
        readings: r.readings,
        lastSeen: r.last_seen_at ? new Date(r.last_seen_at).toISOString() : null,
      }));
    },
  };
}
