import { useEffect, useId, useState } from "react";
import { toCoreError } from "../../contract/core-error.ts";
import { ESCALATION_STEPS } from "../../contract/rota-values.ts";
import type { AlarmNotice } from "../../contract/rota.ts";
import { useAppData } from "../data/provider.tsx";
import { formatDateTime } from "./dates.ts";
import { messageOf } from "./toasts.ts";

// 24-hour, as the rota's shifts are written.
const clock = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** Which step of the calling a notice was: who was on call, the backup, then every Manager and Owner. */
export const stepLabel = (step: number): string => ESCALATION_STEPS[Math.min(Math.max(step, 0), ESCALATION_STEPS.length - 1)]!;

/** "Called ana (on call) at 08:01 · displayed 08:01", or "· not displayed yet" while no device of theirs showed it. */
export function noticeText(n: AlarmNotice): string {
  return `Called ${n.username} (${stepLabel(n.step)}) at ${clock(n.at)} · ${n.displayed_at ? `displayed ${clock(n.displayed_at)}` : "not displayed yet"}`;
}

type CallsLoad = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; notices: AlarmNotice[] };

/**
 * Whom an alarm's on-call rota called, in order, and whether their device showed it: asked of the
 * server when shown (an alarm's card can mount it inside its details).
 */
export function AlarmCalls({ alarmId }: { alarmId: number }) {
  const { core } = useAppData();
  const [load, setLoad] = useState<CallsLoad>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setLoad({ status: "loading" });
    core.alarmNotices(alarmId).then(
      (notices) => live && setLoad({ status: "ready", notices: [...notices].sort((a, b) => Date.parse(a.at) - Date.parse(b.at)) }),
      (err: unknown) => live && setLoad({ status: "error", message: messageOf(err, toCoreError(err).message) }),
    );
    return () => {
      live = false;
    };
  }, [core, alarmId, attempt]);

  if (load.status === "loading") return <p className="text-sm 4xl:text-xl text-gray-600" role="status">Loading who was called…</p>;
  if (load.status === "error")
    return (
      <p role="alert" className="text-sm 4xl:text-xl text-red-700">
        The calls could not be loaded: {load.message}{" "}
        <button type="button" className="min-h-12 font-medium underline underline-offset-2" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </p>
    );
  if (load.notices.length === 0) return <p className="text-sm 4xl:text-xl text-gray-600">Nobody was called about it by an on-call rota.</p>;
  return (
    <ol className="space-y-1 text-sm 4xl:text-xl text-gray-800" aria-label="Calls">
      {load.notices.map((n, i) => (
        <li key={`${n.client_id}-${n.at}-${i}`} data-displayed={n.displayed_at !== null} title={formatDateTime(n.at)}>
          {noticeText(n)}
          {n.reason === "repeat" && <span className="text-gray-600"> (again)</span>}
        </li>
      ))}
    </ol>
  );
}

/** "Who was called", folded: the calls are asked for only when someone opens it. */
export function AlarmCallsToggle({ alarmId }: { alarmId: number }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div>
      <button type="button" className="inline-flex min-h-12 items-center gap-1 text-sm 4xl:text-xl font-medium text-brand-700 hover:text-brand-800" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
        <span aria-hidden="true">{open ? "▾" : "▸"}</span> Who was called
      </button>
      <div id={panelId} hidden={!open}>
        {open && <AlarmCalls alarmId={alarmId} />}
      </div>
    </div>
  );
}
