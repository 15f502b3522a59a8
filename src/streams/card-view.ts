import { thresholdBreaches, type Breach } from "../contract/conditions.ts";
import type { Mcu, SensorType } from "../contract/entities.ts";
import type { McuCardView, McuGrowView, McuLive } from "../contract/live.ts";
import { linkedConfig } from "./live-status.ts";

const NO_BREACHES: readonly Breach[] = [];

/** How many sensors of each type an MCU has: the "total" of each reading's reporting/total label. */
export function sensorTotals(sensors: Mcu["sensors"]): Record<SensorType, number> {
  const totals: Record<SensorType, number> = { CO2: 0, Humidity: 0, Soil_temp: 0, Moisture: 0 };
  for (const s of sensors) totals[s.type]++;
  return totals;
}

/** One MCU's card view from its record and live snapshot (none before it reported). */
export function cardView(
  mcu: Mcu,
  live: McuLive | undefined,
  totals: Readonly<Record<SensorType, number>> = sensorTotals(mcu.sensors),
  grow: McuGrowView | null = null,
): McuCardView {
  const online = live?.online ?? false;
  const readings = live?.readings ?? null;
  // While a batch runs, the room is kept to the plan's config: that is what its readings are judged against.
  const config = grow?.config ?? linkedConfig(mcu);
  return {
    mcuId: mcu.mcu_id,
    mac: mcu.mac,
    name: mcu.name,
    farmName: mcu.farm.name,
    profileName: mcu.profile_links[0]?.profile.name ?? null,
    online,
    readings,
    pending: live?.pending ?? null,
    breaches: online && readings && config ? thresholdBreaches("", readings, config) : NO_BREACHES,
    sensorTotals: totals,
    grow,
  };
}

/**
 * Card views that keep their object while the MCU's record and snapshot keep theirs (records and
 * snapshots are immutable), so a card re-renders only when what it shows changed.
 */
export function createCardViews() {
  const made = new WeakMap<Mcu, { live: McuLive | undefined; view: McuCardView }>();
  return (mcu: Mcu, live: McuLive | undefined, grow: McuGrowView | null = null): McuCardView => {
    const last = made.get(mcu);
    if (last && last.live === live && last.view.grow === grow) return last.view;
    const view = cardView(mcu, live, last?.view.sensorTotals, grow);
    made.set(mcu, { live, view });
    return view;
  };
}
