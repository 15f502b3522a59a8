import { foregroundMessages, type MessagingProvider } from "./push.ts";

/** Firebase's public web config and VAPID key, given at build time; push is off without them. */
export function pushConfig(): { firebase: Record<string, string>; vapidKey: string } | null {
  const raw = import.meta.env.VITE_FIREBASE_CONFIG;
  const vapidKey = import.meta.env.VITE_FIREBASE_VAPID_KEY;
  if (!raw || !vapidKey) return null;
  try {
    return { firebase: JSON.parse(raw) as Record<string, string>, vapidKey };
  } catch {
    console.error("VITE_FIREBASE_CONFIG is not JSON: push is off");
    return null;
  }
}

/**
 * Firebase Cloud Messaging as the messaging provider, loaded only when push is configured. The
 * token is bound to the app's own service worker (no second worker at the root), which shows
 * background messages and forwards foreground ones to the page (public/push-sw.js).
 */
export async function firebaseMessaging(config: { firebase: Record<string, string>; vapidKey: string }): Promise<MessagingProvider | null> {
  if (!("serviceWorker" in navigator) || !("Notification" in window)) return null;
  const [{ initializeApp }, { deleteToken, getMessaging, getToken, isSupported }] = await Promise.all([import("firebase/app"), import("firebase/messaging")]);
  if (!(await isSupported())) return null;
  const messaging = getMessaging(initializeApp(config.firebase));
  return {
    requestPermission: () => Notification.requestPermission(),
    async getToken() {
      return getToken(messaging, { vapidKey: config.vapidKey, serviceWorkerRegistration: await navigator.serviceWorker.ready });
    },
    onForegroundMessage: foregroundMessages,
    async deleteToken() {
      await deleteToken(messaging);
    },
  };
}
