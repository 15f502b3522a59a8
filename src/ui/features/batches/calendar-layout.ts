import { addLocalDays } from "../../../contract/grow-values.ts";
import type { Batch } from "../../../contract/grow.ts";
import type { Mcu } from "../../../contract/entities.ts";
import { i18n } from "../../i18n/i18n.ts";
import { plannedPhases, type PhaseState } from "./batch-plan.ts";
import { formatDay, startOfLocalDay } from "./zone-dates.ts";

export interface CalendarDay {
  start: number;
  end: number;
  /** Day of the month (a number: the column's head writes it in the person's digits). */
  date: number;
  /** The first column of a month (or of the calendar): its head names the month. */
  monthStart: boolean;
  today: boolean;
}

/** A phase's part of a bar; `left` and `width` are fractions of the bar. */
export interface CalendarSegment {
  name: string;
  state: PhaseState;
  left: number;
  width: number;
}

/** One batch in one room's row; `left` and `width` are fractions of the calendar's width. */
export interface CalendarBar {
  batch: Batch;
  left: number;
  width: number;
  segments: CalendarSegment[];
  /** What a screen reader says of it: "Batch Oyster 12, Fruiting, 2 Dec to 9 Dec" (in the reader's language when laid out). */
  label: string;
}

export interface CalendarRow {
  mcuId: number;
  name: string;
  bars: CalendarBar[];
}

export interface CalendarFarm {
  farmId: number;
  name: string;
  rows: CalendarRow[];
}

export interface CalendarLayout {
  days: CalendarDay[];
  /** Where now is, as a fraction of the calendar's width. */
  todayAt: number;
  farms: CalendarFarm[];
}

export interface CalendarInput {
  batches: readonly Batch[];
  mcus: readonly Pick<Mcu, "mcu_id" | "name" | "farm_id" | "farm">[];
  now: number;
  /** The zone the columns' days are counted in: the viewer's. */
  timeZone: string;
  daysBefore?: number;
  daysAfter?: number;
}

/**
 * The farm calendar: per farm, its MCUs (rooms) as rows, days as columns around today, and each
 * batch a bar across the days it runs (or is planned to), split into its phases. Positions are
 * fractions of the whole width, counted by days, so a 23-hour day of a daylight-saving change
 * still fills its column.
 */
export function calendarLayout({ batches, mcus, now, timeZone, daysBefore = 14, daysAfter = 42 }: CalendarInput): CalendarLayout {
  const first = addLocalDays(startOfLocalDay(now, timeZone), -daysBefore, timeZone);
  // The day's number, read as a number (not shown as it is written here).
  const dayOfMonth = new Intl.DateTimeFormat("en-US", { timeZone, day: "numeric" });
  const days: CalendarDay[] = [];
  for (let i = 0; i < daysBefore + daysAfter; i++) {
    const start = addLocalDays(first, i, timeZone);
    const end = addLocalDays(first, i + 1, timeZone);
    const date = Number(dayOfMonth.format(start));
    days.push({ start, end, date, monthStart: i === 0 || date === 1, today: start <= now && now < end });
  }
  const span = days.length;
  /** Where `ms` is, as a fraction of the width, clamped to the calendar. */
  const x = (ms: number): number => {
    if (ms <= days[0]!.start) return 0;
    if (ms >= days[span - 1]!.end) return 1;
    const i = days.findIndex((d) => ms < d.end);
    const d = days[i]!;
    return (i + (ms - d.start) / (d.end - d.start)) / span;
  };
  const windowStart = days[0]!.start;
  const windowEnd = days[span - 1]!.end;

  const barsOf = new Map<number, CalendarBar[]>();
  for (const batch of batches) {
    const phases = plannedPhases(batch, now).filter((p) => p.end > p.start);
    if (phases.length === 0) continue;
    const start = phases[0]!.start;
    const end = phases.at(-1)!.end;
    if (end <= windowStart || start >= windowEnd) continue;
    const left = x(start);
    const width = x(end) - left;
    if (width <= 0) continue;
    const segments = phases.map((p) => ({ name: p.phase.name, state: p.state, left: (x(p.start) - left) / width, width: (x(p.end) - x(p.start)) / width }));
    const current = phases.find((p) => p.state === "current");
    const tz = batch.time_zone;
    const label = current
      ? i18n.t("batches:calendar.barRunning", { name: batch.name, phase: current.phase.name, from: formatDay(current.start, tz), to: formatDay(current.end, tz) })
      : i18n.t("batches:calendar.barEnded", { name: batch.name, from: formatDay(start, tz), to: formatDay(end, tz) });
    const bar: CalendarBar = { batch, left, width, segments, label };
    for (const id of batch.mcu_ids) barsOf.set(id, [...(barsOf.get(id) ?? []), bar]);
  }

  const farms: CalendarFarm[] = [];
  const byFarm = new Map<number, CalendarFarm>();
  for (const mcu of mcus) {
    let farm = byFarm.get(mcu.farm_id);
    if (!farm) {
      farm = { farmId: mcu.farm_id, name: mcu.farm.name, rows: [] };
      byFarm.set(mcu.farm_id, farm);
      farms.push(farm);
    }
    farm.rows.push({ mcuId: mcu.mcu_id, name: mcu.name, bars: (barsOf.get(mcu.mcu_id) ?? []).sort((a, b) => a.left - b.left) });
  }
  return { days, todayAt: x(now), farms };
}
