import { act } from "react";
import { createRoot } from "react-dom/client";
import { ToastContainer } from "react-toastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { commands } from "vitest/browser";
import { PUSH_PATHS, type WebPushSubscription } from "../../contract/push-values.ts";
import type { PushPayload } from "../../contract/push.ts";
import { notify } from "../components/toasts.ts";
import { createAppData } from "../data/app-data.ts";
import { signOut } from "../data/sign-out.ts";
import type { AppData } from "../data/provider.tsx";
import { refreshWebPushSubscription, startWebPush, type PushMessage, type WebPushBrowser } from "./push.ts";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const base64url = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** A subscription as a browser's PushManager makes one: its own P-256 key and auth secret, at a push service the server sends to. */
async function subscriptionFor(endpoint: string): Promise<WebPushSubscription> {
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const p256dh = base64url(await crypto.subtle.exportKey("raw", pair.publicKey));
  return { endpoint, expirationTime: null, keys: { p256dh, auth: base64url(crypto.getRandomValues(new Uint8Array(16))) } };
}

/** This browser's Push API as the test says: the permission, and the key each subscription was asked with. */
function fakeBrowser(permission: NotificationPermission, subscription: WebPushSubscription) {
  let handler: ((m: PushMessage) => void) | null = null;
  const browser: WebPushBrowser = {
    requestPermission: vi.fn(async () => permission),
    subscribe: vi.fn(async () => subscription),
    unsubscribe: vi.fn(async () => subscription.endpoint),
    onForegroundMessage: (h) => {
      handler = h;
      return () => (handler = null);
    },
  };
  return { browser, deliver: (m: PushMessage) => handler?.(m) };
}

const unsubscribe = (endpoint: string) =>
  fetch(PUSH_PATHS.subscription, { method: "DELETE", credentials: "include", headers: { "content-type": "application/json" }, body: JSON.stringify({ endpoint }) }).then((r) => r.json());

describe("standard Web Push, with the server's own key", () => {
  let app: AppData & { terminate(): void };
  const storage = sessionStorage;

  let fixture: { username: string; password: string };

  beforeAll(async () => {
    fixture = await commands.seedLiveFixture(0);
    storage.clear();
    app = createAppData({ storage });
    app.session.setClient(await app.core.login(fixture.username, fixture.password));
  });
  afterAll(() => app?.terminate());

  it("subscribes with the server's VAPID public key and stores the subscription for the signed-in client", async () => {
    const subscription = await subscriptionFor(`https://fcm.googleapis.com/fcm/send/browser-test-${crypto.randomUUID()}`);
    const { browser } = fakeBrowser("granted", subscription);
    await refreshWebPushSubscription({ browser, core: app.core, session: app.session });
    const [key] = vi.mocked(browser.subscribe).mock.calls[0]!;
    // An uncompressed P-256 point (65 bytes), as PushManager.subscribe takes its applicationServerKey.
    expect(key).toMatch(/^B[A-Za-z0-9_-]{86}$/);
    expect(await unsubscribe(subscription.endpoint)).toEqual({ removed: true });
  });

  it("raises Permission denied when notification permission is not granted, and subscribes nothing", async () => {
    const { browser } = fakeBrowser("denied", await subscriptionFor("https://fcm.googleapis.com/fcm/send/never"));
    await expect(refreshWebPushSubscription({ browser, core: app.core, session: app.session })).rejects.toThrow("Permission denied");
    expect(browser.subscribe).not.toHaveBeenCalled();
  });

  it("raises the server's message when it refuses the subscription", async () => {
    const { browser } = fakeBrowser("granted", await subscriptionFor("http://127.0.0.1:9/push"));
    await expect(refreshWebPushSubscription({ browser, core: app.core, session: app.session })).rejects.toThrow("endpoint is not a push service this server sends to");
  });

  it("shows a foreground message as an info notice titled with its title, or New Notification", async () => {
    const host = document.createElement("div");
    document.body.append(host);
    const root = createRoot(host);
    await act(async () => root.render(<ToastContainer />));
    const { browser, deliver } = fakeBrowser("granted", await subscriptionFor(`https://fcm.googleapis.com/fcm/send/fg-${crypto.randomUUID()}`));
    const push = startWebPush({ browser, core: app.core, session: app.session, showInfo: (t) => notify.info(t) });
    await act(async () => deliver({ title: "Tunnel 2: CO2 high", body: "CO2 is 1500 ppm" }));
    await vi.waitFor(() => expect(host.textContent).toContain("Tunnel 2: CO2 high"));
    await act(async () => deliver({}));
    await vi.waitFor(() => expect(host.textContent).toContain("New Notification"));
    push.stop();
    await act(async () => root.unmount());
    host.remove();
  });

  it("asks nothing on load in Apple's browsers (they let a click ask only) and subscribes from Turn on", async () => {
    const subscription = await subscriptionFor(`https://web.push.apple.com/gesture-${crypto.randomUUID()}`);
    const { browser } = fakeBrowser("granted", subscription);
    let permission: NotificationPermission = "default";
    const push = startWebPush({ browser, core: app.core, session: app.session, showInfo: () => {}, environment: { permission: () => permission, asksOnGestureOnly: true } });
    await new Promise((r) => setTimeout(r, 50));
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(push.status()).toBe("off");
    permission = "granted";
    await push.turnOn();
    expect(browser.requestPermission).toHaveBeenCalledOnce();
    expect(push.status()).toBe("on");
    expect(await unsubscribe(subscription.endpoint)).toEqual({ removed: true });
    push.stop();
  });

  // Last: it signs out.
  it("at sign-out, unsubscribes this browser and the server forgets it for the client, so a shared phone stops ringing for them", async () => {
    const subscription = await subscriptionFor(`https://fcm.googleapis.com/fcm/send/signed-out-${crypto.randomUUID()}`);
    const { browser } = fakeBrowser("granted", subscription);
    const push = startWebPush({ browser, core: app.core, session: app.session, showInfo: () => {}, environment: { permission: () => "granted", asksOnGestureOnly: false } });
    await push.turnOn();
    // Signed in again meanwhile (another session of this browser): the server cannot tell the
    // subscription by the session that signs out, only by the endpoint the page names.
    app.session.setClient(await app.core.login(fixture.username, fixture.password));
    await signOut({ core: app.core, session: app.session, push });
    expect(browser.unsubscribe).toHaveBeenCalledOnce();
    expect(app.session.getClient()).toBeNull();

    app.session.setClient(await app.core.login(fixture.username, fixture.password));
    expect(await unsubscribe(subscription.endpoint)).toEqual({ removed: false });
    push.stop();
  });
});

