import { useCallback, useEffect, useRef, useState } from "react";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";

export type LoadState = { status: "loading" } | { status: "ready" } | { status: "error"; message: string };

/**
 * Loads the client's setting profiles when the screen opens (SPEC §8: a failure toasts "Failed to
 * load setting profiles"), with a retry for the LoadError.
 */
export function useProfilesLoad(): { state: LoadState; retry: () => void } {
  const { core } = useAppData();
  const [state, setState] = useState<LoadState>({ status: "loading" });
  // The latest request wins; an unmounted screen (or StrictMode's first mount) stays silent.
  const current = useRef(0);

  const load = useCallback(async () => {
    const request = ++current.current;
    setState({ status: "loading" });
    try {
      await core.loadProfiles();
      if (request === current.current) setState({ status: "ready" });
    } catch {
      if (request !== current.current) return;
      const message = "Failed to load setting profiles";
      notify.error(message, { toastId: "profiles-load" });
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
