import type { TFunction } from "i18next";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ESCALATION_STEPS } from "../../contract/rota-values.ts";
import type { AlarmNotice } from "../../contract/rota.ts";
import { useAppData } from "../data/provider.tsx";
import { dateTimeFormat } from "../i18n/format.ts";
import { useLocale } from "../i18n/i18n.ts";
import { formatDateTime } from "./dates.ts";
import { failureText } from "./server-refusal.ts";

// 24-hour, as the rota's shifts are written; in the reader's digits.
const clock = (iso: string) => dateTimeFormat({ hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso));

/** The texts of the calling's steps (`steps.<key>`), in the order of ESCALATION_STEPS: who is on call, the backup, then every Manager and Owner. */
export const STEP_KEYS = ["onCall", "backup", "everyone"] as const satisfies { length: (typeof ESCALATION_STEPS)["length"] };

/** Which step of the calling a notice was: who was on call, the backup, then every Manager and Owner. */
export const stepLabel = (t: TFunction<"team">, step: number): string => t(`steps.${STEP_KEYS[Math.min(Math.max(step, 0), STEP_KEYS.length - 1)]!}`);

/** "Called ana (on call) at 08:01 · displayed 08:01", or "· not displayed yet" while no device of theirs showed it. */
export function noticeText(t: TFunction<"team">, n: AlarmNotice): string {
  const values = { name: n.username, step: stepLabel(t, n.step), at: clock(n.at) };
  return n.displayed_at ? t("calls.notice", { ...values, displayedAt: clock(n.displayed_at) }) : t("calls.noticeNotDisplayed", values);
}

type CallsLoad = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; notices: AlarmNotice[] };

/**
 * Whom an alarm's on-call rota called, in order, and whether their device showed it: asked of the
 * server when shown (an alarm's card can mount it inside its details).
 */
export function AlarmCalls({ alarmId }: { alarmId: number }) {
  const { core } = useAppData();
  const { t } = useTranslation("team");
  // Times in the reader's digits: rendered again when only the digits change.
  useLocale();
  const [load, setLoad] = useState<CallsLoad>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setLoad({ status: "loading" });
    core.alarmNotices(alarmId).then(
      (notices) => live && setLoad({ status: "ready", notices: [...notices].sort((a, b) => Date.parse(a.at) - Date.parse(b.at)) }),
      (err: unknown) => live && setLoad({ status: "error", message: failureText(err) }),
    );
    return () => {
      live = false;
    };
  }, [core, alarmId, attempt]);

  if (load.status === "loading")
    return (
      <p className="text-sm 4xl:text-xl text-gray-600" role="status">
        {t("calls.loading")}
      </p>
    );
  if (load.status === "error")
    return (
      <p role="alert" className="text-sm 4xl:text-xl text-red-700">
        {t("calls.loadFailed", { reason: load.message })}{" "}
        <button type="button" className="min-h-12 font-medium underline underline-offset-2" onClick={() => setAttempt((n) => n + 1)}>
          {t("calls.tryAgain")}
        </button>
      </p>
    );
  if (load.notices.length === 0) return <p className="text-sm 4xl:text-xl text-gray-600">{t("calls.nobody")}</p>;
  return (
    <ol className="space-y-1 text-sm 4xl:text-xl text-gray-800" aria-label={t("calls.list")}>
      {load.notices.map((n, i) => (
        <li key={`${n.client_id}-${n.at}-${i}`} data-displayed={n.displayed_at !== null} title={formatDateTime(n.at)}>
          {noticeText(t, n)}
          {n.reason === "repeat" && <span className="text-gray-600"> {t("calls.again")}</span>}
        </li>
      ))}
    </ol>
  );
}

/** "Who was called", folded: the calls are asked for only when someone opens it. */
export function AlarmCallsToggle({ alarmId }: { alarmId: number }) {
  const { t } = useTranslation("team");
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div>
      <button type="button" className="inline-flex min-h-12 items-center gap-1 text-sm 4xl:text-xl font-medium text-brand-700 hover:text-brand-800" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
        {/* Folded, the triangle points along the line: to the start of the next word, leftwards in Arabic. */}
        <span aria-hidden="true" className={open ? "" : "inline-block rtl:-scale-x-100"}>
          {open ? "▾" : "▸"}
        </span>{" "}
        {t("calls.toggle")}
      </button>
      <div id={panelId} hidden={!open}>
        {open && <AlarmCalls alarmId={alarmId} />}
      </div>
    </div>
  );
}
