import { lazy, Suspense, type ComponentType, type ReactNode } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router-dom";
import { nextPathOf } from "../components/next-path.ts";
import { Loading } from "../components/states.tsx";
import { useRoleNotices } from "../data/farm-roles.ts";
import { useClient } from "../data/provider.tsx";
import { Layout } from "./layout.tsx";
import NotFoundPage from "./not-found-page.tsx";
import { loadWithRetry, PageLoadBoundary } from "./page-load-boundary.tsx";
import { PAGES, type Frame } from "./pages.ts";
import { ScrollRestoration } from "./scroll-restoration.ts";

/** Lazy page chunks, retried once, within SPEC §9's time-out. */
const page = (load: () => Promise<{ default: ComponentType }>) => lazy(() => loadWithRetry(load));
/** Each screen's lazy component, built once, by frame. */
const SCREENS = Object.entries(PAGES).map(([path, { frame, load }]) => ({ path, frame: frame as Frame, Page: page(load) }));
const framed = (frame: Frame) => SCREENS.filter((s) => s.frame === frame);
const DashboardPage = SCREENS.find((s) => s.path === "/dashboard")!.Page;

/**
 * SPEC §2 route guarding: every client route without a stored client goes to /login. Every
 * signed-in screen (the layout's and the wall's) starts the notices of a farm taken away or a role changed.
 */
function RequireClient({ children }: { children: ReactNode }) {
  useRoleNotices();
  const client = useClient();
  const location = useLocation();
  if (!client) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}

/**
 * /login and /register are for signed-out visitors: a signed-in client goes to the dashboard, or
 * to the page that sent them to sign in (`?next=`). That includes the moment of signing in, when
 * this guard sees the client before the page's own navigation has moved on.
 */
function SignedOutOnly({ children }: { children: ReactNode }) {
  const client = useClient();
  const { search } = useLocation();
  if (client) return <Navigate to={nextPathOf(search) ?? "/dashboard"} replace />;
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
        {framed("signed-out").map(({ path, Page }) => (
          <Route key={path} path={path} element={<SignedOutOnly>{suspense(<Page />)}</SignedOutOnly>} />
        ))}
        {framed("open").map(({ path, Page }) => (
          <Route key={path} path={path} element={suspense(<Page />)} />
        ))}
        {/* A full-screen view (the wall) has no sidebar, no top bar. */}
        {framed("full").map(({ path, Page }) => (
          <Route key={path} path={path} element={<RequireClient>{suspense(<Page />)}</RequireClient>} />
        ))}
        <Route
          element={
            <RequireClient>
              <Layout />
            </RequireClient>
          }
        >
          <Route index element={suspense(<DashboardPage />)} />
          {framed("sidebar").map(({ path, Page }) => (
            <Route key={path} path={path} element={suspense(<Page />)} />
          ))}
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </>
  );
}
