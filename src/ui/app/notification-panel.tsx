import { Dialog, DialogPanel, DialogTitle, Disclosure, DisclosureButton, DisclosurePanel } from "@headlessui/react";
import { useMemo, type ComponentType, type ReactNode, type SVGProps } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { groupIncidents } from "../../contract/alarms-groups.ts";
import { ALARM_KINDS, notificationPath, notificationSubject } from "../../contract/alarms-values.ts";
import type { Notification } from "../../contract/entities.ts";
import { formatDateTime } from "../components/dates.ts";
import { useCollection } from "../data/hooks.ts";
import { useLocale } from "../i18n/i18n.ts";
import { notificationTexts } from "./notification-words.ts";
import {
  AlertIcon,
  BatteryIcon,
  BellIcon,
  CardIcon,
  CloseIcon,
  CloudIcon,
  DropletIcon,
  InfoIcon,
  MegaphoneIcon,
  SensorIcon,
  StarIcon,
  ThermometerIcon,
  TicketIcon,
  WifiIcon,
  WifiOffIcon,
} from "../components/icons.tsx";

/** SPEC §3: an icon per type (wash, payment, ads, coupon, subscribe), a default for any other. */
const ICONS: Record<string, ComponentType<SVGProps<SVGSVGElement>>> = {
  wash: DropletIcon,
  payment: CardIcon,
  ads: MegaphoneIcon,
  coupon: TicketIcon,
  subscribe: StarIcon,
  // The server's alerts.
  mcu_offline: WifiOffIcon,
  mcu_online: WifiIcon,
  battery_low: BatteryIcon,
  humidity_low: DropletIcon,
  co2_high: CloudIcon,
  soil_moisture_low: DropletIcon,
  temperature_off_target: ThermometerIcon,
  sensor_missing: SensorIcon,
  sensor_stuck: SensorIcon,
};

export function iconOf(type: string) {
  return ICONS[type] ?? InfoIcon;
}

const ALARM_TYPES: ReadonlySet<string> = new Set(ALARM_KINDS);

/**
 * A notification's content, a link where it leads (its alarm, its MCU's history): following it
 * closes the panel. One about nothing (an account's) is not a link.
 */
function Target({ to, onNavigate, className, children }: { to: string | null; onNavigate: () => void; className: string; children: ReactNode }) {
  return to === null ? (
    <div className={className}>{children}</div>
  ) : (
    <Link to={to} onClick={onNavigate} className={`${className} hover:ring-1 hover:ring-brand-600/40 focus-visible:outline-2 focus-visible:outline-brand-600`}>
      {children}
    </Link>
  );
}

/**
 * SPEC §2: an unread notification is highlighted, a read one greyed. Its title and body are the
 * server's, said from its words in the reader's language now (as stored, when it has none); the
 * app's own words are around them.
 */
function Item({ n, unread, onNavigate }: { n: Notification; unread: boolean; onNavigate: () => void }) {
  const { t } = useTranslation("common");
  const { t: say } = useTranslation("alarms");
  const { title, body, dir } = notificationTexts(say, n);
  const Icon = iconOf(n.type);
  return (
    <li data-read={!unread}>
      <Target to={notificationPath(n)} onNavigate={onNavigate} className={`flex gap-3 p-3 rounded-xl ${unread ? "bg-brand-50 text-gray-900" : "bg-gray-50 text-gray-500"}`}>
        <span className={`shrink-0 mt-0.5 text-xl ${unread ? "text-brand-700" : "text-gray-400"}`}>
          <Icon />
        </span>
        <div className="min-w-0">
          {/* The server's words: in the page's direction when said in the reader's language, else in their own. */}
          <p dir={dir} className={`font-medium ${unread ? "text-gray-900" : ""}`}>
            {title}
            {unread && <span className="sr-only"> {t("notifications.unread")}</span>}
          </p>
          <p dir={dir} className="text-sm break-words">
            {body}
          </p>
          <p className="text-xs mt-1 text-gray-500">
            <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
          </p>
        </div>
      </Target>
    </li>
  );
}

/**
 * Alarms of one MCU announced together (an open door): one entry, "Tunnel 1: 3 alarms", leading to
 * that MCU's alarms, that expands to the notifications themselves. Unread while any of them is.
 */
