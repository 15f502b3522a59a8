import { useCallback, useEffect, useState } from "react";

/**
 * The screen as a kiosk: full screen on request (Fullscreen API) and kept awake while the wall is
 * shown (Screen Wake Lock), where the browser offers them.
 */

export function useFullscreen(): { available: boolean; active: boolean; toggle(): void } {
  const available = typeof document !== "undefined" && document.fullscreenEnabled === true;
  const [active, setActive] = useState(() => typeof document !== "undefined" && document.fullscreenElement !== null);
  useEffect(() => {
    const changed = () => setActive(document.fullscreenElement !== null);
    document.addEventListener("fullscreenchange", changed);
    return () => {
      document.removeEventListener("fullscreenchange", changed);
      // Leaving the wall leaves full screen too: the rest of the app is not made for it.
      if (document.fullscreenElement) document.exitFullscreen().catch(() => undefined);
    };
  }, []);
  const toggle = useCallback(() => {
    const done = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    done.catch((err: unknown) => console.warn("Full screen refused:", err));
  }, []);
  return { available, active, toggle };
}

/**
 * Keeps the screen from dimming or sleeping while the wall is shown. The browser drops the lock
 * when the page is hidden, so it is asked for again each time the page is visible again.
 */
export function useWakeLock(): void {
  useEffect(() => {
    if (!("wakeLock" in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let gone = false;
    const request = () => {
      if (document.visibilityState !== "visible") return;
      navigator.wakeLock
        .request("screen")
        .then((l) => {
          if (gone) void l.release();
          else lock = l;
        })
        .catch(() => undefined); // refused (battery saver, policy): the screen's own settings stand
    };
    request();
    document.addEventListener("visibilitychange", request);
    return () => {
      gone = true;
      document.removeEventListener("visibilitychange", request);
      void lock?.release();
    };
  }, []);
}
