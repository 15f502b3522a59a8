import "@unocss/reset/tailwind.css";
import "virtual:uno.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { createAppData } from "./data/app-data.ts";
import { listenForInstallPrompt } from "./pwa/install-prompt.ts";
import { registerServiceWorker } from "./pwa/register-service-worker.ts";

listenForInstallPrompt();
registerServiceWorker();

const root = createRoot(document.getElementById("root")!);
const data = await createAppData({ apiBase: import.meta.env.VITE_API_BASE ?? "" });
root.render(
  <StrictMode>
    <App data={data} />
  </StrictMode>,
);
