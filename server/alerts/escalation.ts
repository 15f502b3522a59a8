import type { Alarm } from "../../src/contract/alarms-values.ts";
import { alarmPagePath } from "../../src/contract/alarms-values.ts";
import { PUSH_TTL_SECONDS } from "../../src/contract/push.ts";
import { ESCALATION_STEPS, onCallAt, type AlarmNotice } from "../../src/contract/rota.ts";
import type { Sql } from "../db/database.ts";
import { clientsRepo } from "../db/clients-repo.ts";
import { rotaRepo, type CalledAlarm, type Escalation } from "../db/rota-repo.ts";
import { write, writeBoth, type Reader, type TitleAndBody, type Words } from "../texts.ts";
import type { PushNotifier } from "./push-sender.ts";

/** The steps of a call-out: who is on call, their backup, every Manager and Owner. */
const ON_CALL = 0;
const BACKUP = 1;
const EVERYONE = ESCALATION_STEPS.length - 1;
/** A time that never comes: an escalation at its last step only repeats. */
const NEVER = new Date("9999-12-31T00:00:00Z");
const MINUTE_MS = 60_000;
/** Each step's name in a call's words ("nobody acknowledged it: calling backup"), as ESCALATION_STEPS orders them. */
const STEP_WORDS: readonly Words[] = [{ key: "escalation.steps.onCall" }, { key: "escalation.steps.backup" }, { key: "escalation.steps.everyone" }];

export interface EscalationOptions {
  db: Sql;
  now?: () => Date;
  /** Pushes a call to a person's browsers (high urgency); absent when push is not configured. */
  push?: PushNotifier;
  /** Puts a call in a person's bell (stored with its words, and sent to their open apps): `alarm` as the call words it, in the person's language. */
  inApp(person: number, alarm: CalledAlarm, at: Date): Promise<void>;
  /** How often due calls are looked for (default 15 s). */
  tickMs?: number;
  log?: (msg: string) => void;
}

/**
 * Calls a farm's alarms out to people until someone acknowledges them, for farms with an on-call
 * rota (a farm without one is told as before: its account, as its preferences say). A new alarm
 * goes to who is on call (nobody on call: straight to every Manager and Owner), is sent again to
 * everyone called so far every `repeat_minutes`, and every `escalate_minutes` reaches one step
 * further. Quiet hours hold none of it back: being on call, or being called because nobody
 * answered, is what quiet hours are not for. Every call is kept (alarm_notices). Several server
 * nodes share the work: each step is taken by one node only (the row must be as it was read).
 */
