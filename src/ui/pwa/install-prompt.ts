import { useSyncExternalStore } from "react";

/** Chrome's install prompt event (not in TypeScript's DOM types). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

let deferred: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((fn) => fn());

/**
 * Listens for the browser's offer to install the app. Started once at start-up, before React,
 * because the event can fire before any screen mounts.
 */
export function listenForInstallPrompt(): void {
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
    notify();
  });
  window.addEventListener("appinstalled", () => {
    deferred = null;
    notify();
  });
}

/** Whether the browser offers installation now, and a way to accept the offer. */
export function useInstallPrompt(): { available: boolean; install(): Promise<void> } {
  const available = useSyncExternalStore(
    (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    () => deferred !== null,
  );
  return {
    available,
    async install() {
      const event = deferred;
      if (!event) return;
      await event.prompt();
      const { outcome } = await event.userChoice;
      // The offer can be used once; a dismissed one comes back as a new event later.
      if (outcome === "accepted" || deferred === event) {
        deferred = null;
        notify();
      }
    },
  };
}
