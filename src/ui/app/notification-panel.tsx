import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import type { ComponentType, SVGProps } from "react";
import type { Notification } from "../../contract/entities.ts";
import { formatDateTime } from "../components/dates.ts";
import { useNotifications } from "../data/hooks.ts";
import {
  BatteryIcon,
  BellIcon,
  CardIcon,
  CloseIcon,
  CloudIcon,
  DropletIcon,
  InfoIcon,
  MegaphoneIcon,
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
};

export function iconOf(type: string) {
  return ICONS[type] ?? InfoIcon;
}

/** SPEC §2: an unread notification is highlighted, a read one greyed. */
function Item({ n, unread }: { n: Notification; unread: boolean }) {
  const Icon = iconOf(n.type);
  return (
    <li className={`flex gap-3 p-3 rounded-xl ${unread ? "bg-brand-50 text-gray-900" : "bg-gray-50 text-gray-500"}`} data-read={!unread}>
      <span className={`shrink-0 mt-0.5 text-xl ${unread ? "text-brand-700" : "text-gray-400"}`}>
        <Icon />
      </span>
      <div className="min-w-0">
        <p className={`font-medium ${unread ? "text-gray-900" : ""}`}>
          {n.title}
          {unread && <span className="sr-only"> (unread)</span>}
        </p>
        <p className="text-sm break-words">{n.body}</p>
        <p className="text-xs mt-1 text-gray-500">
          <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
        </p>
      </div>
    </li>
  );
}

/**
 * SPEC §2: slides in from the right, 85% wide up to 400 px, with a close button. `newIds` were
 * unread when it opened: they keep the unread look while it is open, though marked read by then.
 */
export function NotificationPanel({ open, onClose, newIds }: { open: boolean; onClose: () => void; newIds: ReadonlySet<number> }) {
  const notifications = useNotifications();
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <DialogPanel
        transition
        className="fixed inset-y-0 right-0 w-[85%] max-w-[400px] bg-white shadow-2xl flex flex-col transition duration-300 ease-out data-[closed]:translate-x-full"
      >
        <div className="flex items-center justify-between px-4 py-3 border-b border-gray-200">
          <DialogTitle className="text-lg font-semibold flex items-center gap-2">
            <BellIcon /> Notifications
          </DialogTitle>
          <button type="button" className="icon-btn" aria-label="Close notifications" onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div className="flex-1 overflow-y-auto p-3">
          {notifications.length === 0 ? (
            <p className="text-center text-gray-500 py-12">No notifications yet</p>
          ) : (
            <ul className="space-y-2">
              {notifications.map((n) => (
                <Item key={n.notification_id} n={n} unread={!n.read_status || newIds.has(n.notification_id)} />
              ))}
            </ul>
          )}
        </div>
      </DialogPanel>
    </Dialog>
  );
}
