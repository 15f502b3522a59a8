import { describe, expect, it } from "vitest";
import type { Client } from "../../contract/entities.ts";
import type { SessionEnded } from "../../contract/session-ended.ts";
import type { CoreHandle } from "./core-client.ts";
import { CLIENT_STORAGE_KEY, createSession } from "./session.ts";
import { createAppStore } from "./store.ts";
import { storedClient } from "./stored-client.ts";

const client = (id: number): Client => ({
  client_id: id,
  username: `farmer${id}`,
  email: `farmer${id}@example.com`,
  mobile: "",
  country: "LB",
  address: "",
  fcm_token: null,
  language: "en",
  digits: "latn",
  createdAt: "2026-11-23T10:00:00.000Z",
  updatedAt: "2026-11-23T10:00:00.000Z",
});

/** A Storage in memory (the unit project runs in Node). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, String(v)),
  };
}

/** A session over a fake core that records its calls; `reportEnd` plays the core's report. */
function createDeps({ stored }: { stored?: Client } = {}) {
  const calls: string[] = [];
  let report: ((e: SessionEnded) => void) | null = null;
  const core = new Proxy({} as CoreHandle, {
    get: (_t, name: string) => async (...args: unknown[]) => {
      calls.push(name);
      if (name === "onSessionEnded") report = args[0] as (e: SessionEnded) => void;
    },
  });
  const storage = memoryStorage();
  if (stored) storage.setItem(CLIENT_STORAGE_KEY, JSON.stringify(stored));
  const session = createSession(core, createAppStore(), storage);
  return { session, storage, calls, reportEnd: (e: SessionEnded) => report!(e) };
}

describe("the session when the server ends it", () => {
  it("clears the stored client and tells its listener once, however often the end is reported", () => {
    const { session, storage, calls, reportEnd } = createDeps({ stored: client(7) });
    let told = 0;
    session.onEnded(() => told++);
    reportEnd({ clientId: 7, cause: "api" });
    reportEnd({ clientId: 7, cause: "socket" });
    expect(session.getClient()).toBeNull();
    expect(storage.getItem(CLIENT_STORAGE_KEY)).toBeNull();
    expect(calls).toContain("stop");
    expect(told).toBe(1);
  });

  it("keeps an end reported before anyone listened for the first listener", () => {
    const { session, reportEnd } = createDeps({ stored: client(7) });
    reportEnd({ clientId: 7, cause: "socket" });
    let told = 0;
    session.onEnded(() => told++);
    session.onEnded(() => told++);
    expect(told).toBe(1);
  });

  it("ignores the end of a session that is no longer this page's (another client signed in since)", () => {
    const { session, reportEnd } = createDeps({ stored: client(7) });
    let told = 0;
    session.onEnded(() => told++);
    session.setClient(client(8));
    reportEnd({ clientId: 7, cause: "api" });
    expect(session.getClient()?.client_id).toBe(8);
    expect(told).toBe(0);
  });

  it("does not call a sign-out on this device an ended session", () => {
    const { session } = createDeps({ stored: client(7) });
    let told = 0;
    session.onEnded(() => told++);
    session.clearClient();
    expect(told).toBe(0);
  });

  it("listens to the core before it starts it, so no report can be missed", () => {
    const { calls } = createDeps({ stored: client(7) });
    expect(calls.indexOf("onSessionEnded")).toBeGreaterThanOrEqual(0);
    expect(calls.indexOf("onSessionEnded")).toBeLessThan(calls.indexOf("start"));
  });
});

describe("the stored client", () => {
  it("restores a stored client, and starts the core for it", () => {
    const { session, calls } = createDeps({ stored: client(7) });
    expect(session.getClient()).toEqual(client(7));
    expect(calls).toContain("start");
  });

  it("starts signed out from a stored value that is not a client", () => {
    const broken: unknown[] = [
      "not json",
      null,
      42,
      { ...client(7), client_id: "7" },
      { ...client(7), client_id: 7.5 },
      { ...client(7), email: undefined },
      { ...client(7), username: 3 },
      { ...client(7), fcm_token: 5 },
      { ...client(7), language: "de" },
      { ...client(7), digits: "roman" },
      (({ createdAt: _, ...rest }) => rest)(client(7)),
    ];
    for (const value of broken) {
      const storage = memoryStorage();
      storage.setItem(CLIENT_STORAGE_KEY, typeof value === "string" ? value : JSON.stringify(value));
      expect(storedClient(storage), JSON.stringify(value)).toBeNull();
    }
    const storage = memoryStorage();
    storage.setItem(CLIENT_STORAGE_KEY, JSON.stringify({ ...client(7), fcm_token: "token" }));
    expect(storedClient(storage)?.fcm_token).toBe("token");
  });

  it("keeps a client stored by a tab from before clients kept their language", () => {
    const storage = memoryStorage();
    const { language: _l, digits: _d, ...older } = client(7);
    storage.setItem(CLIENT_STORAGE_KEY, JSON.stringify(older));
    expect(storedClient(storage)).toEqual(older);
    storage.setItem(CLIENT_STORAGE_KEY, JSON.stringify({ ...client(7), language: "ar", digits: "arab" }));
    expect(storedClient(storage)).toMatchObject({ client_id: 7, language: "ar", digits: "arab" });
  });
});
