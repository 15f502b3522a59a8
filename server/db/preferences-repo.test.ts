import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences } from "../../src/contract/alarms-values.ts";
import { createTestServer, type TestClient, type TestServer } from "../test-support/test-server.ts";
import type { Sql } from "./database.ts";
import { createPreferencesCache, preferencesRepo } from "./preferences-repo.ts";

/** The preferences as the alarm engine reads them: from the database at most once per TTL, at once after this node stored new ones. */
describe("the preferences cache", () => {
  let server: TestServer;
  let c: TestClient;
  beforeAll(async () => {
    server = await createTestServer();
    c = await server.signUp();
  });
  afterAll(() => server.close());

  const quietNights: NotificationPreferences = { ...DEFAULT_NOTIFICATION_PREFERENCES, quiet_hours: { enabled: true, start: "22:00", end: "06:00", time_zone: "Europe/Paris" } };

  /** The test database, counting its queries, failing them while `failing`. */
  function counted() {
    const state = { queries: 0, failing: false };
    const sql: Sql = {
      query: (text, params) => {
        state.queries++;
        return state.failing ? Promise.reject(new Error("database unreachable")) : server.db.query(text, params);
      },
    };
    return { sql, state };
  }

  it("reads a client's preferences once per TTL, shares a read under way, and reads again after an invalidation", async () => {
    const { sql, state } = counted();
    let now = 0;
    const cache = createPreferencesCache(sql, { ttlMs: 30_000, now: () => now });
    const [x, y] = await Promise.all([cache.get(c.clientId), cache.get(c.clientId)]);
    expect(x).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
    expect(y).toBe(x);
    expect(state.queries).toBe(1);

    await preferencesRepo(server.db).put(c.clientId, quietNights, new Date());
    now = 29_999;
    expect(await cache.get(c.clientId)).toEqual(DEFAULT_NOTIFICATION_PREFERENCES); // another node's change: not yet
    now = 30_000;
    expect(await cache.get(c.clientId)).toEqual(quietNights);
    expect(state.queries).toBe(2);

    await preferencesRepo(server.db).put(c.clientId, DEFAULT_NOTIFICATION_PREFERENCES, new Date());
    cache.invalidate(c.clientId); // this node's change: at once
    expect(await cache.get(c.clientId)).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
    expect(state.queries).toBe(3);
  });

  it("does not keep a failed read", async () => {
    const { sql, state } = counted();
    const cache = createPreferencesCache(sql, { now: () => 0 });
    state.failing = true;
    await expect(cache.get(c.clientId)).rejects.toThrow("database unreachable");
    state.failing = false;
    expect(await cache.get(c.clientId)).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
    expect(state.queries).toBe(2);
  });
});
