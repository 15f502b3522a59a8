import { lazy, Suspense, type ComponentType, type ReactNode } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router-dom";
import { Loading } from "../components/states.tsx";
import { useClient } from "../data/provider.tsx";
import { Layout } from "./layout.tsx";
import NotFoundPage from "./not-found-page.tsx";
import { loadWithRetry, PageLoadBoundary } from "./page-load-boundary.tsx";

/** Lazy page chunks (each screen loads when first visited), retried once, within SPEC §9's time-out. */
const page = (load: () => Promise<{ default: ComponentType }>) => lazy(() => loadWithRetry(load));
const LoginPage = page(() => import("../features/auth/login-page.tsx"));
const RegisterPage = page(() => import("../features/auth/register-page.tsx"));
const ForgotPasswordPage = page(() => import("../features/auth/forgot-password-page.tsx"));
const DashboardPage = page(() => import("../features/dashboard/dashboard-page.tsx"));
const FarmsPage = page(() => import("../features/farms/farms-page.tsx"));
const McuManagerPage = page(() => import("../features/mcu/mcu-manager-page.tsx"));
const ControllersPage = page(() => import("../features/controllers/controllers-page.tsx"));
const SensorsPage = page(() => import("../features/sensors/sensors-page.tsx"));
const ProfilesPage = page(() => import("../features/profiles/profiles-page.tsx"));
const SettingsPage = page(() => import("../features/settings/settings-page.tsx"));

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
    <Routes>
      <Route path="/login" element={<SignedOutOnly>{suspense(<LoginPage />)}</SignedOutOnly>} />
      <Route path="/register" element={<SignedOutOnly>{suspense(<RegisterPage />)}</SignedOutOnly>} />
      <Route path="/forgot-password" element={suspense(<ForgotPasswordPage />)} />
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
        <Route path="/mcu" element={suspense(<McuManagerPage />)} />
        <Route path="/controllers" element={suspense(<ControllersPage />)} />
        <Route path="/sensors" element={suspense(<SensorsPage />)} />
        <Route path="/settings-profile" element={suspense(<ProfilesPage />)} />
        <Route path="/settings" element={suspense(<SettingsPage />)} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
