import { MAC_PATTERN, normalizeMac } from "./mac.ts";

/**
 * An MCU's claim code: the secret printed with its MAC on the device's QR label, which only the
 * holder of the device has. 12 characters of Crockford's base32 (60 bits: no I, L, O or U, so it
 * reads aloud and types without mix-ups), shown in three groups: `7K2M-9QXD-4TWA`.
 */
export const CLAIM_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const CLAIM_CODE_LENGTH = 12;

export const CLAIM_CODE_REQUIRED = "Claim code is required";
export const CLAIM_CODE_FORMAT = "Claim code has 12 letters and digits, as printed on the MCU's label";
/**
 * The one answer for a claim that cannot go through: the MAC is unknown, the code is wrong, or the
 * device is someone else's. Telling these apart would let anyone map which devices exist.
 */
export const CLAIM_REFUSED = "The MAC address and claim code do not match an MCU you can add. Check both on the device's label.";

/** Upper case without separators, with the look-alikes a person may type (O, I, L) read as Crockford does. */
export function normalizeClaimCode(text: string): string {
  return text
    .toUpperCase()
    .replace(/[\s-]/g, "")
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
}

export function isClaimCode(text: string): boolean {
  const code = normalizeClaimCode(text);
  return code.length === CLAIM_CODE_LENGTH && [...code].every((c) => CLAIM_CODE_ALPHABET.includes(c));
}

/** `7K2M9QXD4TWA` → `7K2M-9QXD-4TWA`. */
export function formatClaimCode(text: string): string {
  const code = normalizeClaimCode(text);
  return code.match(/.{1,4}/g)?.join("-") ?? code;
}

/** A claim code from 60 bits of the given bytes (8 or more). */
export function claimCodeFromBytes(bytes: Uint8Array): string {
  if (bytes.length < 8) throw new Error("a claim code needs 8 bytes");
  let bits = 0n;
  for (let i = 0; i < 8; i++) bits = (bits << 8n) | BigInt(bytes[i]!);
  let out = "";
  for (let i = 0; i < CLAIM_CODE_LENGTH; i++) out += CLAIM_CODE_ALPHABET[Number((bits >> BigInt(64 - 5 * (i + 1))) & 31n)];
  return formatClaimCode(out);
}

/** The text of an MCU's QR label: `MAC:AA:BB:CC:DD:EE:FF;CODE:7K2M-9QXD-4TWA;`. */
export function deviceLabel(mac: string, claimCode: string): string {
  return `MAC:${normalizeMac(mac)};CODE:${formatClaimCode(claimCode)};`;
}

/**
 * What a scanned label says: the MAC, and the claim code when the label carries one. A label of
 * only a MAC (older stock) gives the MAC alone; anything else is not a device label.
 */
export function readDeviceLabel(text: string): { mac: string; claimCode?: string } | undefined {
  const trimmed = text.trim();
  if (MAC_PATTERN.test(trimmed)) return { mac: normalizeMac(trimmed) };
  const fields = new Map<string, string>();
  for (const part of trimmed.split(";")) {
    const at = part.indexOf(":");
    if (at > 0) fields.set(part.slice(0, at).trim().toUpperCase(), part.slice(at + 1).trim());
  }
  const mac = fields.get("MAC");
  if (!mac || !MAC_PATTERN.test(mac)) return undefined;
  const code = fields.get("CODE");
  return code && isClaimCode(code) ? { mac: normalizeMac(mac), claimCode: formatClaimCode(code) } : { mac: normalizeMac(mac) };
}
