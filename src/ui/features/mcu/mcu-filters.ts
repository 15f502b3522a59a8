import type { McuStatus } from "../../../contract/entities.ts";
import { MCU_STATUSES } from "../../../contract/enums.ts";
import type { McuQuery } from "../../../contract/live.ts";

/**
 * The MCU Manager's search and filters (SPEC §2); "" means "all". The core matches them over the
 * whole fleet (`matchesMcuQuery` in src/streams/fleet.ts). They are kept in the page's address
 * (`?q=&status=&farm=`), as the Alarms page keeps its own, so a filtered list survives a reload
 * and Back, and can be linked.
 */
export type McuFilters = McuQuery;

export const NO_FILTERS: McuFilters = { search: "", status: "", farmId: "" };

export const isFiltering = (f: McuFilters) => f.search.trim() !== "" || f.status !== "" || f.farmId !== "";

const isStatus = (s: string | null): s is McuStatus => (MCU_STATUSES as readonly string[]).includes(s ?? "");

/** The filters an address names; a value that names nothing (typed by hand, an old link) is no filter. */
export function mcuFiltersFrom(params: URLSearchParams): McuFilters {
  const status = params.get("status");
  const farm = params.get("farm");
  return {
    search: params.get("q") ?? "",
    status: isStatus(status) ? status : "",
    farmId: farm !== null && /^[1-9]\d{0,9}$/.test(farm) ? farm : "",
  };
}

export function mcuFiltersToParams(f: McuFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.search !== "") params.set("q", f.search);
  if (f.status !== "") params.set("status", f.status);
  if (f.farmId !== "") params.set("farm", f.farmId);
  return params;
}
