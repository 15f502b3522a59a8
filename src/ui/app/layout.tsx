import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { NavLink, Outlet, useLocation, useNavigate } from "react-router-dom";
import { useAppData, useClient } from "../data/provider.tsx";
import { signOut } from "../data/sign-out.ts";
import { useOpenAlarmCount } from "../data/active-alarms.ts";
import { useCollection, useConnection } from "../data/hooks.ts";
import { BellIcon, CloseIcon, LogoutIcon, MenuIcon, MonitorIcon } from "../components/icons.tsx";
import { numberFormat } from "../i18n/format.ts";
import { useLocale } from "../i18n/i18n.ts";
import { NotificationPanel } from "./notification-panel.tsx";
import { NAV, titleOf } from "./titles.ts";


/**
 * The Alarms entry's count of open alarms nobody has acknowledged (none: no badge). The link's
 * name stays "Alarms"; the count in words is its description (outside the link, so not part of
 * its name), and a screen reader says both.
 */
function OpenAlarmsBadge({ describes }: { describes?: string }) {
  const { t } = useTranslation("common");
  useLocale();
  const open = useOpenAlarmCount();
  if (open === 0) return null;
  return describes ? (
    <span id={describes} className="sr-only">
      {t("layout.openAlarms", { count: open })}
    </span>
  ) : (
    <span aria-hidden="true" className="ms-auto min-w-6 rounded-full bg-red-600 px-2 py-0.5 text-center text-xs 4xl:text-lg font-semibold text-white tabular-nums" data-testid="open-alarms-badge">
      {numberFormat().format(open)}
    </span>
  );
}

/**
 * Publishes where toasts may go on the top bar while the layout shows: `data-top-bar` on the
 * document, the bar's height, and the free stretch between its menu button and its bell
 * (`--top-bar-free-start`, `--top-bar-free-end`, from the screen's edges on the side the line
 * starts and ends: in Arabic the menu button is at the right, the bell at the left). On a phone the toasts
 * sit there (toasts.css), over the title, clear of both buttons and of the page's own buttons
 * below. Measured, not assumed: the bar follows the text size.
 */
function usePublishedTopBar() {
  const topBar = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const bell = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const bar = topBar.current;
    if (!bar) return;
    const root = document.documentElement;
    // Room kept between a toast and either button.
    const clearance = 8;
    const publish = () => {
      const width = root.clientWidth;
      const rtl = getComputedStyle(bar).direction === "rtl";
      const menu = menuButton.current?.getBoundingClientRect();
      const bellBox = bell.current?.getBoundingClientRect();
      // How far the menu button's far edge and the bell's near edge are from the line's start and end.
      const menuEnd = menu ? (rtl ? width - menu.left : menu.right) : 0;
      const bellStart = bellBox ? (rtl ? bellBox.right : width - bellBox.left) : 0;
      root.style.setProperty("--top-bar-height", `${bar.getBoundingClientRect().height}px`);
      root.style.setProperty("--top-bar-free-start", `${Math.round(menuEnd + clearance)}px`);
      root.style.setProperty("--top-bar-free-end", `${Math.round(bellStart + clearance)}px`);
    };
    root.dataset.topBar = "";
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(bar);
    // The language's direction swaps the two buttons' sides without resizing the bar.
    const direction = new MutationObserver(publish);
    direction.observe(root, { attributes: true, attributeFilter: ["dir"] });
    return () => {
      direction.disconnect();
      observer.disconnect();
      delete root.dataset.topBar;
      for (const name of ["--top-bar-height", "--top-bar-free-start", "--top-bar-free-end"]) root.style.removeProperty(name);
    };
  }, []);
  return { topBar, menuButton, bell };
}

