import type { Client } from "../../contract/entities.ts";
import type { CoreHandle } from "./core-client.ts";
import type { AppStore } from "./store.ts";

import { CLIENT_STORAGE_KEY, storedClient } from "./stored-client.ts";

export { CLIENT_STORAGE_KEY };

export interface Session {
  getClient(): Client | null;
  subscribe(fn: () => void): () => void;
  /** Saves the client, starts the core's realtime connection and fetches notifications (SPEC §4). */
  setClient(client: Client): void;
  /** Empties storage, resets notifications and stops the core (SPEC §4). */
  clearClient(): void;
  /**
   * Calls `fn` when the server ended the session (signed out or a password changed on another
   * device, expired) or another tab signed out: the client is cleared by then. An end that came
   * before anyone listened is handed to the first listener, so it is never lost.
   */
  onEnded(fn: () => void): () => void;
}

export function createSession(core: CoreHandle, store: AppStore, storage: Storage = localStorage): Session {
  let current = restore();
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((fn) => fn());
  const endListeners = new Set<() => void>();
  let undeliveredEnd = false;

  function restore(): Client | null {
    return storedClient(storage);
  }

  function begin(c: Client) {
    void core.start(c.client_id);
    core.loadNotifications().catch((err: unknown) => console.error("Failed to fetch notifications", err));
  }

  /** The session is over: forget the client once, and tell the app (which shows one notice). */
  function end() {
    if (!current) return;
    session.clearClient();
    if (endListeners.size === 0) undeliveredEnd = true;
    endListeners.forEach((fn) => fn());
  }

  // Registered before the core starts, so no report can come before it.
  void core.onSessionEnded((ended) => {
    if (current?.client_id === ended.clientId) end();
  });

  // Another tab of this browser shares the cookie: its sign-out ends this tab's session too, and
  // its sign-in (or profile update) is this tab's client from now on.
  if (typeof window !== "undefined") {
    window.addEventListener("storage", (event) => {
      if (event.storageArea !== storage || (event.key !== CLIENT_STORAGE_KEY && event.key !== null)) return;
      const next = restore();
      if (!next) return end();
      const restart = current?.client_id !== next.client_id;
      current = next;
      if (restart) begin(next);
      notify();
    });
  }

  if (current) begin(current);

  const session: Session = {
    getClient: () => current,
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    setClient(c) {
      storage.setItem(CLIENT_STORAGE_KEY, JSON.stringify(c));
      const restart = current?.client_id !== c.client_id;
      current = c;
      if (restart) begin(c);
      notify();
    },
    clearClient() {
      storage.removeItem(CLIENT_STORAGE_KEY);
      current = null;
      store.resetNotifications();
      void core.stop();
      notify();
    },
    onEnded(fn) {
      endListeners.add(fn);
      if (undeliveredEnd) {
        undeliveredEnd = false;
        fn();
      }
      return () => endListeners.delete(fn);
    },
  };
  return session;
}
