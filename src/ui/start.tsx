import "@unocss/reset/tailwind.css";
import "virtual:uno.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { createAppData } from "./data/app-data.ts";
import { notify } from "./components/toasts.ts";
import { firebaseMessaging, pushConfig } from "./pwa/firebase-messaging.ts";
import { listenForInstallPrompt } from "./pwa/install-prompt.ts";
import { startPush } from "./pwa/push.ts";
import { registerServiceWorker } from "./pwa/register-service-worker.ts";

listenForInstallPrompt();
registerServiceWorker();

const root = createRoot(document.getElementById("root")!);
const data = createAppData({ apiBase: import.meta.env.VITE_API_BASE ?? "" });
// Push only when configured at build time; unconfigured, nothing of Firebase is even loaded.
const push = pushConfig();
if (push) {
  void firebaseMessaging(push).then((provider) => {
    if (provider) startPush({ provider, core: data.core, session: data.session, showInfo: (text) => notify.info(text) });
  });
}

root.render(
  <StrictMode>
    <App data={data} />
  </StrictMode>,
);
