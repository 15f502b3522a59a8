import { useCallback, useEffect, useRef, useState } from "react";
import { messageOf, notify } from "../../components/toasts.ts";

export type ListLoad = { status: "loading" } | { status: "ready" } | { status: "error"; message: string };

/**
 * Runs one of the core's loads on mount and on retry. A failure shows SPEC §8's info toast (the
 * server's message, else `fallback`) and becomes an error state the page can offer a retry for.
 * `hasData` says the store already holds the list from an earlier visit: then the page keeps
 * showing it while the reload runs instead of flashing a spinner.
 */
export function useListLoad(load: () => Promise<void>, fallback: string, hasData: boolean): ListLoad & { retry: () => void } {
  const [state, setState] = useState<ListLoad>(hasData ? { status: "ready" } : { status: "loading" });
  const mounted = useRef(true);

  const run = useCallback(async () => {
    setState((s) => (s.status === "ready" ? s : { status: "loading" }));
    try {
      await load();
      if (mounted.current) setState({ status: "ready" });
    } catch (err) {
      const message = messageOf(err, fallback);
      notify.info(message);
      if (mounted.current) setState({ status: "error", message });
    }
  }, [load, fallback]);

  useEffect(() => {
    mounted.current = true;
    void run();
    return () => {
      mounted.current = false;
    };
  }, [run]);

  return { ...state, retry: () => void run() };
}
