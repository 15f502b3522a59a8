import { useCallback, useEffect, useState } from "react";

/** After the last pointer movement or key press, the pages wait this long before they turn again. */
export const WALL_INTERACTION_HOLD_MS = 30_000;

/** The rotation intervals offered (seconds; 0 is off), and the one a wall starts with. */
export const ROTATE_CHOICES = [0, 10, 20, 30, 60, 120, 300] as const;
export const DEFAULT_ROTATE_SEC = 20;
const MAX_ROTATE_SEC = 3600;

/** The `?rotate=` of a wall's address: whole seconds from 5 to an hour, 0 for off; anything else is the default. */
export function parseRotate(raw: string | null): number {
  if (raw === null || !/^\d+$/.test(raw)) return DEFAULT_ROTATE_SEC;
  const sec = Number(raw);
  return sec === 0 || (sec >= 5 && sec <= MAX_ROTATE_SEC) ? sec : DEFAULT_ROTATE_SEC;
}

export interface Rotation {
  /** The page asked for (from 0). */
  page: number;
  next(): void;
  previous(): void;
  /** Paused by the Pause button, until Resume. */
  pinned: boolean;
  setPinned(pinned: boolean): void;
  /** Someone is using the screen: a pointer moved or a key was pressed within the hold time. */
  inUse: boolean;
  /** The pages would turn but wait (pinned, or in use). */
  paused: boolean;
}

/**
 * The wall's pages turn by themselves every `intervalSec` (0: never) while there is more than one,
 * and stop while someone uses the screen: a pointer that moves over it (hover) or a key pressed
 * holds them until 30 s without either, or the pointer leaving the window; the Pause button holds
 * them until Resume. One timer at a time, whatever the number of pages.
 */
export function useRotation(pages: number, intervalSec: number): Rotation {
  const [page, setPage] = useState(0);
  const [pinned, setPinned] = useState(false);
  const [inUse, setInUse] = useState(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const use = () => {
      setInUse(true);
      clearTimeout(timer);
      timer = setTimeout(() => setInUse(false), WALL_INTERACTION_HOLD_MS);
    };
    // The pointer went out of the window: nobody is hovering any more.
    const outOfWindow = (e: MouseEvent) => {
      if (e.relatedTarget !== null) return;
      clearTimeout(timer);
      setInUse(false);
    };
    const events = ["pointermove", "pointerdown", "keydown", "wheel"] as const;
    for (const e of events) window.addEventListener(e, use, { passive: true });
    document.documentElement.addEventListener("mouseleave", outOfWindow);
    return () => {
      clearTimeout(timer);
      for (const e of events) window.removeEventListener(e, use);
      document.documentElement.removeEventListener("mouseleave", outOfWindow);
    };
  }, []);

  const last = Math.max(0, pages - 1);
  const shown = Math.min(page, last);
  const paused = pinned || inUse;
  useEffect(() => {
    if (pages <= 1 || intervalSec <= 0 || paused) return;
    const timer = setTimeout(() => setPage((p) => (Math.min(p, pages - 1) + 1) % pages), intervalSec * 1000);
    return () => clearTimeout(timer);
  }, [shown, pages, intervalSec, paused]);

  const next = useCallback(() => setPage((p) => (pages > 0 ? (Math.min(p, pages - 1) + 1) % pages : 0)), [pages]);
  const previous = useCallback(() => setPage((p) => (pages > 0 ? (Math.min(p, pages - 1) - 1 + pages) % pages : 0)), [pages]);

  return { page: shown, next, previous, pinned, setPinned, inUse, paused };
}
