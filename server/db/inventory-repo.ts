import { AppError, isUniqueViolation } from "../errors.ts";
import type { Sql } from "./database.ts";

export type DeviceKind = "mcu" | "controller" | "sensor";

export interface InventoryRow {
  mac: string;
  kind: DeviceKind;
  type: string | null;
  key_hash: string | null;
  claimed_by: number | null;
}

const KIND_NAME: Record<DeviceKind, string> = { mcu: "an MCU", controller: "a controller", sensor: "a sensor" };

/** The device inventory: every MAC the system knows, who claimed it, and its device key hash. */
export function inventoryRepo(sql: Sql) {
  return {
    async get(mac: string): Promise<InventoryRow | undefined> {
      const [row] = await sql.query<InventoryRow>("select mac, kind, type, key_hash, claimed_by from device_inventory where mac = $1", [mac]);
      return row;
    },

    /** Adds a provisioned device (manufacturer or installer); it stays unclaimed until a client registers it. */
    async provision(mac: string, kind: DeviceKind, type: string | null, keyHash: string | null): Promise<void> {
      await sql.query(
        `insert into device_inventory (mac, kind, type, key_hash) values ($1, $2, $3, $4)
         on conflict (mac) do update set kind = excluded.kind, type = excluded.type, key_hash = excluded.key_hash`,
        [mac, kind, type, keyHash],
      );
    },

    /**
     * Claims `mac` for `clientId` inside the caller's transaction. A MAC that anybody has
     * registered already, or that belongs to another kind of device, is refused with 409.
     * A controller or sensor MAC the inventory does not know is added unprovisioned (no device
     * key; SPEC §4 lets a scan create it); an MCU must have been provisioned.
     */
    async claim(mac: string, kind: DeviceKind, type: string | null, clientId: number, now: Date): Promise<void> {
      const [row] = await sql.query<InventoryRow>(
        "select mac, kind, type, key_hash, claimed_by from device_inventory where mac = $1 for update",
        [mac],
      );
      if (!row && kind === "mcu") {
        // An MCU talks to the server with the device key it was provisioned with: without one it never could.
        throw new AppError("VALIDATION", `MAC address ${mac} is not a provisioned MCU. Check the MAC on the device's label.`);
      }
      if (!row) {
        try {
          await sql.query(
            "insert into device_inventory (mac, kind, type, claimed_by, claimed_at) values ($1, $2, $3, $4, $5)",
            [mac, kind, type, clientId, now],
          );
        } catch (err) {
          // Someone registered the same new MAC in the same instant.
          if (isUniqueViolation(err)) throw new AppError("CONFLICT", `MAC address ${mac} is already registered`);
          throw err;
        }
        return;
      }
      if (row.claimed_by !== null) throw new AppError("CONFLICT", `MAC address ${mac} is already registered`);
      if (row.kind !== kind) throw new AppError("CONFLICT", `MAC address ${mac} belongs to ${KIND_NAME[row.kind]}, not ${KIND_NAME[kind]}`);
      if (row.type !== null && type !== null && row.type !== type) {
        throw new AppError("CONFLICT", `MAC address ${mac} is a ${row.type} device, not ${type}`);
      }
      await sql.query("update device_inventory set claimed_by = $2, claimed_at = $3 where mac = $1", [mac, clientId, now]);
    },

    /** Gives a MAC back: provisioned devices return to the unclaimed stock, others are forgotten. */
    async release(mac: string): Promise<void> {
      await sql.query("delete from device_inventory where mac = $1 and key_hash is null", [mac]);
      await sql.query("update device_inventory set claimed_by = null, claimed_at = null where mac = $1", [mac]);
    },
  };
}
