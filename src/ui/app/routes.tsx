import { lazy, Suspense, type ComponentType, type ReactNode } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router-dom";
import { Loading } from "../components/states.tsx";
import { useClient } from "../data/provider.tsx";
import { Layout } from "./layout.tsx";
import NotFoundPage from "./not-found-page.tsx";
import { loadWithRetry, PageLoadBoundary } from "./page-load-boundary.tsx";
import { PAGES } from "./pages.ts";
import { ScrollRestoration } from "./scroll-restoration.ts";

/** Lazy page chunks, retried once, within SPEC §9's time-out. */
const page = (load: () => Promise<{ default: ComponentType }>) => lazy(() => loadWithRetry(load));
const LoginPage = page(PAGES["/login"]);
const RegisterPage = page(PAGES["/register"]);
const ForgotPasswordPage = page(PAGES["/forgot-password"]);
const DashboardPage = page(PAGES["/dashboard"]);
const FarmsPage = page(PAGES["/farms"]);
const McuManagerPage = page(PAGES["/mcu"]);
const ControllersPage = page(PAGES["/controllers"]);
const SensorsPage = page(PAGES["/sensors"]);
const ProfilesPage = page(PAGES["/settings-profile"]);
const SettingsPage = page(PAGES["/settings"]);
const AlarmsPage = page(PAGES["/alarms"]);
const WallPage = page(PAGES["/wall"]);
const McuHistoryPage = page(PAGES["/mcu/:mcuId"]);
const FarmHistoryPage = page(PAGES["/farms/:farmId/history"]);

/** SPEC §2 route guarding: every client route without a stored client goes to /login. */
function RequireClient({ children }: { children: ReactNode }) {
  const client = useClient();
  const location = useLocation();
  if (!client) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}

/** /login and /register are for signed-out visitors: a signed-in client goes to the dashboard. */
function SignedOutOnly({ children }: { children: ReactNode }) {
  const client = useClient();
  if (client) return <Navigate to="/dashboard" replace />;
  return children;
}

const suspense = (node: ReactNode) => (
  <PageLoadBoundary>
    <Suspense fallback={<Loading />}>{node}</Suspense>
  </PageLoadBoundary>
);

export function AppRoutes() {
  return (
    <>
      <ScrollRestoration />
      <Routes>
        <Route path="/login" element={<SignedOutOnly>{suspense(<LoginPage />)}</SignedOutOnly>} />
        <Route path="/register" element={<SignedOutOnly>{suspense(<RegisterPage />)}</SignedOutOnly>} />
        <Route path="/forgot-password" element={suspense(<ForgotPasswordPage />)} />
        {/* The wall view fills the screen: no sidebar, no top bar. */}
        <Route path="/wall" element={<RequireClient>{suspense(<WallPage />)}</RequireClient>} />
        <Route
          element={
            <RequireClient>
              <Layout />
            </RequireClient>
          }
        >
          <Route index element={suspense(<DashboardPage />)} />
          <Route path="/dashboard" element={suspense(<DashboardPage />)} />
          <Route path="/farms" element={suspense(<FarmsPage />)} />
          <Route path="/farms/:farmId/history" element={suspense(<FarmHistoryPage />)} />
          <Route path="/mcu" element={suspense(<McuManagerPage />)} />
          <Route path="/mcu/:mcuId" element={suspense(<McuHistoryPage />)} />
          <Route path="/controllers" element={suspense(<ControllersPage />)} />
          <Route path="/sensors" element={suspense(<SensorsPage />)} />
          <Route path="/settings-profile" element={suspense(<ProfilesPage />)} />
          <Route path="/settings" element={suspense(<SettingsPage />)} />
          <Route path="/alarms" element={suspense(<AlarmsPage />)} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </>
  );
}
