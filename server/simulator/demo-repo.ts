import type { LiveReading } from "../../src/contract/entities.ts";
import type { Sql } from "../db/database.ts";
import type { SensorCounts } from "./physics.ts";
import type { FleetDevice } from "./simulated-mcu.ts";

/** A demo MCU's latest stored reading, and when its irrigation last started (null: never). */
export interface StoredRoom {
  mac: string;
  readings: LiveReading;
  irrigated_at: Date | null;
}

/**
 * The demo's own data: its simulated devices (their keys, sensors, battery and seed, kept across
 * restarts), and what the demo looks up of its account and MCUs.
 */
export function demoRepo(sql: Sql) {
  return {
    /** Whether the demo's account exists (`username` in lower case). */
    async accountExists(username: string): Promise<boolean> {
      const [existing] = await sql.query("select 1 from clients where lower(username) = $1", [username]);
      return existing !== undefined;
    },

    async addDevice(d: { mac: string; key: string; counts: SensorCounts; battery: number; seed: number }): Promise<void> {
      await sql.query("insert into simulator_devices (mac, device_key, counts, battery, seed) values ($1, $2, $3, $4, $5)", [
        d.mac,
        d.key,
        JSON.stringify(d.counts),
        d.battery,
        d.seed,
      ]);
    },

    /** The demo's welcome notification shows as read. */
    async markWelcomeRead(clientId: number): Promise<void> {
      await sql.query("update notifications set read_status = true where client_id = $1 and type = 'subscribe'", [clientId]);
    },

    /** Every simulated device, by MAC. */
    async devices(): Promise<FleetDevice[]> {
      const rows = await sql.query<{ mac: string; device_key: string; counts: SensorCounts; battery: number | null; seed: number }>(
        "select mac, device_key, counts, battery, seed from simulator_devices order by mac",
      );
      return rows.map((r) => ({ mac: r.mac, key: r.device_key, counts: r.counts, battery: r.battery ?? undefined, seed: r.seed }));
    },

    /** A demo device switched to a new key: the fleet uses it from now on, also after a restart. */
    async saveKey(mac: string, key: string): Promise<void> {
      await sql.query("update simulator_devices set device_key = $2 where mac = $1", [mac, key]);
    },

    /** The names of the MCUs registered with these MACs, by MAC (a MAC without one is left out). */
    async mcuNames(macs: readonly string[]): Promise<Map<string, string>> {
      const rows = await sql.query<{ mac: string; name: string }>("select mac, name from mcus where mac = any($1::text[])", [macs]);
      return new Map(rows.map((r) => [r.mac, r.name]));
    },

    /** The stored rooms of the MCUs registered with these MACs that have a reading stored. */
    async storedRooms(macs: readonly string[]): Promise<StoredRoom[]> {
      return sql.query<StoredRoom>(
        `select m.mac, m.readings, x.at as irrigated_at from mcus m
     left join lateral (
       select e.at from device_state_events e where e.mcu_id = m.mcu_id and e.target = 'Irrigation' and e.status order by e.at desc limit 1
     ) x on true
     where m.mac = any($1::text[]) and m.readings is not null`,
        [macs],
      );
    },
  };
}
