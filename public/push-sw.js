/* Push in the app's service worker (imported by the Workbox worker). A message for a focused page
   is handed to it (the page shows a notice); otherwise it becomes a system notification, which
   leads where the message says (an alarm, an MCU's history) when clicked. */

/** Where a message leads: an app path of this site (the server's `data.link`, or FCM's fcmOptions.link); the dashboard otherwise. */
function linkOf(data) {
  const link = (data.data && data.data.link) || (data.fcmOptions && data.fcmOptions.link) || "";
  try {
    const url = new URL(link, self.location.origin);
    // Only a page of this app: a message must not send the farmer to another site.
    if (url.origin === self.location.origin) return url.pathname + url.search;
  } catch {
    // Not a URL: the dashboard.
  }
  return "/dashboard";
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const n = data.notification || data.data || {};
  const message = { title: n.title, body: n.body, link: linkOf(data) };
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((clients) => {
      const focused = clients.find((c) => c.focused);
      if (focused) {
        focused.postMessage({ type: "push-foreground", message });
        return undefined;
      }
      return self.registration.showNotification(message.title || "New Notification", { body: message.body, icon: "/icons/icon-192.png", data: { link: message.link } });
    }),
  );
});

/** Opens `link` of this app: an open window of the app goes there and comes to the front, rather than a second one opening. */
function openLink(link) {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((clients) => {
    const own = clients.find((c) => new URL(c.url).origin === self.location.origin && "navigate" in c);
    // navigate() refuses a window this worker does not control (yet): a new window then.
    // Focus is only granted within a click: the window has gone there either way.
    if (own) return own.navigate(link).then((c) => (c || own).focus().catch(() => c || own), () => self.clients.openWindow(link));
    return self.clients.openWindow(link);
  });
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openLink((event.notification.data && event.notification.data.link) || "/dashboard"));
});

// What a click does, for the end-to-end test (a test cannot click a system notification).
self.pushLinks = { linkOf, openLink };
