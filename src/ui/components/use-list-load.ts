import { useCallback, useEffect, useRef, useState } from "react";
import { useConnection } from "../data/hooks.ts";
import { messageOf, notify } from "./toasts.ts";

export type ListLoad = { status: "loading" } | { status: "ready" } | { status: "error"; message: string };

/**
 * SPEC §8 words a list's load failure in one of two ways: an info toast with the server's message
 * (or a fallback when it sent none), or an error toast with a fixed text.
 */
export type LoadFailureToast = { kind: "info"; fallback: string } | { kind: "error"; text: string };

export interface ListLoadOptions {
  /** The core's load; keep it stable (useCallback), since a new one starts a new load. */
  load: () => Promise<void>;
  failure: LoadFailureToast;
  /** Lets a failure that two screens can both hit show once. */
  toastId?: string;
  /**
   * The store already holds the list from an earlier visit: the screen keeps showing it while the
   * reload runs instead of flashing a spinner.
   */
  hasData?: boolean;
}

/**
 * Calls `retry` when the live connection comes back while `failed`: the server answers again, and
 * the screen loads what it could not without a click (the core is loading it already; the retry
 * joins that load). Only on the way back, so a server that keeps refusing is not asked in a loop.
 */
export function useRetryOnReconnect(failed: boolean, retry: () => void): void {
  const connected = useConnection().state === "connected";
  const wasConnected = useRef(connected);
  const latest = useRef({ failed, retry });
  latest.current = { failed, retry };
  useEffect(() => {
    const cameBack = connected && !wasConnected.current;
    wasConnected.current = connected;
    if (cameBack && latest.current.failed) latest.current.retry();
  }, [connected]);
}

/**
 * Runs one of the core's loads when the screen opens, again on retry, and again when the live
 * connection comes back after a failure. A failure shows SPEC §8's toast and becomes an error
 * state whose message the screen's LoadError shows beside its retry. A load the server could not
 * answer but the device had saved succeeds: the list shows, with its age (SavedDataNotice).
 */
export function useListLoad({ load, failure, toastId, hasData = false }: ListLoadOptions): { state: ListLoad; retry: () => void } {
  const [state, setState] = useState<Loading>(hasData ? { status: "ready" } : { status: "loading" });
  // The latest request wins; an unmounted screen (or StrictMode's first mount) stays silent.
  const current = useRef(0);
  // The failure's words are the screen's texts in the language of the moment: read when a load
  // fails (its toast) and as the screen renders (its LoadError), never a reason to load again (a
  // change of language would ask the server for every list on the screen).
  const words = useRef(failure);
  words.current = failure;

  const run = useCallback(async () => {
    const request = ++current.current;
    setState((s) => (s.status === "ready" ? s : { status: "loading" }));
    try {
      await load();
      if (request === current.current) setState({ status: "ready" });
    } catch (error) {
      if (request !== current.current) return;
      const f = words.current;
      notify[f.kind](failureMessage(f, error), { toastId });
      setState({ status: "error", error });
    }
  }, [load, toastId]);

  useEffect(() => {
    void run();
    return () => {
      current.current++;
    };
  }, [run]);

  useRetryOnReconnect(state.status === "error", () => void run());

  return { state: state.status === "error" ? { status: "error", message: failureMessage(failure, state.error) } : state, retry: () => void run() };
}

/** The load's state as kept: a failure keeps what went wrong, worded when shown. */
type Loading = Exclude<ListLoad, { status: "error" }> | { status: "error"; error: unknown };

const failureMessage = (f: LoadFailureToast, error: unknown) => (f.kind === "info" ? messageOf(error, f.fallback) : f.text);
