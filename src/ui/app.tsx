import { Portal } from "@headlessui/react";
import { BrowserRouter } from "react-router-dom";
import { Bounce, ToastContainer } from "react-toastify";
import "react-toastify/dist/ReactToastify.css";
import { OfflineNotice } from "./app/offline-notice.tsx";
import { AppRoutes } from "./app/routes.tsx";
import { ConfirmProvider } from "./components/confirm-dialog.tsx";
import { TOAST_AUTO_CLOSE_MS } from "./components/toasts.ts";
import { AppDataProvider, type AppData } from "./data/provider.tsx";

export function App({ data }: { data: AppData }) {
  return (
    <AppDataProvider value={data}>
      <ConfirmProvider>
        <BrowserRouter>
          <AppRoutes />
          <OfflineNotice />
        </BrowserRouter>
      </ConfirmProvider>
      {/* In Headless UI's portal root: an open dialog makes the rest of the page inert, and toasts
          shown over a dialog must still be announced and clickable. */}
      <Portal>
        {/* Below the top bar, so a toast never covers the bell or the menu button. */}
        <ToastContainer autoClose={TOAST_AUTO_CLOSE_MS} transition={Bounce} newestOnTop style={{ top: "4.5rem" }} />
      </Portal>
    </AppDataProvider>
  );
}
