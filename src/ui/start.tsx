import "@unocss/reset/tailwind.css";
import "virtual:uno.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { createAppData } from "./data/app-data.ts";
import { notify } from "./components/toasts.ts";
import { firebaseMessaging, pushConfig } from "./pwa/firebase-messaging.ts";
import { listenForInstallPrompt } from "./pwa/install-prompt.ts";
import { startPush, startWebPush } from "./pwa/push.ts";
import { registerServiceWorker } from "./pwa/register-service-worker.ts";

listenForInstallPrompt();
registerServiceWorker();

const root = createRoot(document.getElementById("root")!);
const apiBase = import.meta.env.VITE_API_BASE ?? "";
const data = createAppData({ apiBase });
// Firebase when the build is configured for it (SPEC's flow); otherwise standard Web Push with the
// server's own key, so that a farm gets alarm pushes with no account anywhere else. Either is
// loaded only when used.
const push = pushConfig();
if (push) {
  void firebaseMessaging(push).then((provider) => {
    if (provider) startPush({ provider, core: data.core, session: data.session, showInfo: (text) => notify.info(text) });
  });
} else {
  void import("./pwa/web-push.ts").then(({ browserWebPush, webPushServer }) => {
    const browser = browserWebPush();
    if (browser) startWebPush({ browser, server: webPushServer(apiBase), session: data.session, showInfo: (text) => notify.info(text) });
  });
}

root.render(
  <StrictMode>
    <App data={data} />
  </StrictMode>,
);
