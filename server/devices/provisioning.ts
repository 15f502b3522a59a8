import { randomBytes } from "node:crypto";
import type { Sql } from "../db/database.ts";
import { inventoryRepo, type DeviceKind } from "../db/inventory-repo.ts";
import { generateDeviceKey, hashDeviceKey } from "./device-keys.ts";

export interface ProvisionRequest {
  mac: string;
  kind: DeviceKind;
  /** Controller or sensor type (SPEC §3); null for an MCU. */
  type: string | null;
}

export interface ProvisionedDevice extends ProvisionRequest {
  /** The device key, shown once: the database keeps only its hash. */
  key: string;
}

/** Adds devices to the inventory, each with a new device key; re-provisioning a MAC replaces its key. */
export async function provisionDevices(sql: Sql, requests: ProvisionRequest[]): Promise<ProvisionedDevice[]> {
  const inventory = inventoryRepo(sql);
  const out: ProvisionedDevice[] = [];
  for (const r of requests) {
    const key = generateDeviceKey();
    await inventory.provision(r.mac, r.kind, r.type, hashDeviceKey(key));
    out.push({ ...r, key });
  }
  return out;
}

/** A random locally administered unicast MAC (second hex digit 2, 6, A or E): never a real vendor's. */
export function randomMac(): string {
  const bytes = randomBytes(6);
  bytes[0] = (bytes[0]! & 0xfc) | 0x02;
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":");
}
