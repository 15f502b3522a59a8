import { CLAIM_REFUSED } from "../../src/contract/claim-code.ts";
import { claimCodeMatches, generateDeviceKey } from "../devices/device-keys.ts";
import { isUniqueViolation, refusal } from "../errors.ts";
import type { Sql } from "./database.ts";

export type DeviceKind = "mcu" | "controller" | "sensor";

export interface InventoryRow {
  mac: string;
  kind: DeviceKind;
  type: string | null;
  key_hash: string | null;
  claimed_by: number | null;
  claim_hash: string | null;
  pending_key: string | null;
}

const COLUMNS = "mac, kind, type, key_hash, claimed_by, claim_hash, pending_key";

const KIND_NAME: Record<DeviceKind, string> = { mcu: "an MCU", controller: "a controller", sensor: "a sensor" };

/** The device inventory: every MAC the system knows, who claimed it, and its device key hash. */
export function inventoryRepo(sql: Sql) {
  return {
    async get(mac: string): Promise<InventoryRow | undefined> {
      const [row] = await sql.query<InventoryRow>(`select ${COLUMNS} from device_inventory where mac = $1`, [mac]);
      return row;
    },

    /** Devices whose next key waits to reach them (published again after a broker restart). */
    async pendingKeys(): Promise<{ mac: string; pending_key: string }[]> {
      return sql.query("select mac, pending_key from device_inventory where pending_key is not null order by mac");
    },

    /**
     * The device connected with its pending key: that key is now its key, and the one before it
     * stops working. Only if the pending key is still `key` (a later release may have replaced it).
     */
    async promotePendingKey(mac: string, key: string, keyHash: string): Promise<boolean> {
      const rows = await sql.query("update device_inventory set key_hash = $3, pending_key = null where mac = $1 and pending_key = $2 returning mac", [mac, key, keyHash]);
      return rows.length > 0;
    },

    /** Adds a provisioned device (manufacturer or installer); it stays unclaimed until a client registers it. */
    async provision(mac: string, kind: DeviceKind, type: string | null, keyHash: string | null, claimHash: string | null = null): Promise<void> {
      await sql.query(
        `insert into device_inventory (mac, kind, type, key_hash, claim_hash) values ($1, $2, $3, $4, $5)
         on conflict (mac) do update set kind = excluded.kind, type = excluded.type, key_hash = excluded.key_hash,
           claim_hash = excluded.claim_hash, pending_key = null`,
        [mac, kind, type, keyHash, claimHash],
      );
    },

    /** Sets the claim code of a provisioned device that has none yet (the demo's stock after an upgrade). */
    async setClaimHashIfMissing(mac: string, claimHash: string): Promise<void> {
      await sql.query("update device_inventory set claim_hash = $2 where mac = $1 and claim_hash is null", [mac, claimHash]);
    },

    /**
     * Claims the MCU `mac` for `clientId` inside the caller's transaction, with the claim code of
     * its label. An unknown MAC, a wrong code, a device of another kind and a device someone else
     * holds all get the same answer (CLAIM_REFUSED), after the same work; only the client's own
     * MCU is named as already registered (it tells nobody anything new).
     */
    async claimMcu(mac: string, claimCode: string, clientId: number, now: Date): Promise<void> {
      const [row] = await sql.query<InventoryRow>(`select ${COLUMNS} from device_inventory where mac = $1 for update`, [mac]);
      const codeMatches = claimCodeMatches(mac, claimCode, row?.claim_hash ?? null);
      if (row && row.kind === "mcu" && row.claimed_by === clientId) throw refusal("CONFLICT", "mac_taken", `MAC address ${mac} is already registered`, { mac });
      if (!row || row.kind !== "mcu" || row.key_hash === null || row.claimed_by !== null || !codeMatches) throw refusal("VALIDATION", "claim_refused", CLAIM_REFUSED);
      await sql.query("update device_inventory set claimed_by = $2, claimed_at = $3 where mac = $1", [mac, clientId, now]);
    },

    /**
     * Claims `mac` for `clientId` inside the caller's transaction. A MAC that anybody has
     * registered already, or that belongs to another kind of device, is refused with 409.
     * A controller or sensor MAC the inventory does not know is added unprovisioned (no device
     * key; SPEC §4 lets a scan create it). MCUs are claimed with their code (claimMcu).
     */
    async claim(mac: string, kind: Exclude<DeviceKind, "mcu">, type: string | null, clientId: number, now: Date): Promise<void> {
      const [row] = await sql.query<InventoryRow>(`select ${COLUMNS} from device_inventory where mac = $1 for update`, [mac]);
      if (!row) {
        try {
          await sql.query(
            "insert into device_inventory (mac, kind, type, claimed_by, claimed_at) values ($1, $2, $3, $4, $5)",
            [mac, kind, type, clientId, now],
          );
        } catch (err) {
          // Someone registered the same new MAC in the same instant.
          if (isUniqueViolation(err)) throw refusal("CONFLICT", "mac_taken", `MAC address ${mac} is already registered`, { mac });
          throw err;
        }
        return;
      }
      if (row.claimed_by !== null) throw refusal("CONFLICT", "mac_taken", `MAC address ${mac} is already registered`, { mac });
      if (row.kind !== kind) throw refusal("CONFLICT", "mac_other_kind", `MAC address ${mac} belongs to ${KIND_NAME[row.kind]}, not ${KIND_NAME[kind]}`, { mac, kind: row.kind, expected: kind });
      if (row.type !== null && type !== null && row.type !== type) {
        throw refusal("CONFLICT", "mac_other_type", `MAC address ${mac} is a ${row.type} device, not ${type}`, { mac, type: row.type, expected: type });
      }
      await sql.query("update device_inventory set claimed_by = $2, claimed_at = $3 where mac = $1", [mac, clientId, now]);
    },

    /**
     * Gives a MAC back: provisioned devices return to the unclaimed stock, others are forgotten. A
     * released MCU gets a new device key (pending until the device has it, see promotePendingKey),
     * so a copy of the key it had under its previous owner stops working; a key already pending
     * stays, as the device may have it already.
     */
    async release(mac: string): Promise<void> {
      await sql.query("delete from device_inventory where mac = $1 and key_hash is null", [mac]);
      await sql.query(
        `update device_inventory set claimed_by = null, claimed_at = null,
           pending_key = case when kind = 'mcu' then coalesce(pending_key, $2) else pending_key end
         where mac = $1`,
        [mac, generateDeviceKey()],
      );
    },
  };
}