export function createEscalation(o: EscalationOptions) {
  const now = o.now ?? (() => new Date());
  const repo = rotaRepo(o.db);
  const clients = clientsRepo(o.db);

  /**
   * A call's title and body in the language of the person called, and the words they say (kept
   * with its notification, for the app to say in the person's language now): the alarm's words
   * and why it is called again. An alarm stored without words is called with its stored English
   * title and body, and so without words.
   */
  function callFor(alarm: CalledAlarm, step: number, reason: AlarmNotice["reason"], reader: Reader): { title: string; body: string; words: TitleAndBody | null } {
    const again = (title: string | Words): Words =>
      reason === "repeat" ? { key: "escalation.repeat", values: { title } } : { key: "escalation.escalation", values: { title, step: STEP_WORDS[step] ?? STEP_WORDS[EVERYONE]! } };
    if (!alarm.words) return { title: reason === "first" ? alarm.title : write(again(alarm.title), reader), body: alarm.body, words: null };
    const words = reason === "first" ? alarm.words : { title: again(alarm.words.title), body: alarm.words.body };
    return { ...writeBoth(words, reader), words };
  }
  let timer: ReturnType<typeof setInterval> | undefined;
  let ticking: Promise<void> | undefined;

  async function call(alarm: CalledAlarm, people: readonly number[], step: number, reason: AlarmNotice["reason"], at: Date) {
    for (const person of people) {
      await repo.notice(alarm.alarm_id, person, step, reason, at);
      const { title, body, words } = callFor(alarm, step, reason, await clients.readerOf(person));
      await o.inApp(person, { ...alarm, title, body, words }, at).catch((err: Error) => o.log?.(`escalation: bell of client ${person}: ${err.message}`));
      o.push?.(person, { title, body, link: alarmPagePath(alarm.alarm_id, alarm.mcu_id), urgency: "high", ttlSeconds: PUSH_TTL_SECONDS.high, alarmId: alarm.alarm_id }).catch((err: Error) =>
        o.log?.(`escalation: push to client ${person}: ${err.message}`),
      );
    }
  }

  /**
   * Who a step calls, now, of the people who may be called (`callable`): the first on call, the
   * next on call not called yet (`called`), or every Manager and Owner. A step with nobody to call
   * gives way to the next one.
   */
  async function peopleOf(farmId: number, step: number, at: Date, callable: ReadonlySet<number>, called: readonly number[]): Promise<{ step: number; people: number[] }> {
    const rota = await repo.get(farmId);
    const onCall = (rota ? onCallAt(rota, at.getTime()) : []).filter((p) => callable.has(p));
    const next = onCall.find((p) => !called.includes(p));
    if (step <= BACKUP && next !== undefined) return { step, people: [next] };
    return { step: EVERYONE, people: await repo.managersAndOwners(farmId) };
  }

  /** An alarm opened: its farm's rota starts calling it out. */
  async function opened(alarm: Alarm): Promise<void> {
    if (alarm.farm_id === null) return;
    const rota = await repo.get(alarm.farm_id);
    if (!rota || rota.shifts.length === 0) return;
    const at = now();
    const { step, people } = await peopleOf(alarm.farm_id, ON_CALL, at, await repo.callable(alarm.farm_id), []);
    const started = await repo.start({
      alarm_id: alarm.alarm_id,
      farm_id: alarm.farm_id,
      step,
      called: people,
      next_repeat_at: new Date(at.getTime() + rota.repeat_minutes * MINUTE_MS),
      next_escalate_at: step === EVERYONE ? NEVER : new Date(at.getTime() + rota.escalate_minutes * MINUTE_MS),
    });
    if (!started) return;
    // Worded as stored (and only while nobody acknowledged it meanwhile).
    const stored = await repo.openAlarm(alarm.alarm_id);
    if (stored) await call(stored, people, step, "first", at);
  }

  /**
   * One due escalation: stopped if the alarm no longer waits, else one step further or called
   * again. Only those who may still be called are (a member removed from the farm or made a Viewer
   * cannot acknowledge it); their past calls stay. When none of those called may, the next step is
   * taken now: the alarm must reach someone who can act.
   */
  async function next(e: Escalation, at: Date): Promise<void> {
    const alarm = await repo.openAlarm(e.alarm_id);
    if (!alarm) return repo.stop(e.alarm_id);
    const rota = await repo.get(e.farm_id);
    if (!rota) return repo.stop(e.alarm_id);
    const callable = await repo.callable(e.farm_id);
    const kept = e.called.filter((p) => callable.has(p));
    const repeatAt = new Date(at.getTime() + rota.repeat_minutes * MINUTE_MS);
    if ((e.next_escalate_at <= at || kept.length === 0) && e.step < EVERYONE) {
      const { step, people } = await peopleOf(e.farm_id, e.step + 1, at, callable, kept);
      const called = [...kept, ...people.filter((p) => !kept.includes(p))];
      const escalateAt = step === EVERYONE ? NEVER : new Date(at.getTime() + rota.escalate_minutes * MINUTE_MS);
      if (!(await repo.advance(e, { step, called, next_repeat_at: repeatAt, next_escalate_at: escalateAt }))) return;
      // Those called before hear it again with the new step; the new ones for the first time.
      await call(alarm, called, step, "escalation", at);
      return;
    }
    // At the last step, nobody left of those called: every Manager and Owner as they are now.
    const called = kept.length > 0 ? kept : await repo.managersAndOwners(e.farm_id);
    if (called.length === 0) return repo.stop(e.alarm_id);
    if (!(await repo.advance(e, { step: e.step, called, next_repeat_at: repeatAt, next_escalate_at: e.next_escalate_at }))) return;
    await call(alarm, called, e.step, "repeat", at);
  }

  async function tick(): Promise<void> {
    const at = now();
    for (const e of await repo.due(at, 200)) {
      await next(e, at).catch((err: Error) => o.log?.(`escalation of alarm ${e.alarm_id}: ${err.message}`));
    }
  }

  return {
    /** An alarm's new state: an opening starts its call-out; an acknowledgement or resolution ends it. */
    alarmChanged(alarm: Alarm): Promise<void> {
      if (alarm.state === "open") return opened(alarm).catch((err: Error) => o.log?.(`escalation of alarm ${alarm.alarm_id}: ${err.message}`));
      return repo.stop(alarm.alarm_id).catch((err: Error) => o.log?.(`escalation of alarm ${alarm.alarm_id}: ${err.message}`));
    },
    /** Makes the calls due now (the timer's work; tests call it with their clock). */
    tick(): Promise<void> {
      ticking ??= tick().finally(() => (ticking = undefined));
      return ticking;
    },
    start(): void {
      timer ??= setInterval(() => void this.tick(), o.tickMs ?? 15_000);
      timer.unref?.();
    },
    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await ticking;
    },
    notices: (alarmId: number) => repo.notices(alarmId),
  };
}

export type EscalationEngine = ReturnType<typeof createEscalation>;
