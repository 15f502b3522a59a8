import { type } from "arktype";
import { isTimeZone } from "./grow.ts";

/**
 * A farm's on-call rota and how its alarms reach people. A shift is a person on call on some
 * weekdays from a local time to another (across midnight when it ends at or before its start: it
 * belongs to the day it starts). The shifts are in order: of those on call at a moment, the first
 * is called first and the next is the backup. An alarm of a farm with a rota goes to who is on
 * call, is sent again every `repeat_minutes` until someone acknowledges it, and every
 * `escalate_minutes` goes one step further: the backup, then every Manager and Owner.
 */

export const ROTA_LIMITS = { shifts: 50, repeat: { min: 1, max: 60, default: 5 }, escalate: { min: 1, max: 240, default: 15 } } as const;
export const WEEKDAY_LABELS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
const clockTime = (label: string) => type("string").narrow((s, ctx) => CLOCK.test(s) || ctx.reject({ message: `${label} must be a time of day as HH:MM (24 h), like 22:00` }));

export const rotaShift = type({
  client_id: "number.integer > 0",
  /** 0 = Sunday … 6 = Saturday, the days the shift starts on. */
  days: type("0 <= number.integer <= 6").array().narrow((d, ctx) => (d.length > 0 && new Set(d).size === d.length) || ctx.reject({ message: "Choose at least one day, each once" })),
  start: clockTime("Start"),
  end: clockTime("End"),
  "+": "reject",
});
export type RotaShift = typeof rotaShift.infer;

const minutesIn = (label: string, l: { min: number; max: number }) =>
  type("number").narrow((n, ctx) => (Number.isInteger(n) && n >= l.min && n <= l.max) || ctx.reject({ message: `${label} must be a whole number of minutes from ${l.min} to ${l.max}` }));

export const rotaRequest = type({
  time_zone: type("string <= 64").narrow((s, ctx) => isTimeZone(s) || ctx.reject({ message: "Time zone must be an IANA time zone, like Asia/Beirut or UTC" })),
  repeat_minutes: minutesIn("Repeat", ROTA_LIMITS.repeat),
  escalate_minutes: minutesIn("Escalation", ROTA_LIMITS.escalate),
  shifts: rotaShift.array().narrow((s, ctx) => s.length <= ROTA_LIMITS.shifts || ctx.reject({ message: `A rota has at most ${ROTA_LIMITS.shifts} shifts` })),
  "+": "reject",
});
export type RotaRequest = typeof rotaRequest.infer;

export const rota = type({ farm_id: "number.integer", time_zone: "string", repeat_minutes: "number", escalate_minutes: "number", shifts: rotaShift.array() });
export type Rota = typeof rota.infer;

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

/** One time someone was called about an alarm. */
export const alarmNotice = type({
  client_id: "number.integer",
  username: "string",
  step: "number.integer",
  /** "first", "repeat" or "escalation". */
  reason: "'first' | 'repeat' | 'escalation'",
  at: "string",
  /** When a device of theirs showed the push (its service worker said so); null until then, or without push. */
  displayed_at: "string | null",
});
export type AlarmNotice = typeof alarmNotice.infer;