function IncidentEntry({ notes, isUnread, onNavigate }: { notes: readonly Notification[]; isUnread: (n: Notification) => boolean; onNavigate: () => void }) {
  const { t } = useTranslation("common");
  const { t: say } = useTranslation("alarms");
  const newest = notes[0]!;
  const { mcuId, mcuName } = notificationSubject(newest);
  const unread = notes.some(isUnread);
  // Each alarm's title as the reader reads it ("Tunnel 1: CO2 high"), which names the MCU and the kind.
  const texts = notes.map((n) => notificationTexts(say, n));
  const titles = texts.map((text) => text.title);
  // The MCU's name now, else as the alarm's title has it.
  const name = mcuName ?? titles[0]!.split(":")[0]!.trim();
  const kinds = titles.map((title) => title.slice(title.indexOf(":") + 1).trim() || title);
  const count = { count: notes.length, name };
  return (
    <Disclosure as="li" data-read={!unread} data-incident>
      {({ open }) => (
        <div className={`rounded-xl ${unread ? "bg-brand-50 text-gray-900" : "bg-gray-50 text-gray-500"}`}>
          <Target to={mcuId === null ? null : `/alarms?mcu=${mcuId}`} onNavigate={onNavigate} className="flex gap-3 p-3 rounded-xl">
            <span className={`shrink-0 mt-0.5 text-xl ${unread ? "text-brand-700" : "text-gray-400"}`}>
              <AlertIcon />
            </span>
            <div className="min-w-0">
              <p className={`font-medium ${unread ? "text-gray-900" : ""}`}>
                {t("notifications.incident", count)}
                {unread && <span className="sr-only"> {t("notifications.unread")}</span>}
              </p>
              <p dir={texts.some((text) => text.dir) ? "auto" : undefined} className="text-sm break-words">
                {kinds.join(t("notifications.kindsSeparator"))}
              </p>
              <p className="text-xs mt-1 text-gray-500">
                <time dateTime={newest.createdAt}>{formatDateTime(newest.createdAt)}</time>
              </p>
            </div>
          </Target>
          <DisclosureButton className="mx-3 mb-2 text-sm font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900">
            {open ? t("notifications.hideAll", count) : t("notifications.showAll", count)}
          </DisclosureButton>
          <DisclosurePanel as="ul" className="space-y-2 px-2 pb-2" aria-label={t("notifications.incident", count)}>
            {notes.map((n) => (
              <Item key={n.notification_id} n={n} unread={isUnread(n)} onNavigate={onNavigate} />
            ))}
          </DisclosurePanel>
        </div>
      )}
    </Disclosure>
  );
}

/**
 * SPEC §2: slides in from the right (from the left in a right-to-left language: the side the
 * line ends), 85% wide up to 400 px, with a close button. `newIds` were
 * unread when it opened: they keep the unread look while it is open, though marked read by then.
 */
export function NotificationPanel({ open, onClose, newIds }: { open: boolean; onClose: () => void; newIds: ReadonlySet<number> }) {
  const { t } = useTranslation("common");
  useLocale();
  const notifications = useCollection("notifications");
  // Only alarms group: an MCU back online or an account's notification stands alone.
  const groups = useMemo(
    () => groupIncidents(notifications, (n) => ({ mcuId: ALARM_TYPES.has(n.type) ? notificationSubject(n).mcuId : null, at: n.createdAt })),
    [notifications],
  );
  const isUnread = (n: Notification) => !n.read_status || newIds.has(n.notification_id);
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <DialogPanel
        transition
        data-testid="notification-panel"
        className="fixed inset-y-0 end-0 w-[85%] max-w-[400px] bg-white shadow-2xl flex flex-col transition duration-300 ease-out data-[closed]:translate-x-full rtl:data-[closed]:-translate-x-full"
      >
        <div className="flex items-center justify-between px-4 py-3 border-b border-gray-200">
          <DialogTitle className="text-lg font-semibold flex items-center gap-2">
            <BellIcon /> {t("notifications.title")}
          </DialogTitle>
          <button type="button" className="icon-btn" aria-label={t("notifications.close")} onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div className="flex-1 overflow-y-auto p-3">
          {notifications.length === 0 ? (
            <p className="text-center text-gray-500 py-12">{t("notifications.empty")}</p>
          ) : (
            <ul className="space-y-2">
              {groups.map((g) =>
                g.entries.length === 1 ? (
                  <Item key={g.entries[0]!.notification_id} n={g.entries[0]!} unread={isUnread(g.entries[0]!)} onNavigate={onClose} />
                ) : (
                  <IncidentEntry key={`incident-${g.entries[g.entries.length - 1]!.notification_id}`} notes={g.entries} isUnread={isUnread} onNavigate={onClose} />
                ),
              )}
            </ul>
          )}
        </div>
      </DialogPanel>
    </Dialog>
  );
}
