/* Push in the app's service worker (imported by the Workbox worker). A message for a focused page
   is handed to it (the page shows a notice); otherwise it becomes a system notification. */
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const n = data.notification || data.data || {};
  const message = { title: n.title, body: n.body };
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((clients) => {
      const focused = clients.find((c) => c.focused);
      if (focused) {
        focused.postMessage({ type: "push-foreground", message });
        return undefined;
      }
      return self.registration.showNotification(message.title || "New Notification", { body: message.body, icon: "/icons/icon-192.png" });
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow("/dashboard"));
});
