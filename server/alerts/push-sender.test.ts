import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../test-support/test-server.ts";
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences } from "../../src/contract/alarms-values.ts";
import { createPushNotifier, inQuietHours, mayPush, StaleTokenError, type PushSender } from "./push-sender.ts";

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
      fcm: {
        async send(token, m) {
          if (fail) throw fail;
          sent.push({ token, title: m.title, body: m.body });
        },
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

describe("quiet hours and the push switch", () => {
  const quiet = (start: string, end: string, time_zone = "UTC", enabled = true): NotificationPreferences["quiet_hours"] => ({ enabled, start, end, time_zone });
  const at = (iso: string) => new Date(iso);

  it("is quiet from start (included) to end (excluded) on the same day", () => {
    const q = quiet("13:00", "15:30");
    expect(inQuietHours(q, at("2026-06-01T12:59:59Z"))).toBe(false);
    expect(inQuietHours(q, at("2026-06-01T13:00:00Z"))).toBe(true);
    expect(inQuietHours(q, at("2026-06-01T15:29:59Z"))).toBe(true);
    expect(inQuietHours(q, at("2026-06-01T15:30:00Z"))).toBe(false);
  });

  it("runs across midnight when the end is not after the start, and all day when they are equal", () => {
    const q = quiet("22:00", "06:00");
    expect(inQuietHours(q, at("2026-06-01T21:59:00Z"))).toBe(false);
    expect(inQuietHours(q, at("2026-06-01T22:00:00Z"))).toBe(true);
    expect(inQuietHours(q, at("2026-06-02T00:00:00Z"))).toBe(true);
    expect(inQuietHours(q, at("2026-06-02T05:59:00Z"))).toBe(true);
    expect(inQuietHours(q, at("2026-06-02T06:00:00Z"))).toBe(false);
    expect(inQuietHours(quiet("08:00", "08:00"), at("2026-06-02T17:00:00Z"))).toBe(true);
  });

  it("reads the clock of the client's time zone, summer time included", () => {
    const q = quiet("22:00", "06:00", "Asia/Beirut");
    // Beirut is UTC+3 in summer, UTC+2 in winter.
    expect(inQuietHours(q, at("2026-06-01T19:30:00Z"))).toBe(true); // 22:30 there
    expect(inQuietHours(q, at("2026-01-15T19:30:00Z"))).toBe(false); // 21:30 there
    expect(inQuietHours(q, at("2026-01-15T03:59:00Z"))).toBe(true); // 05:59 there
    expect(inQuietHours(q, at("2026-01-15T04:00:00Z"))).toBe(false); // 06:00 there
  });

  it("is never quiet when quiet hours are off, and pushes only with the emergency switch on", () => {
    const night = at("2026-06-01T23:00:00Z");
    expect(inQuietHours(quiet("22:00", "06:00", "UTC", false), night)).toBe(false);
    const d = DEFAULT_NOTIFICATION_PREFERENCES;
    expect(mayPush(d, night)).toBe(true);
    expect(mayPush({ ...d, quiet_hours: quiet("22:00", "06:00") }, night)).toBe(false);
    expect(mayPush({ ...d, push: { emergency: false } }, at("2026-06-01T12:00:00Z"))).toBe(false);
  });
});
