import { useCallback, useEffect, useRef, useState } from "react";
import type { CommandLogEntry, CommandOutcome, StateTarget } from "../../../contract/history.ts";
import { useAppData } from "../../data/provider.tsx";
import { resolveRange, type RangeChoice } from "./time-range.ts";
import { useLoad, type Load } from "./use-load.ts";
import { failureText } from "../../components/server-refusal.ts";

/** The command log's filters; "" is "all". */
export interface CommandFilters {
  source: "" | "user" | "automation";
  outcome: "" | CommandOutcome;
  target: "" | StateTarget;
}
export const NO_COMMAND_FILTERS: CommandFilters = { source: "", outcome: "", target: "" };

/** Entries per page: about a screen of them. */
export const COMMAND_PAGE = 25;

const iso = (ms: number) => new Date(ms).toISOString();

/** The request's filters and range: a preset asks up to now (no end), so a refresh shows the newest. */
export function commandQuery(choice: RangeChoice, filters: CommandFilters, now: number) {
  const range = resolveRange(choice, now);
  return {
    from: iso(range.from),
    to: range.live ? undefined : iso(range.to),
    source: filters.source || undefined,
    outcome: filters.outcome || undefined,
    target: filters.target || undefined,
  };
}

export interface CommandPages {
  entries: CommandLogEntry[];
  next: string | null;
}

/**
 * The MCU's command log in the range, newest first, a page at a time: the first page loads with
 * the range and filters (and again on refresh), "Load more" appends the next.
 */
export function useCommandLog(mcuId: number, choice: RangeChoice, rangeKey: string, filters: CommandFilters) {
  const { core } = useAppData();
  const [refreshes, setRefreshes] = useState(0);
  const key = `${mcuId}|${rangeKey}|${filters.source}|${filters.outcome}|${filters.target}|${refreshes}`;
  const query = useRef(commandQuery(choice, filters, Date.now()));
  const { state: first, retry } = useLoad(async () => {
    query.current = commandQuery(choice, filters, Date.now());
    const page = await core.commandLog(mcuId, { ...query.current, limit: COMMAND_PAGE });
    return { entries: page.entries, next: page.next_before };
  }, key);

  const [more, setMore] = useState<{ key: string; pages: CommandPages } | null>(null);
  const [moreState, setMoreState] = useState<{ loading: boolean; error: string | null }>({ loading: false, error: null });
  useEffect(() => setMoreState({ loading: false, error: null }), [key]);

  const shown: Load<CommandPages> =
    first.status !== "ready" ? first : { status: "ready", value: more && more.key === key ? more.pages : first.value };

  const loadMore = useCallback(async () => {
    if (shown.status !== "ready" || shown.value.next === null) return;
    const before = shown.value.next;
    const sofar = shown.value.entries;
    setMoreState({ loading: true, error: null });
    try {
      const page = await core.commandLog(mcuId, { ...query.current, limit: COMMAND_PAGE, before });
      setMore({ key, pages: { entries: [...sofar, ...page.entries], next: page.next_before } });
      setMoreState({ loading: false, error: null });
    } catch (err) {
      setMoreState({ loading: false, error: failureText(err) });
    }
  }, [core, mcuId, key, shown]);

  return { state: shown, retry, refresh: useCallback(() => setRefreshes((n) => n + 1), []), loadMore, moreState };
}
