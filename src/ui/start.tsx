import "@unocss/reset/tailwind.css";
import "virtual:uno.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { createAppData } from "./data/app-data.ts";
import { notify } from "./components/toasts.ts";
import { listenForInstallPrompt } from "./pwa/install-prompt.ts";
import { registerServiceWorker } from "./pwa/register-service-worker.ts";
import { startAppPush } from "./pwa/start-push.ts";
import { startI18n } from "./i18n/i18n.ts";
import { initialChoice } from "./i18n/language-choice.ts";
import { followClientLanguage } from "./i18n/follow-client.ts";

listenForInstallPrompt();
registerServiceWorker();

const root = createRoot(document.getElementById("root")!);
const apiBase = import.meta.env.VITE_API_BASE ?? "";
const data = createAppData({ apiBase });
const push = startAppPush({ core: data.core, session: data.session, showInfo: (text) => notify.info(text) });

// The first screen renders in the person's language (its texts were asked for by main.tsx).
await startI18n(initialChoice(localStorage, navigator.languages));
followClientLanguage(data.session);

root.render(
  <StrictMode>
    <App data={{ ...data, push }} />
  </StrictMode>,
);
