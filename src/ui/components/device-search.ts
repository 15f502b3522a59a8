/** What the controller and sensor lists filter on (SPEC §5 search rule). */
export interface SearchableDevice {
  name: string;
  mac: string;
  type: string;
}

/** The type filter's "everything" choice (SPEC §2: All, then the four types). */
export const ALL_TYPES = "All";

/**
 * A device passes when its name or MAC contains the query, ignoring case, and its type is the
 * chosen one (or the filter is All). A blank query matches every device.
 */
export function matchesDevice(device: SearchableDevice, query: string, type: string): boolean {
  if (type !== ALL_TYPES && device.type !== type) return false;
  const q = query.trim().toLowerCase();
  return q === "" || device.name.toLowerCase().includes(q) || device.mac.toLowerCase().includes(q);
}
