import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Alarm } from "../../../contract/alarms-values.ts";
import { useRecentlyResolvedAlarms } from "../../data/active-alarms.ts";
import { useAppData } from "../../data/provider.tsx";
import { filterQuery, filtersFrom, filtersToParams, matchesFilters, type AlarmFilters } from "./alarm-filters.ts";
import { failureText } from "../../components/server-refusal.ts";

/** Resolved alarms per page: a few screens of them. */
export const RECENT_PAGE = 50;

export type RecentLoad = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; alarms: readonly Alarm[]; next: string | null };

/**
 * The resolved alarms the filters show, newest first: the first page loads with the filters,
 * "Load more" appends the next (by the server's cursor), and an alarm resolved while the page is
 * open comes first at once (the core hears it; no reload).
 */
export function useRecentAlarms(filters: AlarmFilters) {
  const { core } = useAppData();
  // The filters as text: a new object with the same filters is no new load.
  const key = filtersToParams(filters).toString();
  const { query, matches } = useMemo(() => {
    const f = filtersFrom(new URLSearchParams(key));
    return { query: { state: "resolved" as const, ...filterQuery(f), limit: RECENT_PAGE }, matches: (a: Alarm) => matchesFilters(a, f) };
  }, [key]);
  const [attempt, setAttempt] = useState(0);
  const [load, setLoad] = useState<RecentLoad>({ status: "loading" });
  const [more, setMore] = useState<{ loading: boolean; error: string | null }>({ loading: false, error: null });
  // The latest request wins: pages of filters the farmer has since changed are dropped.
  const request = useRef(0);

  useEffect(() => {
    const asOf = ++request.current;
    setLoad({ status: "loading" });
    setMore({ loading: false, error: null });
    core.alarms(query).then(
      (page) => {
        if (asOf === request.current) setLoad({ status: "ready", alarms: page.alarms, next: page.next });
      },
      (err: unknown) => {
        if (asOf === request.current) setLoad({ status: "error", message: failureText(err) });
      },
    );
    return () => {
      request.current++;
    };
  }, [core, query, attempt]);

  const loadMore = useCallback(async () => {
    if (load.status !== "ready" || load.next === null) return;
    const asOf = request.current;
    setMore({ loading: true, error: null });
    try {
      const page = await core.alarms({ ...query, cursor: load.next });
      if (asOf !== request.current) return;
      const held = new Set(load.alarms.map((a) => a.alarm_id));
      setLoad({ status: "ready", alarms: [...load.alarms, ...page.alarms.filter((a) => !held.has(a.alarm_id))], next: page.next });
      setMore({ loading: false, error: null });
    } catch (err) {
      if (asOf === request.current) setMore({ loading: false, error: failureText(err) });
    }
  }, [core, query, load]);

  const resolvedMeanwhile = useRecentlyResolvedAlarms();
  const shown = useMemo((): RecentLoad => {
    if (load.status !== "ready") return load;
    const fetched = new Set(load.alarms.map((a) => a.alarm_id));
    const fresh = resolvedMeanwhile.filter((a) => !fetched.has(a.alarm_id) && matches(a));
    return fresh.length === 0 ? load : { ...load, alarms: [...fresh, ...load.alarms] };
  }, [load, resolvedMeanwhile, matches]);

  return { state: shown, retry: useCallback(() => setAttempt((n) => n + 1), []), loadMore, more };
}
