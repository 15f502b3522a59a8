import { useCallback, useId, useMemo, useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { useTranslation } from "react-i18next";
import type { Batch, BatchAction } from "../../../contract/grow.ts";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { RefusalNote } from "../../components/refusal-note.tsx";
import { EmptyState, LoadError, Loading, SavedDataNotice } from "../../components/states.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useListLoad } from "../../components/use-list-load.ts";
import { useNow } from "../../components/use-now.ts";
import { useCollection } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { useLocale } from "../../i18n/i18n.ts";
import { BatchActionDialog } from "./batch-action-dialog.tsx";
import { plannedPhases } from "./batch-plan.ts";
import { batchStatus, phaseOfText, progressText } from "./batch-status.ts";
import { num } from "./whole-number.ts";
import { eventText, phaseName } from "./event-text.ts";
import { HarvestSection } from "./harvest-section.tsx";
import { PhaseProgressBar } from "./phase-progress-bar.tsx";
import { useBatchRefusal } from "./use-batch-refusal.ts";
import { formatDateTimeIn, formatDayTime } from "./zone-dates.ts";

const BATCH_LISTS = ["batches"] as const;

/** One batch: where it is and what to do now (phone first: confirm a phase, record a harvest), its plan and its log. */
export default function BatchDetailPage() {
  const { t } = useTranslation("batches");
  const { core } = useAppData();
  const batchId = Number(useParams().batchId);
  const batch = useCollection("batches", (list) => list.find((b) => b.batch_id === batchId));
  const { state, retry } = useListLoad({
    load: useCallback(() => core.loadBatches(), [core]),
    failure: { kind: "info", fallback: t("page.loadFailed") },
    toastId: "batches-load",
  });
  useListLoad({ load: useCallback(() => core.loadMcus(), [core]), failure: { kind: "info", fallback: t("page.mcusLoadFailed") }, toastId: "mcus-load" });

  if (!batch) {
    return state.status === "error" ? (
      <LoadError text={state.message} onRetry={retry} />
    ) : state.status === "loading" ? (
      <Loading text={t("detail.loading")} />
    ) : (
      <EmptyState title={t("detail.notFound")}>
        <p>
          {t("detail.mayBeDeleted")}{" "}
          <Link to="/batches" className="font-medium text-brand-700 underline underline-offset-2">
            {t("detail.allBatches")}
          </Link>
        </p>
      </EmptyState>
    );
  }
  return <BatchDetail batch={batch} />;
}

function BatchDetail({ batch }: { batch: Batch }) {
  const { t } = useTranslation("batches");
  useLocale();
  const { core } = useAppData();
  const now = useNow();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const mcus = useCollection("mcus");
  const [action, setAction] = useState<{ kind: BatchAction | null; session: number }>({ kind: null, session: 0 });
  const open = (kind: BatchAction) => setAction((a) => ({ kind, session: a.session + 1 }));
  const running = batch.status === "running";
  const status = running ? batchStatus(batch, now) : null;
  const label = status ? progressText(status.progress) : t("detail.ended");
  const tz = batch.time_zone;
  const mcuNames = useMemo(() => {
    const byId = new Map(mcus.map((m) => [m.mcu_id, m.name]));
    return batch.mcu_ids.map((id) => byId.get(id) ?? t("mcuFallback", { id }));
  }, [mcus, batch.mcu_ids, t]);
  const phase = status?.progress.phase;
  const events = useMemo(() => [...batch.events].sort((a, b) => Date.parse(b.at) - Date.parse(a.at)), [batch.events]);
  // Confirming a phase is the day's work; every other action changes the plan.
  const confirmRefusal = useBatchRefusal(batch.mcu_ids, "confirmPhases");
  const manageRefusal = useBatchRefusal(batch.mcu_ids, "manageBatches");
  const confirmReasonId = useId();
  const manageReasonId = useId();
  const manageOff = { disabled: manageRefusal !== null, "aria-describedby": manageRefusal ? manageReasonId : undefined };

  async function remove() {
    if (!(await confirm(t("detail.deleteConfirm")))) return;
    try {
      notify.success(await core.deleteBatch(batch.batch_id));
      navigate("/batches");
    } catch (err) {
      notify.error(messageOf(err, t("detail.deleteFailed")));
    }
  }

  return (
    <div className="space-y-5 4xl:space-y-8 max-w-5xl 4xl:max-w-none mx-auto">
      <Link to="/batches" className="inline-flex min-h-11 items-center gap-1 text-sm 4xl:text-xl font-medium text-brand-700 hover:text-brand-800">
        <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
          ←
        </span>{" "}
        {t("detail.allBatches")}
      </Link>
      <div className="empty:hidden">
        <SavedDataNotice lists={BATCH_LISTS} />
      </div>

      <header className="card p-4 sm:p-5 4xl:p-8 space-y-3">
        <div>
          <h2 className="text-xl sm:text-2xl 4xl:text-4xl font-semibold text-gray-900 break-words">{batch.name}</h2>
          <p className="text-sm 4xl:text-xl text-gray-600">
            {t("card.recipeVersion", { recipe: batch.recipe_name, version: num(batch.recipe_version) })} · {mcuNames.join(t("card.listSeparator"))}
          </p>
        </div>
        <div aria-live="polite">
          <p className={`text-lg 4xl:text-3xl font-semibold ${status?.progress.held ? "text-amber-800" : "text-gray-900"}`}>{label}</p>
          <p className="text-sm 4xl:text-xl text-gray-700">
            {status ? status.nextText : t("detail.endedOn", { when: batch.ended_at ? formatDayTime(Date.parse(batch.ended_at), tz) : "—" })}
          </p>
        </div>
        {status && <PhaseProgressBar phases={status.phases} currentFraction={status.progress.fraction} overall={status.overall} held={status.progress.held} label={t("card.progress", { name: batch.name })} valueText={phaseOfText(status, label)} />}
        <p className="text-xs 4xl:text-lg text-gray-500">
          {t("detail.started", { when: formatDateTimeIn(Date.parse(batch.started_at), tz), zone: tz })}
        </p>
      </header>

      {status && phase && (
        <section aria-label={t("detail.actions")} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
          {phase.confirm !== null && !status.progress.held && (
            <>
              <button
                type="button"
                className="btn-primary min-h-14 text-lg 4xl:text-2xl sm:col-span-2 lg:col-span-5"
                onClick={() => open("confirm")}
                disabled={confirmRefusal !== null}
                aria-describedby={confirmRefusal ? confirmReasonId : undefined}
              >
                {t("actions.confirm.title", { confirm: phase.confirm })}
              </button>
              <RefusalNote id={confirmReasonId} text={confirmRefusal} className="-mt-1 sm:col-span-2 lg:col-span-5" />
            </>
          )}
          {status.progress.held ? (
            <button type="button" className="btn-primary min-h-12 4xl:text-xl" onClick={() => open("resume")} {...manageOff}>
              {t("detail.resume")}
            </button>
          ) : (
            <button type="button" className="btn-secondary min-h-12 4xl:text-xl" onClick={() => open("hold")} {...manageOff}>
              {t("detail.hold")}
            </button>
          )}
          <button type="button" className="btn-secondary min-h-12 4xl:text-xl" onClick={() => open("extend")} {...manageOff}>
            {t("detail.extend")}
          </button>
          <button type="button" className="btn-secondary min-h-12 4xl:text-xl" onClick={() => open("skip")} {...manageOff}>
            {status.progress.next ? t("detail.skipNext") : t("detail.skipLast")}
          </button>
          <button type="button" className="btn-secondary min-h-12 4xl:text-xl text-red-700 border-red-300 hover:bg-red-50 lg:col-span-2" onClick={() => open("end")} {...manageOff}>
            {t("actions.end.title")}
          </button>
          <RefusalNote id={manageReasonId} text={manageRefusal} className="-mt-1 sm:col-span-2 lg:col-span-5" />
        </section>
      )}

      <div className="grid gap-5 4xl:gap-8 lg:grid-cols-2 items-start">
        <HarvestSection batch={batch} manageRefusal={manageRefusal} />
        <PhaseTimeline batch={batch} now={now} />
      </div>

      <section aria-labelledby="log-heading" className="card p-4 sm:p-5 4xl:p-8">
        <h3 id="log-heading" className="mb-3 text-lg 4xl:text-3xl font-semibold text-gray-900">
          {t("detail.eventLog")}
        </h3>
        <ol className="divide-y divide-gray-100 text-sm 4xl:text-xl">
          {events.map((e, i) => (
            <li key={`${e.at}-${i}`} className="py-2 grid gap-x-4 gap-y-0.5 sm:grid-cols-[12rem_1fr]">
              <time dateTime={e.at} className="text-gray-500">
                {formatDateTimeIn(Date.parse(e.at), tz)}
              </time>
              <div>
                <p className="font-medium text-gray-900">{eventText(e, batch)}</p>
                <p className="text-gray-600">
                  {phaseName(batch, e.phase_index)}
                  {e.by ? ` · ${t("detail.by", { name: e.by })}` : ""}
                </p>
                {e.reason && <p className="text-gray-700 italic break-words">{t("detail.quoted", { text: e.reason })}</p>}
              </div>
            </li>
          ))}
        </ol>
      </section>

      {!running && (
        <div className="flex flex-col items-end gap-1">
          <button type="button" className="btn-danger min-h-11" onClick={() => void remove()} {...manageOff}>
            {t("detail.delete")}
          </button>
          <RefusalNote id={manageReasonId} text={manageRefusal} className="text-end" />
        </div>
      )}

      <BatchActionDialog key={action.session} batch={batch} action={action.kind} onClose={() => setAction((a) => ({ ...a, kind: null }))} />
    </div>
  );
}

/** Every phase with its dates; the current one highlighted with its day and what it waits for. */
function PhaseTimeline({ batch, now }: { batch: Batch; now: number }) {
  const { t } = useTranslation("batches");
  const status = batch.status === "running" ? batchStatus(batch, now) : null;
  const phases = status?.phases ?? plannedPhases(batch, now);
  const tz = batch.time_zone;
  return (
    <section aria-labelledby="phases-heading" className="card p-4 sm:p-5 4xl:p-8">
      <h3 id="phases-heading" className="mb-3 text-lg 4xl:text-3xl font-semibold text-gray-900">
        {t("timeline.heading")}
      </h3>
      <ol className="space-y-2">
        {phases.map((p) => {
          const current = p.state === "current";
          return (
            <li
              key={p.index}
              aria-current={current ? "step" : undefined}
              className={`rounded-xl px-4 py-3 4xl:px-6 4xl:py-4 ${current ? "bg-brand-50 ring-2 ring-brand-600" : p.state === "done" ? "bg-gray-50" : p.state === "not-run" ? "bg-white ring-1 ring-dashed ring-gray-200 text-gray-500" : "bg-white ring-1 ring-gray-200"}`}
            >
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <p className="font-semibold text-gray-900 4xl:text-2xl">
                  {t("timeline.phase", { n: num(p.index + 1), name: p.phase.name })}
                </p>
                <p className="text-xs 4xl:text-lg font-medium uppercase tracking-wide text-gray-500">{t(`timeline.states.${STATE_KEYS[p.state]}`)}</p>
              </div>
              <p className="text-sm 4xl:text-xl text-gray-700">
                {p.state === "not-run" ? t("timeline.daysPlanned", { count: p.phase.days }) : `${formatDayTime(p.start, tz)} – ${formatDayTime(p.end, tz)}`}
                {p.state === "planned" && ` · ${t("timeline.days", { count: p.phase.days })}`}
              </p>
              {current && status && (
                <p className="mt-1 text-sm 4xl:text-xl font-medium text-brand-800">
                  {status.progress.held ? t("timeline.onHold") : t("timeline.dayOf", { day: num(status.progress.day), days: num(status.progress.days) })}
                  {p.phase.confirm !== null && ` · ${t("timeline.waitsAtMost", { confirm: p.phase.confirm, count: status.progress.days })}`}
                </p>
              )}
              {!current && p.phase.confirm !== null && p.state === "planned" && <p className="mt-1 text-sm 4xl:text-xl text-gray-600">{t("timeline.waitsPlanned", { confirm: p.phase.confirm, count: p.phase.days })}</p>}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** Each state's word in the catalogue. */
const STATE_KEYS = { done: "done", current: "now", planned: "planned", "not-run": "notRun" } as const;
