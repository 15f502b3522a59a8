/* Push in the app's service worker (imported by the Workbox worker). A message for a focused page
   is handed to it (the page shows a notice); otherwise it becomes a system notification, which
   leads where the message says (an alarm, an MCU's history) when clicked. Either way the server is
   told it was displayed. Pushes come by standard Web Push or by Firebase, in the same shape
   (PushPayload in src/contract/push.ts). */

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

/**
 * Tells the server that the push of this message id was displayed (POST /api/push/displayed). The
 * id, which only this browser could decrypt, is the proof: it is stored even when the app has not
 * been opened for longer than a session lasts. A report that fails is not retried: it is a record,
 * and the notification is on screen either way.
 */
function reportDisplayed(id) {
  if (typeof id !== "string" || id === "") return Promise.resolve();
  return fetch("/api/push/displayed", {
    method: "POST",
    credentials: "include",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id }),
  }).then(
    () => undefined,
    () => undefined,
  );
}

/** What a push says, from its payload (decrypted by the browser already). */
function messageOf(data) {
  const n = data.notification || data.data || {};
  const extra = data.data || {};
  return { title: n.title, body: n.body, link: linkOf(data), id: extra.id, urgent: extra.urgency === "high" };
}

/** Shows a message: handed to a focused page of the app, else a system notification (an alarm stays until dismissed). */
function show(message) {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((clients) => {
    const focused = clients.find((c) => c.focused);
    if (focused) {
      focused.postMessage({ type: "push-foreground", message: { title: message.title, body: message.body, link: message.link } });
      return undefined;
    }
    return self.registration.showNotification(message.title || "New Notification", {
      body: message.body,
      icon: "/icons/icon-192.png",
      data: { link: message.link },
      requireInteraction: message.urgent,
    });
  });
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const message = messageOf(data);
  // The push event lasts until the report is sent: a browser may stop the worker as soon as it ends.
  event.waitUntil(show(message).then(() => reportDisplayed(message.id)));
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

// What a click does and what a push shows, for the tests (a test can neither send this worker a push nor click a system notification).
self.pushLinks = { linkOf, openLink, messageOf, show, reportDisplayed };
