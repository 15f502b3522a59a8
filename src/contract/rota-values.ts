import type { Rota, RotaShift } from "./rota.ts";

/**
 * The on-call rota's values and rules without schemas, for the page's main thread (which must not
 * load the schema library: it compiles validators with eval, refused by the page's Content
 * Security Policy). The schemas are in rota.ts.
 */

export const ROTA_LIMITS = { shifts: 50, repeat: { min: 1, max: 60, default: 5 }, escalate: { min: 1, max: 240, default: 15 } } as const;

/** A farm without a rota: nobody on call, alarms go as before (to the account, as its preferences say). */
export const emptyRota = (farmId: number): Rota => ({ farm_id: farmId, time_zone: "UTC", repeat_minutes: ROTA_LIMITS.repeat.default, escalate_minutes: ROTA_LIMITS.escalate.default, shifts: [] });

const weekdayFormatters = new Map<string, Intl.DateTimeFormat>();
/** The local weekday (0 = Sunday) and minute of the day of `ms` in `timeZone`. */
export function localWeekMinute(ms: number, timeZone: string): { day: number; minute: number } {
  let f = weekdayFormatters.get(timeZone);
  if (!f) weekdayFormatters.set(timeZone, (f = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })));
  let day = 0;
  let hour = 0;
  let minute = 0;
  for (const p of f.formatToParts(new Date(ms))) {
    if (p.type === "weekday") day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(p.value);
    else if (p.type === "hour") hour = Number(p.value);
    else if (p.type === "minute") minute = Number(p.value);
  }
  return { day, minute: hour * 60 + minute };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether a shift covers the instant `ms` in the rota's time zone. */
export function shiftCovers(shift: RotaShift, ms: number, timeZone: string): boolean {
  const { day, minute } = localWeekMinute(ms, timeZone);
  const start = minutesOf(shift.start);
  const end = minutesOf(shift.end);
  if (end > start) return shift.days.includes(day) && minute >= start && minute < end;
  // Across midnight: the evening of a shift's day, or the morning after it.
  return (shift.days.includes(day) && minute >= start) || (shift.days.includes((day + 6) % 7) && minute < end);
}

/** Who is on call at `ms`, in the rota's order, each once: the first is called first, the next is the backup. */
export function onCallAt(r: Pick<Rota, "shifts" | "time_zone">, ms: number): number[] {
  const people: number[] = [];
  for (const s of r.shifts) if (!people.includes(s.client_id) && shiftCovers(s, ms, r.time_zone)) people.push(s.client_id);
  return people;
}

/** How far an alarm's calling has gone: who is on call, then the backup, then every Manager and Owner. */
export const ESCALATION_STEPS = ["on call", "backup", "managers and owners"] as const;

