import { createHash, pbkdf2Sync, randomBytes, timingSafeEqual } from "node:crypto";

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
