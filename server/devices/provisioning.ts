import { randomBytes } from "node:crypto";
import type { Sql } from "../db/database.ts";
import { inventoryRepo, type DeviceKind } from "../db/inventory-repo.ts";
import { generateClaimCode, generateDeviceKey, hashClaimCode, hashDeviceKey } from "./device-keys.ts";

export interface ProvisionRequest {
  mac: string;
  kind: DeviceKind;
  /** Controller or sensor type (SPEC §3); null for an MCU. */
  type: string | null;
  /** An MCU's claim code; a new random one when absent (the demo gives fixed ones). */
  claimCode?: string;
}

export interface ProvisionedDevice extends Omit<ProvisionRequest, "claimCode"> {
  /** The device key, shown once: the database keeps only its hash. */
  key: string;
  /** For an MCU: the claim code printed on its label (the database keeps only its hash); null otherwise. */
  claimCode: string | null;
}

/**
 * Adds devices to the inventory, each with a new device key and, for an MCU, a claim code;
 * re-provisioning a MAC replaces both (a factory reset: a new label).
 */
export async function provisionDevices(sql: Sql, requests: ProvisionRequest[]): Promise<ProvisionedDevice[]> {
  const inventory = inventoryRepo(sql);
  const out: ProvisionedDevice[] = [];
  for (const r of requests) {
    const key = generateDeviceKey();
    const claimCode = r.kind === "mcu" ? (r.claimCode ?? generateClaimCode()) : null;
    await inventory.provision(r.mac, r.kind, r.type, hashDeviceKey(key), claimCode === null ? null : hashClaimCode(r.mac, claimCode));
    out.push({ ...r, key, claimCode });
  }
  return out;
}

/** A random locally administered unicast MAC (second hex digit 2, 6, A or E): never a real vendor's. */
export function randomMac(): string {
  const bytes = randomBytes(6);
  bytes[0] = (bytes[0]! & 0xfc) | 0x02;
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":");
}
