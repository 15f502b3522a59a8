import { useEffect, useLayoutEffect, useRef } from "react";
import { useLocation, useNavigationType, type NavigationType } from "react-router-dom";

/** Where each history entry was scrolled to (by location key), kept over a reload of the tab. */
const STORAGE_KEY = "scroll-positions";
/** Enough entries for any Back a person makes; older ones are dropped. */
const KEPT_POSITIONS = 100;
/** How long a restored position is held at most while the page shown by Back loads and grows. */
const RESTORE_HOLD_MS = 3000;
/** The hold ends once the position has been where it belongs this long without a correction. */
const RESTORE_SETTLED_MS = 500;

function readStored(): Map<string, number> {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "[]") as unknown;
    return new Map(Array.isArray(stored) ? (stored as [string, number][]) : []);
  } catch {
    return new Map();
  }
}

function store(positions: Map<string, number>) {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...positions].slice(-KEPT_POSITIONS)));
  } catch {
    // Storage full or refused: Back then opens at the top, as a new page would.
  }
}

/**
 * Holds the window at `y` while the page shown by Back loads its data again and grows over a few
 * frames: scrolls there once the page is tall enough, and back there when something else moves
 * it meanwhile (a window virtualizer starts from the offset it read while the previous page was
 * on screen, and keeps its cards in place as they measure). It ends once the position has held
 * for RESTORE_SETTLED_MS, after RESTORE_HOLD_MS at most, and at once when the person scrolls, taps
 * or types. Returns the cancel.
 */
function holdScrollAt(y: number): () => void {
  let settled = 0;
  const waitForCalm = () => {
    window.clearTimeout(settled);
    settled = window.setTimeout(() => {
      if (Math.abs(window.scrollY - y) <= 1) stop();
    }, RESTORE_SETTLED_MS);
  };
  const correct = () => {
    if (Math.abs(window.scrollY - y) > 1) window.scrollTo(0, y);
    waitForCalm();
  };
  const observer = new ResizeObserver(correct);
  const inputs = ["wheel", "touchstart", "keydown", "pointerdown"] as const;
  const timer = window.setTimeout(() => stop(), RESTORE_HOLD_MS);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    window.clearTimeout(settled);
    window.removeEventListener("scroll", correct);
    for (const type of inputs) window.removeEventListener(type, stop, true);
  }
  for (const type of inputs) window.addEventListener(type, stop, { capture: true, passive: true });
  window.addEventListener("scroll", correct, { passive: true });
  observer.observe(document.body);
  correct();
  return stop;
}

/**
 * Whether a navigation shows its page from the top: a link followed (a push) unless it leads to
 * an anchor; a replaced address when it names another page, or names the very page shown (a link
 * to the current page, such as its sidebar entry, replaces rather than pushes), but not when only
 * its query changed (filters kept in the address replace it).
 */
function opensAtTop(type: NavigationType, to: { pathname: string; search: string; hash: string }, from: { path: string; search: string }): boolean {
  if (to.hash !== "") return false;
  if (type === "PUSH") return true;
  return to.pathname !== from.path || to.search === from.search;
}

/**
 * Scroll positions across navigation, for the window (the app's one scrolling element: the
 * layout's sidebar is sticky and its main column grows with the page). A followed link opens its
 * page at the top (`opensAtTop`); Back and Forward return where the person was on that entry; a
 * page that keeps its filters in the address keeps its scroll as they change. A reload starts at
 * the top, as the app's first load does. React Router's
 * ScrollRestoration does this only under a data router; the app uses BrowserRouter.
 *
 * Render it before the routes, as their elder sibling. A new page's top is set while rendering,
 * before the page renders: a window virtualizer (the MCU lists) reads the window's offset as it
 * is created, and with the previous page's offset it would scroll the new page back down to it.
 */
export function ScrollRestoration(): null {
  const location = useLocation();
  const navigationType = useNavigationType();
  const memory = useRef<{ positions: Map<string, number>; key: string | null; path: string | null; search: string }>(null);
  memory.current ??= { positions: readStored(), key: null, path: null, search: "" };
  const seen = memory.current;
  const toRestore = useRef<number | null>(null);

  // Once per location, at its first render (a render for the same location again does nothing).
  if (seen.key !== location.key) {
    // The entry being left is still on screen: its position now is where Back must return.
    if (seen.key !== null) seen.positions.set(seen.key, window.scrollY);
    const previous = { path: seen.path, search: seen.search };
    seen.key = location.key;
    seen.path = location.pathname;
    seen.search = location.search;
    // The app's first location (a reload too) is left as the browser shows it.
    if (previous.path !== null && navigationType === "POP") {
      toRestore.current = seen.positions.get(location.key) ?? null;
    } else if (previous.path !== null && opensAtTop(navigationType, location, { path: previous.path, search: previous.search })) {
      window.scrollTo(0, 0);
    }
  }

  useLayoutEffect(() => {
    const y = toRestore.current;
    toRestore.current = null;
    return y === null ? undefined : holdScrollAt(y);
  }, [location.key]);

  useEffect(() => {
    // The browser's own restoration would jump before the page it restores has rendered.
    const before = history.scrollRestoration;
    history.scrollRestoration = "manual";
    const record = () => {
      if (seen.key !== null) seen.positions.set(seen.key, window.scrollY);
    };
    const persist = () => store(seen.positions);
    window.addEventListener("scroll", record, { passive: true });
    window.addEventListener("pagehide", persist);
    return () => {
      history.scrollRestoration = before;
      window.removeEventListener("scroll", record);
      window.removeEventListener("pagehide", persist);
      persist();
    };
  }, [seen]);

  return null;
}
