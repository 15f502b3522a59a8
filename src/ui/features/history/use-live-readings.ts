import { useEffect, useRef } from "react";
import type { LiveReading } from "../../../contract/entities.ts";
import { useAppData } from "../../data/provider.tsx";
import { keys } from "../../data/store.ts";

const NONE: readonly string[] = [];

/**
 * Calls `onReading` once for each new reading of the MCUs `macs` (by the time the server stamped
 * on it), with that time in ms, while `enabled`. It subscribes like a dashboard card does, so the
 * core sends these MCUs' snapshots while the page is open: the charts grow from the stream the
 * app already receives, without asking the server again. The snapshot held when it starts counts
 * as a reading too; the caller drops what its history already holds.
 */
export function useLiveReadingsOf(macs: readonly string[], enabled: boolean, onReading: (mac: string, reading: LiveReading, at: number) => void): void {
  const { store } = useAppData();
  const callback = useRef(onReading);
  callback.current = onReading;
  const key = enabled ? macs.join(" ") : "";

  useEffect(() => {
    if (!key) return;
    const unsubscribes = key.split(" ").map((mac) => {
      let last: string | undefined;
      const check = () => {
        const reading = store.getLive(mac)?.readings;
        const stamp = reading?.lastUpdated;
        if (!reading || !stamp || stamp === last) return;
        last = stamp;
        const at = Date.parse(stamp);
        if (Number.isFinite(at)) callback.current(mac, reading, at);
      };
      const unsubscribe = store.subscribe(keys.live(mac), check);
      check();
      return unsubscribe;
    });
    return () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    };
  }, [store, key]);
}

/** `useLiveReadingsOf` for one MCU. */
export function useLiveReadings(mac: string | undefined, enabled: boolean, onReading: (reading: LiveReading, at: number) => void): void {
  const macs = useRef<{ mac: string | undefined; list: readonly string[] }>({ mac: undefined, list: NONE });
  if (macs.current.mac !== mac) macs.current = { mac, list: mac ? [mac] : NONE };
  useLiveReadingsOf(macs.current.list, enabled, (_mac, reading, at) => onReading(reading, at));
}
