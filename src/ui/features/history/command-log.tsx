import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CommandLogEntry } from "../../../contract/history.ts";
import { COMMAND_OUTCOMES, COMMAND_SOURCES, HISTORY_PATHS, STATE_TARGETS } from "../../../contract/history-values.ts";
import { FilterSelect } from "../../components/filter-select.tsx";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { useLocale } from "../../i18n/i18n.ts";
import { actorOf, describeCommand, OUTCOME_TONES, outcomeLabel, outcomeText, sourceLabel, switchReasonOf, type OutcomeTone } from "./command-labels.ts";
import { csvUrl } from "./csv-links.ts";
import { ExportLink } from "./export-link.tsx";
import { formatMoment, targetName } from "./history-words.ts";
import type { RangeChoice } from "./time-range.ts";
import { commandQuery, NO_COMMAND_FILTERS, useCommandLog, type CommandFilters } from "./use-command-log.ts";

const TONE_STYLES: Record<OutcomeTone, string> = {
  ok: "bg-green-50 text-green-800 ring-green-200",
  bad: "bg-red-50 text-red-800 ring-red-200",
  waiting: "bg-amber-50 text-amber-900 ring-amber-200",
  device: "bg-blue-50 text-blue-800 ring-blue-200",
};

function CommandRow({ entry }: { entry: CommandLogEntry }) {
  const { t } = useTranslation("history");
  useLocale();
  const reason = switchReasonOf(t, entry);
  return (
    <li className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:gap-4" data-outcome={entry.outcome} data-target={entry.target}>
      <time dateTime={entry.at} className="shrink-0 text-sm 4xl:text-xl text-gray-600 tabular-nums sm:w-44 4xl:w-80">
        {formatMoment(entry.at)}
      </time>
      <div className="min-w-0 flex-1">
        <p className="font-medium text-gray-900 4xl:text-2xl">{describeCommand(t, entry)}</p>
        <p className="text-sm 4xl:text-xl text-gray-600">{actorOf(t, entry)}</p>
        {reason && (
          <p className="text-sm 4xl:text-xl text-gray-800 break-words" data-reason={entry.why?.rule ?? entry.source}>
            {reason}
          </p>
        )}
      </div>
      <p className={`self-start sm:self-center inline-flex rounded-full px-2.5 py-0.5 text-xs 4xl:text-lg font-medium ring-1 ring-inset ${TONE_STYLES[OUTCOME_TONES[entry.outcome]]}`}>
        {outcomeText(t, entry)}
      </p>
    </li>
  );
}

/** The command log of an MCU over the range: filters, the entries newest first, a page at a time, and its CSV. */
export function CommandLog({ mcuId, choice, rangeKey }: { mcuId: number; choice: RangeChoice; rangeKey: string }) {
  const { t } = useTranslation("history");
  const options = useMemo(
    () => ({
      sources: COMMAND_SOURCES.map((s) => ({ value: s, label: sourceLabel(t, s) })),
      outcomes: COMMAND_OUTCOMES.map((o) => ({ value: o, label: outcomeLabel(t, o) })),
      targets: STATE_TARGETS.map((target) => ({ value: target, label: targetName(t, target) })),
    }),
    [t],
  );
  const [filters, setFilters] = useState<CommandFilters>(NO_COMMAND_FILTERS);
  const { state, retry, refresh, loadMore, moreState } = useCommandLog(mcuId, choice, rangeKey, filters);
  const filtered = filters.source !== "" || filters.outcome !== "" || filters.target !== "";
  const set = <K extends keyof CommandFilters>(name: K, value: CommandFilters[K]) => setFilters((f) => ({ ...f, [name]: value }));

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col sm:flex-row sm:flex-wrap sm:items-end gap-3">
        <div className="grid grid-cols-1 sm:grid-cols-3 gap-3 w-full sm:w-auto sm:flex-1 sm:min-w-[28rem]">
          <FilterSelect label={t("commands.source")} allLabel={t("commands.allSources")} value={filters.source} options={options.sources} onChange={(v) => set("source", v)} />
          <FilterSelect label={t("commands.outcome")} allLabel={t("commands.allOutcomes")} value={filters.outcome} options={options.outcomes} onChange={(v) => set("outcome", v)} />
          <FilterSelect label={t("commands.controller")} allLabel={t("commands.allControllers")} value={filters.target} options={options.targets} onChange={(v) => set("target", v)} />
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-secondary 4xl:text-xl 4xl:px-6 4xl:py-3" onClick={refresh}>
            {t("commands.refresh")}
          </button>
          <ExportLink name={t("commands.export")} href={() => csvUrl(HISTORY_PATHS.commandsCsv(mcuId), commandQuery(choice, filters, Date.now()))} />
        </div>
      </div>

      {state.status === "loading" ? (
        <Loading text={t("commands.loading")} />
      ) : state.status === "error" ? (
        <LoadError text={t("commands.failed", { reason: state.message })} onRetry={retry} />
      ) : state.value.entries.length === 0 ? (
        <EmptyState title={filtered ? t("commands.noneFiltered") : t("commands.none")}>
          <p>{filtered ? t("commands.noneFilteredText") : t("commands.noneText")}</p>
        </EmptyState>
      ) : (
        <div className="card px-4 4xl:px-6">
          <ol className="divide-y divide-gray-100" aria-label={t("commands.list")}>
            {state.value.entries.map((e) => (
              <CommandRow key={e.command_id} entry={e} />
            ))}
          </ol>
          {state.value.next !== null && (
            <div className="py-3 flex flex-col items-center gap-2 border-t border-gray-100">
              <button type="button" className="btn-secondary 4xl:text-xl" onClick={() => void loadMore()} disabled={moreState.loading}>
                {moreState.loading ? t("commands.loadingMore") : t("commands.loadMore")}
              </button>
              {moreState.error && (
                <p role="alert" className="text-sm text-red-800">
                  {t("commands.moreFailed", { reason: moreState.error })}
                </p>
              )}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
