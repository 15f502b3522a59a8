import type { WebPushSubscription } from "../../contract/push-values.ts";
import { foregroundMessages, type WebPushBrowser } from "./push.ts";

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

/** A subscription as the server stores it; a browser that gave one without its endpoint or keys cannot be pushed to. */
function storable(subscription: PushSubscription): WebPushSubscription {
  const { endpoint, expirationTime, keys } = subscription.toJSON();
  if (!endpoint || !keys?.p256dh || !keys.auth) throw new Error("The browser gave a push subscription without its address or keys");
  return { endpoint, expirationTime: expirationTime ?? null, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

/** An iPhone or iPad (an iPad's Safari says it is a Mac, one with a touch screen). */
function appleMobile(): boolean {
  return /iPhone|iPad|iPod/.test(navigator.userAgent) || (/Macintosh/.test(navigator.userAgent) && navigator.maxTouchPoints > 1);
}

/** The app opened from the Home Screen (installed), not in a browser tab. */
function installed(): boolean {
  return matchMedia("(display-mode: standalone)").matches || (navigator as { standalone?: boolean }).standalone === true;
}

/**
 * Whether this browser has the Push API; where it has none, why: an iPhone's or iPad's browser has
 * it only in the app added to the Home Screen (iOS 16.4 and later).
 */
export function webPushAvailability(): "available" | "install" | "unsupported" {
  if ("serviceWorker" in navigator && "PushManager" in window && "Notification" in window) return "available";
  return appleMobile() && !installed() ? "install" : "unsupported";
}

/**
 * This browser's Push API, on the app's one service worker at the site root (public/push-sw.js,
 * which shows each push and reports it displayed). Null where the browser has none (see
 * `webPushAvailability`). Storing the subscription on the server is the data core's.
 */
export function browserWebPush(): WebPushBrowser | null {
  if (webPushAvailability() !== "available") return null;
  return {
    requestPermission: () => Notification.requestPermission(),
    async subscribe(vapidPublicKey) {
      const { pushManager } = await navigator.serviceWorker.ready;
      const key = bytesOf(vapidPublicKey);
      const present = await pushManager.getSubscription();
      if (present && sameBytes(present.options.applicationServerKey, key)) return storable(present);
      // Made with another key (the server's was rotated, or Firebase's): its push service would refuse the server's pushes.
      await present?.unsubscribe();
      return storable(await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
    },
    async unsubscribe() {
      // Not `ready`: without a registered worker (none yet, or unregistered) there is nothing to unsubscribe, and `ready` would wait for ever.
      const registration = await navigator.serviceWorker.getRegistration();
      const present = await registration?.pushManager.getSubscription();
      if (!present) return null;
      await present.unsubscribe();
      return present.endpoint;
    },
    onForegroundMessage: foregroundMessages,
  };
}
