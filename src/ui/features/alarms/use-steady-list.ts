import { useCallback, useEffect, useMemo, useState } from "react";

/** A live list as the reader sees it: what is shown, and what waits to be asked for. */
export interface SteadyList<T> {
  shown: readonly T[];
  waiting: readonly T[];
  /** Shows what waits. */
  showWaiting(): void;
}

/**
 * Splits a list (newest first) into what shows and what waits, given the ids the reader has seen:
 * an item not seen waits when a seen one comes after it (it would push that one away), unless it
 * is `keep`. `lastSeen` is the index of the last seen item, -1 for none.
 */
export function steadyView<T>(items: readonly T[], idOf: (item: T) => number, seen: ReadonlySet<number>, keep: number | null): { shown: T[]; waiting: T[]; lastSeen: number } {
  let lastSeen = -1;
  items.forEach((item, i) => {
    if (seen.has(idOf(item))) lastSeen = i;
  });
  const shown: T[] = [];
  const waiting: T[] = [];
  items.forEach((item, i) => {
    const id = idOf(item);
    (i < lastSeen && !seen.has(id) && id !== keep ? waiting : shown).push(item);
  });
  return { shown, waiting, lastSeen };
}

/**
 * Keeps the reader's place in a live list (newest first) that others change while it is read: an
 * item that arrives above one already shown would push the rest down, or across a grid's columns,
 * under a pointer about to tap Acknowledge, so it waits until asked for (`showWaiting`). One that
 * comes below the last shown (an older page, Load more) pushes nothing and shows at once, as do
 * changes to the items shown; an item that leaves, leaves.
 *
 * Everything shows until the list is known (`ready`), while nothing of it has been shown, while
 * the reader has not yet touched the page (`hold` false: a page left open to watch shows a new
 * alarm as it comes), and again when `reset` changes (other filters: a new list). `keep` shows
 * whatever (the alarm a link led to).
 */
export function useSteadyList<T>(items: readonly T[], idOf: (item: T) => number, { ready, reset, keep, hold }: { ready: boolean; reset: string; keep: number | null; hold: boolean }): SteadyList<T> {
  const [seen, setSeen] = useState<{ reset: string; ids: ReadonlySet<number> } | null>(null);
  const ids = seen !== null && seen.reset === reset && ready ? seen.ids : null;

  const { shown, waiting, lastSeen } = useMemo(() => steadyView(items, idOf, ids ?? new Set(), keep), [items, idOf, ids, keep]);

  // What the reader has seen, set as the screen renders (not after, or the first frame of a new
  // list would show nothing as waiting): the list when first known or after a reset, and all of it
  // while none of what was seen is left (nothing on screen to keep in place).
  if (!ready) {
    if (seen !== null) setSeen(null);
  } else if (ids === null || (lastSeen === -1 && items.length > 0) || (!hold && items.some((item) => !ids.has(idOf(item))))) {
    setSeen({ reset, ids: new Set(items.map(idOf)) });
  }

  const showWaiting = useCallback(() => setSeen((s) => (s === null ? s : { reset: s.reset, ids: new Set([...s.ids, ...items.map(idOf)]) })), [items, idOf]);
  return { shown: ids === null ? items : shown, waiting: ids === null ? [] : waiting, showWaiting };
}

/**
 * Whether the reader has done anything on the page since it opened (pointed, touched, scrolled,
 * typed): from then on they may be about to tap something, and a live list holds its new items
 * back (useSteadyList's `hold`).
 */
export function useReaderEngaged(): boolean {
  const [engaged, setEngaged] = useState(false);
  useEffect(() => {
    if (engaged) return;
    const events = ["pointerdown", "pointermove", "wheel", "keydown", "scroll"] as const;
    const engage = () => setEngaged(true);
    for (const e of events) window.addEventListener(e, engage, { passive: true, once: true });
    return () => {
      for (const e of events) window.removeEventListener(e, engage);
    };
  }, [engaged]);
  return engaged;
}
