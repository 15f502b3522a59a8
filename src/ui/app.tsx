import { Portal } from "@headlessui/react";
import { BrowserRouter } from "react-router-dom";
import { Bounce, ToastContainer } from "react-toastify";
import "react-toastify/dist/ReactToastify.css";
import "./app/toasts.css";
import { OfflineNotice } from "./app/offline-notice.tsx";
import { AppRoutes } from "./app/routes.tsx";
import { SessionEndNotice } from "./app/session-end-notice.tsx";
import { ConfirmProvider } from "./components/confirm-dialog.tsx";
import { TOAST_AUTO_CLOSE_MS, TOAST_POSITION } from "./components/toasts.ts";
import { AppDataProvider, type AppData } from "./data/provider.tsx";

export function App({ data }: { data: AppData }) {
  return (
    <AppDataProvider value={data}>
      <ConfirmProvider>
        <BrowserRouter>
          <AppRoutes />
          <OfflineNotice />
          <SessionEndNotice />
        </BrowserRouter>
      </ConfirmProvider>
      {/* In Headless UI's portal root: an open dialog makes the rest of the page inert, and toasts
          shown over a dialog must still be announced and clickable. */}
      <Portal>
        {/* Top-centre: over the middle of the top bar, which holds no button on a laptop and only
            the menu and the bell on a phone (a tap on a toast closes it). Every page keeps its own
            buttons at the top right and its forms' buttons at the bottom (a sheet on a phone), so
            neither corner nor the bottom edge is free. At most three at a time, stacked (they
            spread out on hover), so even three stay clear of the page's buttons. */}
        <ToastContainer position={TOAST_POSITION} autoClose={TOAST_AUTO_CLOSE_MS} transition={Bounce} newestOnTop limit={3} closeOnClick stacked />
      </Portal>
    </AppDataProvider>
  );
}
