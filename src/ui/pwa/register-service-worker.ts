import { registerSW } from "virtual:pwa-register";

/**
 * Registers the service worker at the site root: it precaches the app shell so the app opens
 * offline, and a new version takes over at once (skipWaiting + clientsClaim) and reloads the page,
 * so no tab is left on an old build talking to a new server.
 */
export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  registerSW({
    immediate: true,
    onRegisterError: (err: unknown) => console.error("Service worker registration failed", err),
  });
}
