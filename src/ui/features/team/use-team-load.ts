import { useCallback, useEffect, useRef, useState } from "react";
import { useRetryOnReconnect } from "../../components/use-list-load.ts";
import { failureText } from "../../components/server-refusal.ts";

export type TeamLoad<T> = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; value: T };

/**
 * Loads what a farm team screen shows and is not kept by the core (members, invitations, the rota):
 * when the screen opens, when `key` changes, on Try again, and when the connection comes back after
 * a failure. The latest request wins. `set` replaces the value after a change the screen made, so
 * the list follows without asking the server again.
 */
export function useTeamLoad<T>(load: () => Promise<T>, key: string) {
  const [state, setState] = useState<TeamLoad<T>>({ status: "loading" });
  const current = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const [attempt, setAttempt] = useState(0);
  const refreshing = useRef(false);

  useEffect(() => {
    const request = ++current.current;
    // A refresh keeps the list on screen while it asks; a first load or a retry shows that it loads.
    // Read now: the updater runs at the next render, after the flag is put down.
    const keep = refreshing.current;
    refreshing.current = false;
    setState((s) => (s.status === "ready" && keep ? s : { status: "loading" }));
    loadRef.current().then(
      (value) => {
        if (request === current.current) setState({ status: "ready", value });
      },
      (err: unknown) => {
        // The server's own words (a refusal says which right is missing), else what went wrong on the way.
        if (request === current.current) setState({ status: "error", message: failureText(err) });
      },
    );
    return () => {
      current.current++;
    };
  }, [key, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  useRetryOnReconnect(state.status === "error", retry);

  // Others change a team meanwhile (someone joins with a code): coming back to the page asks again.
  useEffect(() => {
    const again = () => {
      if (document.visibilityState !== "visible") return;
      refreshing.current = true;
      setAttempt((n) => n + 1);
    };
    window.addEventListener("focus", again);
    document.addEventListener("visibilitychange", again);
    return () => {
      window.removeEventListener("focus", again);
      document.removeEventListener("visibilitychange", again);
    };
  }, []);
  const set = useCallback((update: (value: T) => T) => setState((s) => (s.status === "ready" ? { status: "ready", value: update(s.value) } : s)), []);
  /** Asks again, keeping the list on screen meanwhile (something the list shows changed elsewhere). */
  const refresh = useCallback(() => {
    refreshing.current = true;
    setAttempt((n) => n + 1);
  }, []);
  return { state, retry, set, refresh };
}

const WIDE = "(min-width: 768px)";

/** Whether the screen is wide enough for a table (a laptop, a wall); a phone gets a stacked list. */
export function useWideScreen(): boolean {
  const [wide, setWide] = useState(() => typeof window === "undefined" || window.matchMedia(WIDE).matches);
  useEffect(() => {
    const query = window.matchMedia(WIDE);
    const changed = () => setWide(query.matches);
    query.addEventListener("change", changed);
    changed();
    return () => query.removeEventListener("change", changed);
  }, []);
  return wide;
}
