import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../test-support.ts";
import { createPushNotifier, StaleTokenError, type PushSender } from "./push-sender.ts";

const note = { notification_id: 1, type: "mcu_offline", title: "Room A went offline", body: "Room A (Farm) stopped reporting.", read_status: false, createdAt: "" };

describe("push of alert notifications", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  function fakeSender(fail?: Error) {
    const sent: { token: string; title: string; body: string }[] = [];
    const sender: PushSender = {
      async send(token, m) {
        if (fail) throw fail;
        sent.push({ token, ...m });
      },
    };
    return { sender, sent };
  }

  it("sends a notification to the client's stored push token", async () => {
    const c = await server.signUp();
    await c.put(`/api/clients/${c.clientId}`, { fcm_token: "token-abc" });
    const { sender, sent } = fakeSender();
    await createPushNotifier(server.db, sender)(c.clientId, note);
    expect(sent).toEqual([{ token: "token-abc", title: "Room A went offline", body: "Room A (Farm) stopped reporting." }]);
  });

  it("sends nothing to a client without a token", async () => {
    const c = await server.signUp();
    const { sender, sent } = fakeSender();
    await createPushNotifier(server.db, sender)(c.clientId, note);
    expect(sent).toEqual([]);
  });

  it("forgets a token the messaging service no longer knows, and only logs other failures", async () => {
    const c = await server.signUp();
    await c.put(`/api/clients/${c.clientId}`, { fcm_token: "token-old" });
    await createPushNotifier(server.db, fakeSender(new Error("unavailable")).sender)(c.clientId, note);
    expect((await c.get("/api/clients/me")).json().fcm_token).toBe("token-old");
    await createPushNotifier(server.db, fakeSender(new StaleTokenError("gone")).sender)(c.clientId, note);
    expect((await c.get("/api/clients/me")).json().fcm_token).toBeNull();
  });
});
