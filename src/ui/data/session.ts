import { client as clientSchema, type Client } from "../../contract/entities.ts";
import { type } from "arktype";
import type { CoreHandle } from "./core-client.ts";
import type { AppStore } from "./store.ts";

/** SPEC §3: the signed-in client is kept in browser storage under this key (no secret in it). */
export const CLIENT_STORAGE_KEY = "client";

export interface Session {
  getClient(): Client | null;
  subscribe(fn: () => void): () => void;
  /** Saves the client, starts the core's realtime connection and fetches notifications (SPEC §4). */
  setClient(client: Client): void;
  /** Empties storage, resets notifications and stops the core (SPEC §4). */
  clearClient(): void;
}

export function createSession(core: CoreHandle, store: AppStore, storage: Storage = localStorage): Session {
  let current = restore();
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((fn) => fn());

  function restore(): Client | null {
    try {
      const raw = storage.getItem(CLIENT_STORAGE_KEY);
      if (!raw) return null;
      const parsed = clientSchema(JSON.parse(raw));
      return parsed instanceof type.errors ? null : parsed;
    } catch {
      return null;
    }
  }

  function begin(c: Client) {
    void core.start(c.client_id);
    core.loadNotifications().catch((err: unknown) => console.error("Failed to fetch notifications", err));
  }

  if (current) begin(current);

  return {
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
  };
}
