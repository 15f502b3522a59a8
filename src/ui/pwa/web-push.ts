import { PUSH_PATHS } from "../../contract/push-values.ts";
import { foregroundMessages, type WebPushBrowser, type WebPushServer } from "./push.ts";

/** A base64url string's bytes (the VAPID public key as the server gives it). */
function bytesOf(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function sameBytes(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/**
 * This browser's Push API, on the app's one service worker at the site root (public/push-sw.js,
 * which shows each push and reports it displayed). Null where the browser has none (an iPhone's
 * Safari outside an app installed on the home screen).
 */
export function browserWebPush(): WebPushBrowser | null {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return null;
  return {
    requestPermission: () => Notification.requestPermission(),
    async subscribe(vapidPublicKey) {
      const { pushManager } = await navigator.serviceWorker.ready;
      const key = bytesOf(vapidPublicKey);
      const present = await pushManager.getSubscription();
      if (present && sameBytes(present.options.applicationServerKey, key)) return present.toJSON();
      // Made with another key (the server's was rotated, or Firebase's): its push service would refuse the server's pushes.
      await present?.unsubscribe();
      return (await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })).toJSON();
    },
    onForegroundMessage: foregroundMessages,
  };
}

/**
 * The server's push endpoints, called from the page rather than through the data core: the
 * subscription comes from the page's service worker registration, and nothing of it is state the
 * core keeps or shows.
 */
export function webPushServer(apiBase: string, send: typeof fetch = fetch): WebPushServer {
  async function request(method: "GET" | "PUT", path: string, body?: unknown): Promise<unknown> {
    const res = await send(apiBase + path, {
      method,
      credentials: "include",
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    // SPEC §8: a failed update raises the server's error body.
    if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? `${method} ${path}: ${res.status}`);
    return res.status === 204 ? null : res.json();
  }
  return {
    async vapidPublicKey() {
      return ((await request("GET", PUSH_PATHS.vapidPublicKey)) as { public_key: string }).public_key;
    },
    async saveSubscription(subscription) {
      await request("PUT", PUSH_PATHS.subscription, subscription);
    },
  };
}
