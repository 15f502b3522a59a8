import type { McuQuery } from "../../../contract/live.ts";

/**
 * The MCU Manager's search and filters (SPEC §2); "" means "all". The core matches them over the
 * whole fleet (`matchesMcuQuery` in src/streams/fleet.ts).
 */
export type McuFilters = McuQuery;

export const NO_FILTERS: McuFilters = { search: "", status: "", farmId: "" };

export const isFiltering = (f: McuFilters) => f.search.trim() !== "" || f.status !== "" || f.farmId !== "";
