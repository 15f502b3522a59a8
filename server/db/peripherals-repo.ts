import type { Controller, ControllerType, Sensor, SensorType } from "../../src/contract/entities.ts";
import { refusal } from "../errors.ts";
import type { Sql } from "./database.ts";
import { inventoryRepo } from "./inventory-repo.ts";
import { iso } from "./rows.ts";

/**
 * Controllers and sensors are both peripherals of an MCU: same columns, same rules, different
 * table and id name. One repository serves both.
 */
export interface PeripheralTable<K extends "controller" | "sensor"> {
  kind: K;
  table: "controllers" | "sensors";
  id: "unit_id" | "sensor_id";
}

export const CONTROLLERS: PeripheralTable<"controller"> = { kind: "controller", table: "controllers", id: "unit_id" };
export const SENSORS: PeripheralTable<"sensor"> = { kind: "sensor", table: "sensors", id: "sensor_id" };

type EntityOf<K> = K extends "controller" ? Controller : Sensor;
export type TypeOf<K> = K extends "controller" ? ControllerType : SensorType;

interface PeripheralRow {
  id: number;
  name: string;
  mac: string;
  type: string;
  mcu_id: number | null;
  mcu_name: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface PeripheralInput<T> {
  name: string;
  mac: string;
  type: T;
  mcu_id: number;
}

export function peripheralsRepo<K extends "controller" | "sensor">(sql: Sql, t: PeripheralTable<K>) {
  const select = `select p.${t.id} as id, p.name, p.mac, p.type, p.mcu_id, m.name as mcu_name, p.created_at, p.updated_at
    from ${t.table} p left join mcus m on m.mcu_id = p.mcu_id`;

  function toEntity(row: PeripheralRow): EntityOf<K> {
    return {
      [t.id]: row.id,
      name: row.name,
      mac: row.mac,
      type: row.type,
      mcu_id: row.mcu_id,
      mcu_name: row.mcu_name,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    } as unknown as EntityOf<K>;
  }

  async function get(clientId: number, id: number): Promise<EntityOf<K> | undefined> {
    const [row] = await sql.query<PeripheralRow>(`${select} where p.client_id = $1 and p.${t.id} = $2`, [clientId, id]);
    return row && toEntity(row);
  }

  return {
    get,

    async list(clientId: number): Promise<EntityOf<K>[]> {
      const rows = await sql.query<PeripheralRow>(`${select} where p.client_id = $1 order by p.${t.id}`, [clientId]);
      return rows.map(toEntity);
    },

    /** The client's devices assigned to the given MCUs. */
    async listForMcus(clientId: number, mcuIds: readonly number[]): Promise<EntityOf<K>[]> {
      const rows = await sql.query<PeripheralRow>(`${select} where p.client_id = $1 and p.mcu_id = any($2::int[]) order by p.${t.id}`, [clientId, mcuIds]);
      return rows.map(toEntity);
    },

    async getByMac(clientId: number, mac: string): Promise<EntityOf<K> | undefined> {
      const [row] = await sql.query<PeripheralRow>(`${select} where p.client_id = $1 and p.mac = $2`, [clientId, mac]);
      return row && toEntity(row);
    },

    /** Call inside a transaction: claims the MAC in the inventory, then stores the device. */
    async create(clientId: number, input: PeripheralInput<TypeOf<K>>, now: Date): Promise<EntityOf<K>> {
      await inventoryRepo(sql).claim(input.mac, t.kind, input.type, clientId, now);
      const [row] = await sql.query<{ id: number }>(
        `insert into ${t.table} (client_id, mcu_id, name, mac, type, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $6) returning ${t.id} as id`,
        [clientId, input.mcu_id, input.name, input.mac, input.type, now],
      );
      return (await get(clientId, row!.id))!;
    },

    /** Call inside a transaction. MAC and type are the device's identity (SPEC §4): they stay. */
    async update(clientId: number, id: number, input: PeripheralInput<TypeOf<K>>, now: Date): Promise<EntityOf<K> | undefined> {
      const [current] = await sql.query<{ mac: string; type: string }>(
        `select mac, type from ${t.table} where client_id = $1 and ${t.id} = $2 for update`,
        [clientId, id],
      );
      if (!current) return undefined;
      if (current.mac !== input.mac || current.type !== input.type) {
        throw refusal("VALIDATION", "device_identity_fixed", "The MAC address and type of a device cannot be changed. Delete it and add it again.");
      }
      await sql.query(`update ${t.table} set mcu_id = $3, name = $4, updated_at = $5 where client_id = $1 and ${t.id} = $2`, [
        clientId,
        id,
        input.mcu_id,
        input.name,
        now,
      ]);
      return get(clientId, id);
    },

    /** Call inside a transaction: deletes the device and releases its MAC. */
    async delete(clientId: number, id: number): Promise<boolean> {
      const [row] = await sql.query<{ mac: string }>(`delete from ${t.table} where client_id = $1 and ${t.id} = $2 returning mac`, [clientId, id]);
      if (!row) return false;
      await inventoryRepo(sql).release(row.mac);
      return true;
    },
  };
}

export type PeripheralsRepo<K extends "controller" | "sensor"> = ReturnType<typeof peripheralsRepo<K>>;
