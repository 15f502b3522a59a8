import { useCallback, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { PlusIcon } from "../../components/icons.tsx";
import { RefusalNote, useRefusalOnEveryFarm } from "../../components/refusal-note.tsx";
import { EmptyState, LoadError, Loading, SavedDataNotice } from "../../components/states.tsx";
import { useListLoad } from "../../components/use-list-load.ts";
import { useNow } from "../../components/use-now.ts";
import { useFarmsWhere } from "../../data/farm-roles.ts";
import { useCollection } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { useLocale } from "../../i18n/i18n.ts";
import { BatchCard } from "./batch-card.tsx";
import { harvestTotalKg } from "./batch-plan.ts";
import { batchPath } from "./batch-path.ts";
import { num } from "./whole-number.ts";
import { FarmCalendar } from "./farm-calendar.tsx";
import { StartBatchDialog } from "./start-batch-dialog.tsx";
import { formatDay, formatKg } from "./zone-dates.ts";

const BATCH_LISTS = ["batches"] as const;

/** Grow cycles under way and done: a card per running batch, the farm calendar, the ended batches. */
export default function BatchesPage() {
  const { t } = useTranslation("batches");
  useLocale();
  const { core } = useAppData();
  const batches = useCollection("batches");
  const mcus = useCollection("mcus");
  const recipes = useCollection("recipes");
  const { state, retry } = useListLoad({
    load: useCallback(() => core.loadBatches(), [core]),
    failure: { kind: "info", fallback: t("page.loadFailed") },
    toastId: "batches-load",
  });
  useListLoad({ load: useCallback(() => core.loadMcus(), [core]), failure: { kind: "info", fallback: t("page.mcusLoadFailed") }, toastId: "mcus-load" });
  useListLoad({ load: useCallback(() => core.loadRecipes(), [core]), failure: { kind: "info", fallback: t("page.recipesLoadFailed") }, toastId: "recipes-load" });
  const now = useNow();
  // A new number per opening: the form starts afresh each time.
  const [dialog, setDialog] = useState({ open: false, session: 0 });
  // Starting needs a farm where the role may manage batches; the form offers only those farms' MCUs.
  const startRefusal = useRefusalOnEveryFarm("manageBatches");
  const startReasonId = useId();
  const batchFarms = useFarmsWhere("manageBatches");
  const startableMcus = useMemo(() => (batchFarms === null ? mcus : mcus.filter((m) => batchFarms.has(m.farm_id))), [mcus, batchFarms]);

  const running = useMemo(() => batches.filter((b) => b.status === "running").sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at)), [batches]);
  const ended = useMemo(() => batches.filter((b) => b.status === "ended").sort((a, b) => Date.parse(b.ended_at ?? b.updatedAt) - Date.parse(a.ended_at ?? a.updatedAt)), [batches]);
  const mcuName = useMemo(() => new Map(mcus.map((m) => [m.mcu_id, m.name])), [mcus]);
  const namesOf = (ids: number[]) => ids.map((id) => mcuName.get(id) ?? t("mcuFallback", { id }));

  return (
    <section aria-labelledby="batches-heading" className="space-y-8 4xl:space-y-12">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="batches-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
          {t("page.running")}
        </h2>
        <button
          type="button"
          className="btn-primary min-h-11 4xl:text-xl 4xl:px-6 4xl:py-3"
          onClick={() => setDialog((d) => ({ open: true, session: d.session + 1 }))}
          disabled={startRefusal !== null}
          aria-describedby={startRefusal ? startReasonId : undefined}
        >
          <PlusIcon /> {t("page.start")}
        </button>
        <RefusalNote id={startReasonId} text={startRefusal} className="basis-full text-end" />
      </div>

      <div className="empty:hidden -mt-4">
        <SavedDataNotice lists={BATCH_LISTS} />
      </div>

      {state.status === "error" && batches.length === 0 ? (
        <LoadError text={state.message} onRetry={retry} />
      ) : state.status === "loading" && batches.length === 0 ? (
        <Loading text={t("page.loading")} />
      ) : (
        <>
          {running.length === 0 ? (
            <EmptyState title={t("page.noneRunning")}>
              <p>{t("page.noneRunningHelp")}</p>
            </EmptyState>
          ) : (
            <ul className="grid gap-4 4xl:gap-6 md:grid-cols-2 2xl:grid-cols-3 4xl:grid-cols-4" aria-label={t("page.running")}>
              {running.map((b) => (
                <li key={b.batch_id} className="flex">
                  <BatchCard batch={b} mcuNames={namesOf(b.mcu_ids)} now={now} />
                </li>
              ))}
            </ul>
          )}

          <section aria-labelledby="calendar-heading">
            <h2 id="calendar-heading" className="mb-3 text-lg 4xl:text-3xl font-semibold text-gray-900">
              {t("page.calendar")}
            </h2>
            <FarmCalendar batches={batches} mcus={mcus} now={now} />
          </section>

          {ended.length > 0 && (
            <section aria-labelledby="ended-heading">
              <details className="card group">
                <summary className="flex min-h-12 cursor-pointer items-center justify-between gap-3 px-5 py-3 4xl:px-7 4xl:py-5 list-none">
                  <h2 id="ended-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
                    {t("page.ended", { n: num(ended.length) })}
                  </h2>
                  <span aria-hidden="true" className="text-gray-500 transition-transform group-open:rotate-180">
                    ▾
                  </span>
                </summary>
                <ul className="divide-y divide-gray-100 border-t border-gray-100 text-sm 4xl:text-xl">
                  {ended.map((b) => (
                    <li key={b.batch_id}>
                      <Link to={batchPath(b.batch_id)} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-5 py-3 4xl:px-7 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-brand-600">
                        <span className="font-medium text-gray-900">{b.name}</span>
                        <span className="text-gray-600">
                          {b.recipe_name} · {formatDay(Date.parse(b.started_at), b.time_zone)} – {b.ended_at ? formatDay(Date.parse(b.ended_at), b.time_zone) : ""} · {formatKg(harvestTotalKg(b))}
                        </span>
                      </Link>
                    </li>
                  ))}
                </ul>
              </details>
            </section>
          )}
        </>
      )}

      <StartBatchDialog key={dialog.session} open={dialog.open} onClose={() => setDialog((d) => ({ ...d, open: false }))} recipes={recipes} mcus={startableMcus} running={running} />
    </section>
  );
}
