/** Six hex pairs separated by colons or dashes (SPEC §5 MCU form). */
export const MAC_PATTERN = /^[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2}){4}$/;

/** The canonical form used everywhere on the wire and in MQTT topics: `AA:BB:CC:DD:EE:FF`. */
export function normalizeMac(mac: string): string {
  return mac.trim().toUpperCase().replace(/-/g, ":");
}

export function isMac(text: string): boolean {
  return MAC_PATTERN.test(text.trim());
}
