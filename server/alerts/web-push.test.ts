import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alarmPagePath } from "../../src/contract/alarms-values.ts";
import { PUSH_PATHS, PUSH_TTL_SECONDS, type PushPayload } from "../../src/contract/push.ts";
import { pushDeliveriesRepo } from "../db/push-deliveries-repo.ts";
import type { McuEntry } from "../devices/mcu-directory.ts";
import { browserSubscription, startFakePushService, vapidOf, type FakePushService } from "../test-support/fake-push-service.ts";
import { createTestServer, dropSchema, onPostgres, type TestClient, type TestServer } from "../test-support/test-server.ts";
import { createAlerts } from "./alerts.ts";
import { createPushNotifier } from "./push-sender.ts";
import { webPushSender } from "./web-push-sender.ts";

const SUBJECT = "mailto:grower@farm.example.com";

/** A request as the app's fetch sends it: the session cookie and a JSON body. */
function call(server: TestServer, c: TestClient | null, method: "GET" | "PUT" | "DELETE" | "POST", url: string, body?: unknown) {
  return server.app.inject({
    method,
    url,
    headers: { ...(c ? { cookie: c.cookie } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

describe("the server's VAPID key pair", { timeout: 60_000 }, () => {
  const dir = mkdtemp(join(tmpdir(), "mf-vapid-"));
  const schema = `vapid_${process.pid}_${randomBytes(3).toString("hex")}`;
  afterAll(async () => {
    await rm(await dir, { recursive: true, force: true });
    await dropSchema(schema);
  });

  it("is made once, at the first need, and is the same after a restart", async () => {
    const where = onPostgres ? { schema } : { dataDir: await dir };
    const first = await createTestServer(where);
    const c = await first.signUp();
    // Two first asks at once still make one pair.
    const [a, b] = await Promise.all([call(first, c, "GET", PUSH_PATHS.vapidPublicKey), call(first, c, "GET", PUSH_PATHS.vapidPublicKey)]);
    const key = a.json().public_key as string;
    expect(b.json().public_key).toBe(key);
    // An uncompressed P-256 point, as PushManager.subscribe takes it.
    expect(Buffer.from(key, "base64url")).toHaveLength(65);
    expect(await first.db.query("select 1 from push_vapid_keys")).toHaveLength(1);
    await first.close();

    const second = await createTestServer(where);
    try {
      const again = await second.signUp();
      expect((await call(second, again, "GET", PUSH_PATHS.vapidPublicKey)).json().public_key).toBe(key);
      expect(await second.db.query("select 1 from push_vapid_keys")).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe("Web Push of alarms through a push service", () => {
  let server: TestServer;
  let service: FakePushService;
  let farmId: number;
  let client: TestClient;
  beforeAll(async () => {
    service = await startFakePushService();
    server = await createTestServer({ config: { push: { endpointAllowed: (url) => url.origin === service.origin } } });
    client = await server.signUp();
    farmId = (await client.post("/api/farms", { name: "Farm", location: "Byblos", client_id: client.clientId })).json().farm_id;
  });
  afterAll(async () => {
    await server?.close();
    await service?.close();
  });

  /** A registered MCU of `c`, as the alarm engine knows it. */
  async function mcuOf(c: TestClient, name: string): Promise<McuEntry> {
    const device = await c.mcuDevice();
    const res = await c.post("/api/mcus", { name, ...device, farm_id: farmId, status: "active" });
    if (res.statusCode !== 201) throw new Error(res.body);
    return { mcuId: res.json().mcu_id, clientId: c.clientId, farmId, mac: device.mac, name, farmName: "Farm", status: "online", config: null };
  }

  /** The alarm engine with the server's real push: Web Push with its own keys to the fake push service. */
  function alarmEngine() {
    const logged: string[] = [];
    const push = createPushNotifier(server.db, { webPush: webPushSender({ subject: SUBJECT }) }, (m) => logged.push(m), () => new Date(server.clock.now));
    const alerts = createAlerts({ db: server.db, now: () => new Date(server.clock.now), notify: () => {}, push, log: (m) => logged.push(m) });
    return { alerts, logged };
  }

  const alarmsOf = async (mcuId: number) => server.db.query<{ alert_id: number }>("select alert_id from alerts where mcu_id = $1 order by alert_id", [mcuId]);
  const subscriptionCount = async (endpoint: string) => (await server.db.query("select 1 from push_subscriptions where endpoint = $1", [endpoint])).length;

  it("sends an opened alarm encrypted for the browser, at high urgency with a short TTL, signed with the server's VAPID key", async () => {
    const browser = browserSubscription(service.endpoint(`alarm-${randomUUID()}`));
    expect((await call(server, client, "PUT", PUSH_PATHS.subscription, browser.json)).statusCode).toBe(204);
    const publicKey = (await call(server, client, "GET", PUSH_PATHS.vapidPublicKey)).json().public_key;

    const { alerts, logged } = alarmEngine();
    const entry = await mcuOf(client, "Room A");
    const before = service.received.length;
    alerts.onStatus(entry, "offline");
    await alerts.idle();
    // The push leaves after the alarm is stored, without holding the alarm engine up.
    await service.waitFor(before + 1);
    const [alarm] = await alarmsOf(entry.mcuId);

    const push = service.received[before]!;
    expect(push.path).toBe(new URL(browser.json.endpoint).pathname);
    expect(push.headers.urgency).toBe("high");
    expect(Number(push.headers.ttl)).toBe(PUSH_TTL_SECONDS.high);
    expect(Number(push.headers.ttl)).toBeLessThanOrEqual(600);
    expect(push.headers["content-encoding"]).toBe("aes128gcm");
    const vapid = vapidOf(push.headers.authorization);
    expect(vapid.publicKey).toBe(publicKey);
    expect(vapid.signed).toBe(true);
    expect(vapid.claims.aud).toBe(service.origin);
    expect(vapid.claims.sub).toBe(SUBJECT);
    expect(vapid.claims.exp * 1000).toBeGreaterThan(Date.now());

    // Only the browser's keys open it.
    expect(push.body.toString("utf8")).not.toContain("Room A");
    const payload = JSON.parse(browser.decrypt(push.body)) as PushPayload;
    expect(payload).toEqual({
      notification: { title: "Room A went offline", body: "Room A (Farm) stopped reporting." },
      data: { link: alarmPagePath(alarm!.alert_id, entry.mcuId), id: expect.stringMatching(/^[0-9a-f-]{36}$/), urgency: "high" },
    });
    expect(logged).toEqual([]);

    // The service worker's report, from a browser with no session: stored with this push of this alarm.
    const [delivery] = await pushDeliveriesRepo(server.db).ofAlarm(client.clientId, alarm!.alert_id);
    expect(delivery).toMatchObject({ client_id: client.clientId, username: client.registration.username, channel: "web_push", service: new URL(service.origin).host, title: "Room A went offline", urgency: "high", failure: null, displayed_at: null });
    expect(delivery!.sent_at).toBe(new Date(server.clock.now).toISOString());
    server.clock.advance(4000);
    const report = await call(server, null, "POST", PUSH_PATHS.displayed, { id: payload.data.id });
    expect(report.json()).toEqual({ stored: true });
    const [displayed] = await pushDeliveriesRepo(server.db).ofAlarm(client.clientId, alarm!.alert_id);
    expect(displayed).toEqual({ ...delivery, displayed_at: new Date(server.clock.now).toISOString() });
    // A second report keeps the first time; an id no push carried is stored nowhere.
    server.clock.advance(1000);
    await call(server, null, "POST", PUSH_PATHS.displayed, { id: payload.data.id });
    expect((await pushDeliveriesRepo(server.db).ofAlarm(client.clientId, alarm!.alert_id))[0]!.displayed_at).toBe(displayed!.displayed_at);
    expect((await call(server, null, "POST", PUSH_PATHS.displayed, { id: randomUUID() })).json()).toEqual({ stored: false });
    expect((await call(server, null, "POST", PUSH_PATHS.displayed, { id: "1" })).statusCode).toBe(400);
    // Another account's alarm: its deliveries are not answered to anyone else.
    const stranger = await server.signUp();
    expect(await pushDeliveriesRepo(server.db).ofAlarm(stranger.clientId, alarm!.alert_id)).toEqual([]);

    await call(server, client, "DELETE", PUSH_PATHS.subscription, { endpoint: browser.json.endpoint });
  });

  it("sends other notices at normal urgency, kept longer", async () => {
    const c = await server.signUp();
    const browser = browserSubscription(service.endpoint(`notice-${randomUUID()}`));
    await call(server, c, "PUT", PUSH_PATHS.subscription, browser.json);
    const before = service.received.length;
    await createPushNotifier(server.db, { webPush: webPushSender({ subject: SUBJECT }) })(c.clientId, { title: "Room B is back online", body: "Room B (Farm) is reporting again." });
    const push = service.received[before]!;
    expect(push.headers.urgency).toBe("normal");
    expect(Number(push.headers.ttl)).toBe(PUSH_TTL_SECONDS.normal);
    expect(JSON.parse(browser.decrypt(push.body)).data.link).toBe("/dashboard");
  });

  it("forgets a subscription the push service answers 404 or 410 for, and keeps one it answers 500 for", async () => {
    const c = await server.signUp();
    const names = { gone: `gone-${randomUUID()}`, expired: `expired-${randomUUID()}`, down: `down-${randomUUID()}` };
    service.answer(names.gone, 410);
    service.answer(names.expired, 404);
    service.answer(names.down, 500);
    for (const name of Object.values(names)) await call(server, c, "PUT", PUSH_PATHS.subscription, browserSubscription(service.endpoint(name)).json);
    const logged: string[] = [];
    await createPushNotifier(server.db, { webPush: webPushSender({ subject: SUBJECT }) }, (m) => logged.push(m))(c.clientId, { title: "T", body: "B", urgency: "high" });
    expect(await subscriptionCount(service.endpoint(names.gone))).toBe(0);
    expect(await subscriptionCount(service.endpoint(names.expired))).toBe(0);
    expect(await subscriptionCount(service.endpoint(names.down))).toBe(1);
    expect(logged).toEqual([expect.stringContaining("push service answered 500")]);
    const failures = await server.db.query<{ failure: string }>("select failure from push_deliveries where client_id = $1 order by failure", [c.clientId]);
    expect(failures.map((f) => f.failure)).toEqual([expect.stringMatching(/^no longer subscribed \(404/), expect.stringMatching(/^no longer subscribed \(410/), "push service answered 500"]);
  });

  it("keeps each client's subscriptions their own: another client's DELETE removes nothing", async () => {
    const owner = await server.signUp();
    const other = await server.signUp();
    const endpoint = service.endpoint(`own-${randomUUID()}`);
    await call(server, owner, "PUT", PUSH_PATHS.subscription, browserSubscription(endpoint).json);
    const refused = await call(server, other, "DELETE", PUSH_PATHS.subscription, { endpoint });
    expect(refused.json()).toEqual({ removed: false });
    expect(await subscriptionCount(endpoint)).toBe(1);

    // A push for the other client does not reach the owner's browser.
    const before = service.received.length;
    await createPushNotifier(server.db, { webPush: webPushSender({ subject: SUBJECT }) })(other.clientId, { title: "T", body: "B" });
    expect(service.received.length).toBe(before);

    const removed = await call(server, owner, "DELETE", PUSH_PATHS.subscription, { endpoint });
    expect(removed.json()).toEqual({ removed: true });
    expect(await subscriptionCount(endpoint)).toBe(0);
  });
});
