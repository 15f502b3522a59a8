import { normalizeMac } from "../../contract/mac.ts";

// Six hex pairs with one separator kind throughout, not inside a longer run of hex groups.
const SEPARATED = /(?<![0-9A-Fa-f])[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}(?![:-]?[0-9A-Fa-f])/;
// Twelve bare hex digits as a word of its own (e.g. `?mac=024D46000201`), not part of a longer token.
const BARE = /(?<![0-9A-Za-z])[0-9A-Fa-f]{12}(?![0-9A-Za-z])/;

/**
 * The MAC carried by a scanned QR code, as `AA:BB:CC:DD:EE:FF`, or null when it holds none.
 * Labels print the MAC alone, with dashes, without separators, or inside a URL or a short text
 * (`MAC: AA:BB:CC:DD:EE:FF`); all are accepted.
 */
export function macFromScan(text: string): string | null {
  const separated = SEPARATED.exec(text);
  if (separated) return normalizeMac(separated[0]);
  const bare = BARE.exec(text);
  if (bare) return bare[0].toUpperCase().match(/../g)!.join(":");
  return null;
}
