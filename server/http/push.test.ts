import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUSH_PATHS } from "../../src/contract/push.ts";
import { SUBSCRIPTIONS_PER_CLIENT } from "../db/web-push-repo.ts";
import { browserSubscription } from "../test-support/fake-push-service.ts";
import { cookieOf, createTestServer, type TestClient, type TestServer } from "../test-support/test-server.ts";
import { isKnownPushService } from "./routes/push.ts";

describe("push subscriptions", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server?.close());

  const put = (c: TestClient, body: unknown) =>
    server.app.inject({ method: "PUT", url: PUSH_PATHS.subscription, headers: { cookie: c.cookie, "content-type": "application/json" }, payload: JSON.stringify(body) });
  const endpointsOf = async (clientId: number) =>
    (await server.db.query<{ endpoint: string }>("select endpoint from push_subscriptions where client_id = $1 order by endpoint", [clientId])).map((r) => r.endpoint);

  it("takes endpoints of the browsers' push services only: the server would POST to any other at every alarm", async () => {
    const c = await server.signUp();
    for (const endpoint of ["https://fcm.googleapis.com/fcm/send/abc:def", "https://updates.push.services.mozilla.com/wpush/v2/gAAA", "https://web.push.apple.com/QGx", "https://wns2-par02p.notify.windows.com/w/?token=x"]) {
      expect((await put(c, browserSubscription(endpoint).json)).statusCode, endpoint).toBe(204);
    }
    for (const endpoint of ["http://127.0.0.1:8080/push", "http://fcm.googleapis.com/fcm/send/x", "https://fcm.googleapis.com:8443/fcm/send/x", "https://metadata.google.internal/x", "https://evil.push.apple.com.example.net/x"]) {
      const res = await put(c, browserSubscription(endpoint).json);
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json().message).toBe("endpoint is not a push service this server sends to");
    }
    expect(await endpointsOf(c.clientId)).toHaveLength(4);
  });

  it("refuses keys it could not encrypt for, with the field named", async () => {
    const c = await server.signUp();
    const good = browserSubscription("https://fcm.googleapis.com/fcm/send/keys").json;
    const short = await put(c, { ...good, keys: { ...good.keys, p256dh: "BAAA" } });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe("keys.p256dh must be a P-256 public key (base64url)");
    const missing = await put(c, { endpoint: good.endpoint, keys: { p256dh: good.keys.p256dh } });
    expect(missing.json().message).toBe("keys.auth is required");
    expect(await endpointsOf(c.clientId)).toEqual([]);
  });

  it("gives an endpoint to whoever subscribed it last, and keeps a client's newest subscriptions only", async () => {
    const first = await server.signUp();
    const second = await server.signUp();
    const shared = "https://fcm.googleapis.com/fcm/send/shared-phone";
    await put(first, browserSubscription(shared).json);
    await put(second, browserSubscription(shared).json);
    expect(await endpointsOf(first.clientId)).toEqual([]);
    expect(await endpointsOf(second.clientId)).toEqual([shared]);

    for (let i = 0; i < SUBSCRIPTIONS_PER_CLIENT + 2; i++) {
      server.clock.advance(1000);
      await put(first, browserSubscription(`https://fcm.googleapis.com/fcm/send/n${String(i).padStart(2, "0")}`).json);
    }
    const kept = await endpointsOf(first.clientId);
    expect(kept).toHaveLength(SUBSCRIPTIONS_PER_CLIENT);
    expect(kept[0]).toBe("https://fcm.googleapis.com/fcm/send/n02");
  });

  it("forgets at sign-out the subscriptions stored in that session, and no other: a shared phone stops ringing for whoever signed out", async () => {
    const c = await server.signUp();
    const phone = "https://fcm.googleapis.com/fcm/send/shared-phone-signed-out";
    const laptop = "https://fcm.googleapis.com/fcm/send/laptop-still-signed-in";
    const onLaptop = cookieOf(await server.app.inject({ method: "POST", url: "/api/clients/login", payload: { username: c.registration.username, password: c.registration.password } }));
    expect((await put(c, browserSubscription(phone).json)).statusCode).toBe(204);
    expect((await put({ ...c, cookie: onLaptop }, browserSubscription(laptop).json)).statusCode).toBe(204);
    expect(await endpointsOf(c.clientId)).toEqual([laptop, phone]);

    const out = await server.app.inject({ method: "POST", url: "/api/clients/logout", headers: { cookie: c.cookie, "content-type": "application/json" }, payload: "{}" });
    expect(out.statusCode).toBe(200);
    expect(await endpointsOf(c.clientId)).toEqual([laptop]);
  });

  it("forgets the subscriptions of every other device when the password changes, and keeps this one's: a lost phone stops ringing", async () => {
    const c = await server.signUp();
    const lost = "https://fcm.googleapis.com/fcm/send/lost-phone";
    const here = "https://fcm.googleapis.com/fcm/send/changing-the-password-here";
    const onLost = cookieOf(await server.app.inject({ method: "POST", url: "/api/clients/login", payload: { username: c.registration.username, password: c.registration.password } }));
    expect((await put({ ...c, cookie: onLost }, browserSubscription(lost).json)).statusCode).toBe(204);
    expect((await put(c, browserSubscription(here).json)).statusCode).toBe(204);
    expect(await endpointsOf(c.clientId)).toEqual([here, lost]);

    const change = await c.put(`/api/clients/${c.clientId}`, { password: "another-password", confirm_password: "another-password" });
    expect(change.statusCode, change.body).toBe(200);
    expect(await endpointsOf(c.clientId)).toEqual([here]);
  });

  it("moves a subscription stored again to the session it came from", async () => {
    const first = await server.signUp();
    const second = await server.signUp();
    const shared = "https://fcm.googleapis.com/fcm/send/taken-over-phone";
    await put(first, browserSubscription(shared).json);
    await put(second, browserSubscription(shared).json);
    // The first person's sign-out elsewhere no longer touches the phone, now the second's.
    await server.app.inject({ method: "POST", url: "/api/clients/logout", headers: { cookie: first.cookie, "content-type": "application/json" }, payload: "{}" });
    expect(await endpointsOf(second.clientId)).toEqual([shared]);
  });

  it("knows the push services by host and https alone", () => {
    expect(isKnownPushService(new URL("https://fcm.googleapis.com/fcm/send/x"))).toBe(true);
    expect(isKnownPushService(new URL("https://api.push.apple.com/x"))).toBe(true);
    expect(isKnownPushService(new URL("https://push.apple.com.attacker.net/x"))).toBe(false);
    expect(isKnownPushService(new URL("https://localhost/x"))).toBe(false);
  });
});
