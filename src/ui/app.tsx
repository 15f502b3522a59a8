import { useEffect, useLayoutEffect, useState } from "react";
import { createPortal } from "react-dom";
import { BrowserRouter } from "react-router-dom";
import { Bounce, ToastContainer } from "react-toastify";
import "react-toastify/dist/ReactToastify.css";
import "./app/toasts.css";
import { OfflineNotice } from "./app/offline-notice.tsx";
import { AppRoutes } from "./app/routes.tsx";
import { SessionEndNotice } from "./app/session-end-notice.tsx";
import { ConfirmProvider } from "./components/confirm-dialog.tsx";
import { keepNewestToasts, TOAST_AUTO_CLOSE_MS, TOAST_POSITION } from "./components/toasts.ts";
import { AppDataProvider, type AppData } from "./data/provider.tsx";
import { useLocale } from "./i18n/i18n.ts";

/**
 * The toasts' own element, a child of <body>. An open Headless UI dialog makes inert every other
 * child of its portal root and the app's root, but leaves the body's other children alone (and
 * counts them as its own, so a tap on a toast does not close it): toasts shown over a dialog stay
 * announced and can be tapped away.
 */
function useToastHost(): HTMLElement {
  const [host] = useState(() => document.createElement("div"));
  useLayoutEffect(() => {
    document.body.append(host);
    return () => host.remove();
  }, [host]);
  return host;
}

export function App({ data }: { data: AppData }) {
  const toastHost = useToastHost();
  // Right to left, a toast's icon and close button swap sides with the text.
  const { rtl } = useLocale();
  useEffect(() => keepNewestToasts(), []);
  return (
    <AppDataProvider value={data}>
      <ConfirmProvider>
        <BrowserRouter>
          <AppRoutes />
          <OfflineNotice />
          <SessionEndNotice />
        </BrowserRouter>
      </ConfirmProvider>
      {/* Top-centre: over the middle of the top bar, which holds no button on a laptop; on a phone
          they sit on the top bar between its menu button and its bell (toasts.css). Every page
          keeps its own buttons at the top end and its forms' buttons at the bottom (a sheet on
          a phone), so neither corner nor the bottom edge is free. Stacked, the newest in front:
          react-toastify draws the container's last toast in front, which is the newest only
          without newestOnTop. At most three at a time (keepNewestToasts closes the oldest, so a
          new message never waits for an old one to go); they spread out on hover. */}
      {createPortal(<ToastContainer position={TOAST_POSITION} autoClose={TOAST_AUTO_CLOSE_MS} transition={Bounce} closeOnClick stacked rtl={rtl} />, toastHost)}
    </AppDataProvider>
  );
}
