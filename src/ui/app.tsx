import { BrowserRouter } from "react-router-dom";
import { Bounce, ToastContainer } from "react-toastify";
import "react-toastify/dist/ReactToastify.css";
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
        </BrowserRouter>
      </ConfirmProvider>
      <ToastContainer autoClose={TOAST_AUTO_CLOSE_MS} transition={Bounce} newestOnTop />
    </AppDataProvider>
  );
}
