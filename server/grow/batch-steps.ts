import type { ErrorParams, ErrorReason } from "../../src/contract/error-reasons.ts";
import { batchProgress, dueStep, GROW_LIMITS, type Batch, type BatchAction, type BatchEvent } from "../../src/contract/grow.ts";

/** The part of a batch its steps read and write. */
export type BatchState = Pick<Batch, "phases" | "time_zone" | "status" | "phase_index" | "phase_started_at" | "extra_days" | "held_ms" | "held_since" | "ended_at">;

/** A step of a batch: a person's action (with who and why), or the plan's own move at its due time. */
export type BatchStep =
  | { kind: Exclude<BatchAction, "extend">; by: string | null; reason?: string | null }
  | { kind: "extend"; days: number; by: string | null; reason?: string | null }
  | { kind: "advance" | "maximum" };

export type StepOutcome = { ok: true; state: BatchState; event: BatchEvent } | { ok: false; message: string; reason: ErrorReason; params?: ErrorParams };

/** A step the batch's state does not allow: the English words, and the reason the app translates. */
const refuse = (reason: ErrorReason, message: string, params?: ErrorParams): StepOutcome => ({ ok: false, message, reason, ...(params ? { params } : {}) });

/**
 * The batch's state machine, a pure function of its state, the step and the time: the routes (a
 * grower's action) and the plan runner (a phase whose time is over) both step through it, so the
 * two cannot disagree on what a step does. Moving on to the next phase starts it afresh (no extra
 * days, nothing held); moving past the last phase ends the batch.
 */
export function applyStep(b: BatchState, step: BatchStep, now: number): StepOutcome {
  if (b.status !== "running") return refuse("batch_ended", "This batch has ended");
  const phase = b.phases[b.phase_index]!;
  const nowIso = new Date(now).toISOString();
  const person = "by" in step ? step : null;
  const event = (at: number, days: number | null = null): BatchEvent => ({
    at: new Date(at).toISOString(),
    kind: step.kind,
    phase_index: b.phase_index,
    reason: person?.reason ?? null,
    by: person?.by ?? null,
    days,
  });

  /** The next phase from `at`, or the end of the batch after the last one. */
  const moveOn = (at: number): BatchState => {
    const atIso = new Date(at).toISOString();
    const fresh = { extra_days: 0, held_ms: 0, held_since: null };
    if (b.phase_index + 1 >= b.phases.length) return { ...b, ...fresh, status: "ended", ended_at: atIso };
    return { ...b, ...fresh, phase_index: b.phase_index + 1, phase_started_at: atIso };
  };

  switch (step.kind) {
    case "confirm":
      if (phase.confirm === null) return refuse("phase_not_confirmable", "This phase does not wait for a confirmation");
      return { ok: true, state: moveOn(now), event: event(now) };
    case "skip":
      return { ok: true, state: moveOn(now), event: event(now) };
    case "hold":
      if (b.held_since !== null) return refuse("batch_on_hold", "The batch is already on hold");
      return { ok: true, state: { ...b, held_since: nowIso }, event: event(now) };
    case "resume": {
      if (b.held_since === null) return refuse("batch_not_on_hold", "The batch is not on hold");
      const held = Math.max(0, now - Date.parse(b.held_since));
      return { ok: true, state: { ...b, held_ms: b.held_ms + held, held_since: null }, event: event(now) };
    }
    case "extend": {
      const days = phase.days + b.extra_days + step.days;
      if (days > GROW_LIMITS.phaseDays) return refuse("phase_too_long", `A phase lasts at most ${GROW_LIMITS.phaseDays} days`, { max: GROW_LIMITS.phaseDays });
      return { ok: true, state: { ...b, extra_days: b.extra_days + step.days }, event: event(now, step.days) };
    }
    case "end":
      return { ok: true, state: { ...b, status: "ended", ended_at: nowIso }, event: event(now) };
    case "advance":
    case "maximum": {
      if (dueStep(b, now) !== step.kind) return refuse("nothing_due", "Nothing is due in this batch");
      // At the time it was due, not when it was seen: a late sweep does not shift the schedule.
      const due = batchProgress(b, now).endsAt;
      return { ok: true, state: moveOn(due), event: event(due) };
    }
  }
}

/**
 * Every step the plan takes by itself up to `now` (a batch started in the past, or a server that was
 * down while a phase ended), each at its due time. Bounded by the phases: each step moves on.
 */
export function catchUp(b: BatchState, now: number): { state: BatchState; events: BatchEvent[] } {
  let state = b;
  const events: BatchEvent[] = [];
  for (let kind = dueStep(state, now); kind !== null; kind = dueStep(state, now)) {
    const out = applyStep(state, { kind }, now);
    if (!out.ok) break;
    state = out.state;
    events.push(out.event);
  }
  return { state, events };
}
