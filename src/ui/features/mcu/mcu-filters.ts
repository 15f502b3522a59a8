import type { Mcu, McuStatus } from "../../../contract/entities.ts";
import type { McuLive } from "../../../streams/device-snapshots.ts";
import { mcuLiveStatus } from "../../../streams/live-status.ts";

/** The MCU Manager's search and filters (SPEC §2); "" means "all". */
export interface McuFilters {
  search: string;
  status: McuStatus | "";
  farmId: string;
}

export const NO_FILTERS: McuFilters = { search: "", status: "", farmId: "" };

export const isFiltering = (f: McuFilters) => f.search.trim() !== "" || f.status !== "" || f.farmId !== "";

/**
 * SPEC §5: the search matches name, ID or MAC, case-insensitively. A MAC typed with dashes
 * finds the colon-separated MAC the server stores. The status filter matches the status the
 * card's badge shows: the live one (`mcuLiveStatus`), not the loaded record's.
 */
export function matchesFilters(mcu: Mcu, f: McuFilters, live?: McuLive): boolean {
  const query = f.search.trim().toLowerCase();
  if (query) {
    const asMac = query.replace(/-/g, ":");
    const hit = mcu.name.toLowerCase().includes(query) || String(mcu.mcu_id).includes(query) || mcu.mac.toLowerCase().includes(asMac);
    if (!hit) return false;
  }
  if (f.status && mcuLiveStatus(mcu.status, live) !== f.status) return false;
  if (f.farmId && String(mcu.farm_id) !== f.farmId) return false;
  return true;
}
