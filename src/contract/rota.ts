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

export * from "./rota-values.ts";
import { ROTA_LIMITS } from "./rota-values.ts";

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
