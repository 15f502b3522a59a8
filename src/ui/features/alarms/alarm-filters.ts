import { ALARM_KINDS, type Alarm, type AlarmKind } from "../../../contract/alarms-values.ts";

/** The Alarms page's filters, kept in its address (`?farm=&mcu=&kind=`) so a filtered list can be linked and reloaded. */
export interface AlarmFilters {
  farmId: number | null;
  mcuId: number | null;
  kind: AlarmKind | null;
}

export const NO_ALARM_FILTERS: AlarmFilters = { farmId: null, mcuId: null, kind: null };

const idOf = (text: string | null): number | null => (text !== null && /^[1-9]\d{0,9}$/.test(text) ? Number(text) : null);

/** The filters an address names; a value that names nothing (typed by hand, an old link) is no filter. */
export function filtersFrom(params: URLSearchParams): AlarmFilters {
  const kind = params.get("kind");
  return {
    farmId: idOf(params.get("farm")),
    mcuId: idOf(params.get("mcu")),
    kind: (ALARM_KINDS as readonly string[]).includes(kind ?? "") ? (kind as AlarmKind) : null,
  };
}

/** The alarm a link led to (`?alarm=`: the bell, a push), shown marked among the others; null when none. */
export const selectedAlarmFrom = (params: URLSearchParams): number | null => idOf(params.get("alarm"));

/** The address of the filters alone: changing them leaves the alarm a link led to. */
export function filtersToParams(f: AlarmFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.farmId !== null) params.set("farm", String(f.farmId));
  if (f.mcuId !== null) params.set("mcu", String(f.mcuId));
  if (f.kind !== null) params.set("kind", f.kind);
  return params;
}

export const isFiltered = (f: AlarmFilters) => f.farmId !== null || f.mcuId !== null || f.kind !== null;

/** How many filters are set (the phone's Filters button says it while they are folded away). */
export const filterCount = (f: AlarmFilters) => (f.farmId !== null ? 1 : 0) + (f.mcuId !== null ? 1 : 0) + (f.kind !== null ? 1 : 0);

/** Whether an alarm is among those the filters show (the farm it was raised in, as the server filters too). */
export function matchesFilters(a: Alarm, f: AlarmFilters): boolean {
  return (f.farmId === null || a.farm_id === f.farmId) && (f.mcuId === null || a.mcu_id === f.mcuId) && (f.kind === null || a.kind === f.kind);
}

/** The list query of the filters (the server's names). */
export function filterQuery(f: AlarmFilters): { farm_id?: number; mcu_id?: number; kind?: AlarmKind } {
  return {
    ...(f.farmId === null ? {} : { farm_id: f.farmId }),
    ...(f.mcuId === null ? {} : { mcu_id: f.mcuId }),
    ...(f.kind === null ? {} : { kind: f.kind }),
  };
}
