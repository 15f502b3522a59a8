import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from "node:crypto";
import { claimCodeFromBytes, normalizeClaimCode } from "../../src/contract/claim-code.ts";

/**
 * Device keys are 32 random bytes, so a single SHA-256 is enough to store them safely (a slow
 * password hash would only slow down a fleet reconnecting after an outage).
 */
export function generateDeviceKey(): string {
  return randomBytes(32).toString("base64url");
}

export function hashDeviceKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("base64url");
}

export function deviceKeyMatches(key: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const a = Buffer.from(hashDeviceKey(key));
  const b = Buffer.from(storedHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A line of a Mosquitto password file (`mosquitto_passwd` format 7: PBKDF2-SHA512), so an
 * external broker can authenticate the same devices with the same keys.
 */
export function mosquittoPasswordLine(username: string, password: string, iterations = 101): string {
  const salt = randomBytes(12);
  const hash = pbkdf2Sync(password, salt, iterations, 64, "sha512");
  return `${username}:$7$${iterations}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

/**
 * The Mosquitto ACL that matches the embedded broker's rules: each device only its own topics
 * (%u is the username, which is the MAC), the gateway user everything under devices/.
 */
export function mosquittoAcl(gatewayUser: string): string {
  return [
    `user ${gatewayUser}`,
    "topic readwrite devices/#",
    "",
    "pattern write devices/%u/telemetry",
    "pattern write devices/%u/status",
    "pattern write devices/%u/command/ack",
    "pattern read devices/%u/command",
    "pattern read devices/%u/config",
    "",
  ].join("\n");
}

/** A new claim code for a device's label: 60 random bits. */
export function generateClaimCode(): string {
  return claimCodeFromBytes(randomBytes(8));
}

/**
 * The demo's claim codes are derived from the MAC, so every fresh demo has the same ones and the
 * README can list them. Never used for a real device.
 */
export function demoClaimCode(mac: string): string {
  return claimCodeFromBytes(createHmac("sha256", "mushroom-farm demo claim codes").update(mac).digest());
}

/**
 * What the inventory keeps of a claim code: SHA-256 over the MAC and the code. 60 random bits
 * per device, salted by its MAC, are far beyond guessing from the hash; a claim is checked at
 * most a few times a minute per address.
 */
export function hashClaimCode(mac: string, code: string): string {
  return createHash("sha256").update(`${mac}\n${normalizeClaimCode(code)}`, "utf8").digest("base64url");
}

/** Compares in constant time, and does the same work when there is nothing to compare with. */
export function claimCodeMatches(mac: string, code: string, storedHash: string | null): boolean {
  const a = Buffer.from(hashClaimCode(mac, code));
  const b = Buffer.from(storedHash ?? hashClaimCode("", ""));
  return a.length === b.length && timingSafeEqual(a, b) && storedHash !== null;
}