describe("the service worker's push handler (public/push-sw.js)", () => {
  /**
   * The worker's script run against a stand-in of its global scope: a test can neither send a real
   * worker a push (that takes a push service) nor see a system notification.
   */
  async function pushWorker(focusedPage: boolean) {
    const listeners = new Map<string, (event: unknown) => void>();
    const shown: { title: string; options: NotificationOptions }[] = [];
    const posted: unknown[] = [];
    const reports: { url: string; init: RequestInit }[] = [];
    const scope = {
      location: new URL("https://farm.example.com/"),
      addEventListener: (name: string, fn: (event: unknown) => void) => listeners.set(name, fn),
      clients: { matchAll: async () => (focusedPage ? [{ focused: true, postMessage: (m: unknown) => posted.push(m) }] : []) },
      registration: { showNotification: async (title: string, options: NotificationOptions) => void shown.push({ title, options }) },
    };
    const fakeFetch = async (url: string, init: RequestInit) => {
      reports.push({ url, init });
      return new Response(JSON.stringify({ stored: true }));
    };
    const script = await (await fetch("/push-sw.js")).text();
    new Function("self", "fetch", script)(scope, fakeFetch);
    async function push(payload: PushPayload) {
      let done: Promise<unknown> = Promise.resolve();
      listeners.get("push")!({ data: { json: () => payload }, waitUntil: (p: Promise<unknown>) => (done = p) });
      await done;
    }
    return { push, shown, posted, reports };
  }

  const alarm: PushPayload = {
    notification: { title: "Room A went offline", body: "Room A (Farm) stopped reporting." },
    data: { link: "/alarms?mcu=3&alarm=7", id: "0d9f6c1e-8a44-4c5e-9a51-2f1d3b7c9e10", urgency: "high" },
  };

  it("shows an alarm until it is dismissed, and then reports it displayed with its message id", async () => {
    const worker = await pushWorker(false);
    await worker.push(alarm);
    expect(worker.shown).toEqual([
      { title: "Room A went offline", options: { body: "Room A (Farm) stopped reporting.", icon: "/icons/icon-192.png", data: { link: "/alarms?mcu=3&alarm=7" }, requireInteraction: true } },
    ]);
    expect(worker.reports).toHaveLength(1);
    expect(worker.reports[0]!.url).toBe(PUSH_PATHS.displayed);
    expect(worker.reports[0]!.init).toMatchObject({ method: "POST", credentials: "include", headers: { "content-type": "application/json" } });
    expect(JSON.parse(worker.reports[0]!.init.body as string)).toEqual({ id: alarm.data.id });
  });

  it("lets other notices go like any notification, and counts a message handed to a focused page as displayed", async () => {
    const worker = await pushWorker(false);
    await worker.push({ ...alarm, data: { ...alarm.data, urgency: "normal" } });
    expect(worker.shown[0]!.options.requireInteraction).toBe(false);

    const focused = await pushWorker(true);
    await focused.push(alarm);
    expect(focused.shown).toEqual([]);
    expect(focused.posted).toEqual([{ type: "push-foreground", message: { title: "Room A went offline", body: "Room A (Farm) stopped reporting.", link: "/alarms?mcu=3&alarm=7" } }]);
    expect(focused.reports.map((r) => JSON.parse(r.init.body as string))).toEqual([{ id: alarm.data.id }]);
  });

  it("reports nothing for a push without a message id", async () => {
    const worker = await pushWorker(false);
    await worker.push({ notification: { title: "T", body: "B" } } as PushPayload);
    expect(worker.shown).toHaveLength(1);
    expect(worker.reports).toEqual([]);
  });

  it("is answered by the server without a session: an id no push carried is simply not stored", async () => {
    const res = await fetch(PUSH_PATHS.displayed, { method: "POST", credentials: "omit", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: crypto.randomUUID() }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ stored: false });
  });
});