/** SPEC §2 shared layout: sidebar (collapsible on small screens), top bar with title and bell. */
export function Layout() {
  const { t } = useTranslation("common");
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const data = useAppData();
  const { core } = data;
  const client = useClient();
  const notifications = useCollection("notifications");
  const connection = useConnection();
  const { topBar, menuButton, bell } = usePublishedTopBar();
  const [menuOpen, setMenuOpen] = useState(false);
  const [panelOpen, setPanelOpen] = useState(false);
  // SPEC §2: the dot shows while any notification is unread. Opening or closing the panel marks
  // read what it shows (on the server too, so a reload keeps the dot off); one that arrives later
  // is unread and brings the dot back.
  const unreadIds = notifications.filter((n) => !n.read_status).map((n) => n.notification_id);
  const unread = unreadIds.length > 0;
  // What was unread when the panel opened keeps its unread look until the panel is closed, so
  // the farmer sees which ones are new although they are marked read at once.
  const [newInPanel, setNewInPanel] = useState<ReadonlySet<number>>(() => new Set());
  useEffect(() => setMenuOpen(false), [pathname]);

  const title = titleOf(pathname, t);
  const documentTitle = t("documentTitle", { title });
  useEffect(() => {
    document.title = documentTitle;
  }, [documentTitle]);

  async function signOutNow() {
    await signOut(data);
    navigate("/login", { replace: true });
  }

  const markShownRead = () => {
    if (unreadIds.length === 0) return;
    core.markNotificationsRead(unreadIds).catch((err: unknown) => console.error("Failed to mark notifications read", err));
  };
  const openPanel = () => {
    setNewInPanel(new Set(unreadIds));
    setPanelOpen(true);
    markShownRead();
  };
  const closePanel = () => {
    setPanelOpen(false);
    markShownRead();
  };

  return (
    <div className="min-h-screen bg-gray-50 lg:flex">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:start-2 focus:z-50 btn-primary">
        {t("layout.skipToContent")}
      </a>
      {menuOpen && <div className="fixed inset-0 bg-black/40 z-30 lg:hidden" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <aside
        id="sidebar"
        className={`fixed inset-y-0 start-0 z-40 w-64 4xl:w-96 4xl:text-xl bg-brand-900 text-white flex flex-col transform transition-transform lg:sticky lg:top-0 lg:h-screen ${menuOpen ? "" : "max-lg:-translate-x-full max-lg:rtl:translate-x-full"}`}
        aria-label={t("layout.mainNavigation")}
      >
        <div className="flex items-center justify-between px-5 py-4">
          <span className="flex items-center gap-2 text-lg font-bold">
            <img src="/favicon.svg" alt="" className="w-7 h-7" /> {t("appName")}
          </span>
          <button type="button" className="icon-btn text-white hover:bg-white/10 hover:text-white lg:hidden" aria-label={t("layout.closeMenu")} onClick={() => setMenuOpen(false)}>
            <CloseIcon />
          </button>
        </div>
        <nav className="flex-1 overflow-y-auto px-3">
          <ul className="space-y-1">
            {NAV.map((item) => {
              const Icon = item.icon;
              return (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    className={({ isActive }) =>
                      `flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm 4xl:text-xl font-medium ${isActive || (item.to === "/dashboard" && pathname === "/") ? "bg-white/15 text-white" : "text-brand-100 hover:bg-white/10"}`
                    }
                    aria-current={item.to === "/dashboard" && pathname === "/" ? "page" : undefined}
                    aria-describedby={item.to === "/alarms" ? "open-alarms-count" : undefined}
                  >
                    <Icon className="text-lg" /> {t(item.label)}
                    {item.to === "/alarms" && <OpenAlarmsBadge />}
                  </NavLink>
                  {item.to === "/alarms" && <OpenAlarmsBadge describes="open-alarms-count" />}
                </li>
              );
            })}
            {/* The wall view leaves this layout for the whole screen. */}
            <li className="pt-2 mt-2 border-t border-white/15">
              <NavLink to="/wall" className="flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm 4xl:text-xl font-medium text-brand-100 hover:bg-white/10">
                <MonitorIcon className="text-lg" /> {t("nav.wall")}
              </NavLink>
            </li>
          </ul>
        </nav>
        <div className="border-t border-white/15 p-4">
          <p className="font-medium truncate">{client?.username || t("layout.guest")}</p>
          <p className="text-sm text-brand-100 truncate">{client?.email || t("layout.noEmail")}</p>
          <button type="button" onClick={signOutNow} className="mt-3 w-full btn-base bg-white/10 text-white hover:bg-white/20">
            <LogoutIcon className="rtl:-scale-x-100" /> {t("layout.signOut")}
          </button>
        </div>
      </aside>

      <div className="flex-1 min-w-0 flex flex-col">
        <header ref={topBar} className="sticky top-0 z-20 bg-white border-b border-gray-200 flex items-center gap-3 px-4 py-3">
          <button ref={menuButton} type="button" className="icon-btn lg:hidden" aria-label={t("layout.openMenu")} aria-expanded={menuOpen} aria-controls="sidebar" onClick={() => setMenuOpen(true)}>
            <MenuIcon className="text-xl" />
          </button>
          <h1 className="flex-1 text-xl 4xl:text-3xl font-semibold text-gray-900 truncate">{title}</h1>
          {connection.state === "reconnecting" && (
            <span role="status" className="text-sm text-amber-700 bg-amber-50 rounded-full px-3 py-1">
              {t("layout.reconnecting")}
            </span>
          )}
          <button ref={bell} type="button" className="icon-btn relative" aria-label={unread ? t("layout.notificationsUnread") : t("layout.notifications")} onClick={openPanel}>
            <BellIcon className="text-xl" />
            {unread && <span data-testid="unread-dot" className="absolute top-1.5 end-1.5 w-2.5 h-2.5 rounded-full bg-red-600 ring-2 ring-white" />}
          </button>
        </header>
        <main id="main" className="flex-1 p-4 sm:p-6 4xl:p-10">
          <Outlet />
        </main>
      </div>
      <NotificationPanel open={panelOpen} onClose={closePanel} newIds={newInPanel} />
    </div>
  );
}
