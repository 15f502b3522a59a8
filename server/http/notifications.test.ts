import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS } from "../../src/contract/api.ts";
import type { Notification } from "../../src/contract/entities.ts";
import { notificationsRepo } from "../db/notifications-repo.ts";
import { createTestServer, type TestClient, type TestServer } from "../test-support/test-server.ts";

/** PUT /notifications/{client_id}/read: the panel marks what it showed as read, on the server. */
describe("marking notifications read", () => {
  let server: TestServer;
  let c: TestClient;
  let other: TestClient;
  beforeAll(async () => {
    server = await createTestServer();
    c = await server.signUp();
    other = await server.signUp();
  });
  afterAll(() => server.close());

  async function note(client: TestClient, title: string): Promise<Notification> {
    return notificationsRepo(server.db).create(client.clientId, { type: "wash", title, body: "Clean room B" }, new Date(server.clock.now));
  }
  const readOf = async (client: TestClient) =>
    Object.fromEntries(((await client.get(API_PATHS.notifications(client.clientId))).json() as Notification[]).map((n) => [n.title, n.read_status]));

  it("marks the given notifications read, leaves the others unread, and answers how many it changed", async () => {
    const [a, b] = [await note(c, "Shown 1"), await note(c, "Shown 2")];
    await note(c, "Arrived meanwhile");
    const res = await c.put(API_PATHS.notificationsRead(c.clientId), { notification_ids: [a.notification_id, b.notification_id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ updated: 2 });
    expect(await readOf(c)).toEqual({ "Shown 1": true, "Shown 2": true, "Arrived meanwhile": false });

    // Again: nothing left to change.
    expect((await c.put(API_PATHS.notificationsRead(c.clientId), { notification_ids: [a.notification_id] })).json()).toEqual({ updated: 0 });
    expect((await c.put(API_PATHS.notificationsRead(c.clientId), { notification_ids: [] })).json()).toEqual({ updated: 0 });
  });

  it("does not touch another client's notifications named among the ids", async () => {
    const theirs = await note(other, "Theirs");
    const mine = await note(c, "Mine");
    const res = await c.put(API_PATHS.notificationsRead(c.clientId), { notification_ids: [theirs.notification_id, mine.notification_id] });
    expect(res.json()).toEqual({ updated: 1 });
    expect((await readOf(other)).Theirs).toBe(false);
    expect((await readOf(c)).Mine).toBe(true);
  });

  it("refuses another client's client_id with 403 and a bad body with 400", async () => {
    const theirs = await note(other, "Theirs too");
    const forbidden = await c.put(API_PATHS.notificationsRead(other.clientId), { notification_ids: [theirs.notification_id] });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe("FORBIDDEN");
    expect((await readOf(other))["Theirs too"]).toBe(false);

    const missing = await c.put(API_PATHS.notificationsRead(c.clientId), {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe("notification_ids is required");
    const tooMany = await c.put(API_PATHS.notificationsRead(c.clientId), { notification_ids: Array.from({ length: 501 }, (_, i) => i + 1) });
    expect(tooMany.statusCode).toBe(400);
  });

  it("refuses a request without a session", async () => {
    const res = await server.app.inject({
      method: "PUT",
      url: API_PATHS.notificationsRead(c.clientId),
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ notification_ids: [1] }),
    });
    expect(res.statusCode).toBe(401);
  });
});
