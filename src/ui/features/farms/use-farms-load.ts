import { useCallback, useEffect, useRef, useState } from "react";
import { messageOf, notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";

export type LoadState = { status: "loading" } | { status: "ready" } | { status: "error"; message: string };

/**
 * Loads the client's farms when the screen opens (SPEC §8: a failure is an info toast with the
 * server's message, else "Failed to fetch farms"), with a retry for the LoadError.
 */
export function useFarmsLoad(): { state: LoadState; retry: () => void } {
  const { core } = useAppData();
  const [state, setState] = useState<LoadState>({ status: "loading" });
  // The latest request wins; an unmounted screen (or StrictMode's first mount) stays silent.
  const current = useRef(0);

  const load = useCallback(async () => {
    const request = ++current.current;
    setState({ status: "loading" });
    try {
      await core.loadFarms();
      if (request === current.current) setState({ status: "ready" });
    } catch (err) {
      if (request !== current.current) return;
      const message = messageOf(err, "Failed to fetch farms");
      notify.info(message, { toastId: "farms-load" });
      setState({ status: "error", message });
    }
  }, [core]);

  useEffect(() => {
    void load();
    return () => {
      current.current++;
    };
  }, [load]);

  return { state, retry: () => void load() };
}
