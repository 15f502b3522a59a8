import type { SVGProps } from "react";

/** Inline icons (no icon font, no external request). Decorative by default: give the button a label. */
function Icon({ d, ...props }: { d: string } & SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" {...props}>
      <path d={d} />
    </svg>
  );
}

type P = SVGProps<SVGSVGElement>;
export const BellIcon = (p: P) => <Icon d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 0 1-3.4 0" {...p} />;
export const MenuIcon = (p: P) => <Icon d="M3 6h18M3 12h18M3 18h18" {...p} />;
export const CloseIcon = (p: P) => <Icon d="M18 6 6 18M6 6l12 12" {...p} />;
export const EyeIcon = (p: P) => <Icon d="M1 12s4-8 11-8 11 8 11 8-4 8-11 8S1 12 1 12zm11 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6z" {...p} />;
export const EyeOffIcon = (p: P) => <Icon d="M17.9 17.9A10.1 10.1 0 0 1 12 20C5 20 1 12 1 12a18.4 18.4 0 0 1 5.1-5.9M9.9 4.2A9.1 9.1 0 0 1 12 4c7 0 11 8 11 8a18.5 18.5 0 0 1-2.2 3.2M1 1l22 22" {...p} />;
export const PlusIcon = (p: P) => <Icon d="M12 5v14M5 12h14" {...p} />;
export const EditIcon = (p: P) => <Icon d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z" {...p} />;
export const TrashIcon = (p: P) => <Icon d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6" {...p} />;
export const ScanIcon = (p: P) => <Icon d="M3 7V3h4M17 3h4v4M21 17v4h-4M7 21H3v-4M7 12h10" {...p} />;
export const UnlinkIcon = (p: P) => <Icon d="M18.8 13.4 21 11.2a5 5 0 0 0-7.1-7.1l-2.2 2.2M5.2 10.6 3 12.8a5 5 0 0 0 7.1 7.1l2.2-2.2M8 2v3M2 8h3M16 22v-3M22 16h-3" {...p} />;
export const DashboardIcon = (p: P) => <Icon d="M3 3h7v9H3zM14 3h7v5h-7zM14 12h7v9h-7zM3 16h7v5H3z" {...p} />;
export const FarmIcon = (p: P) => <Icon d="M3 21V10l9-6 9 6v11M9 21v-6h6v6" {...p} />;
export const ChipIcon = (p: P) => <Icon d="M6 6h12v12H6zM9 9h6v6H9zM9 2v4M15 2v4M9 18v4M15 18v4M2 9h4M2 15h4M18 9h4M18 15h4" {...p} />;
export const FanIcon = (p: P) => <Icon d="M12 12c-3-5 0-9 3-8s1 6-3 8zm0 0c5-3 9 0 8 3s-6 1-8-3zm0 0c3 5 0 9-3 8s-1-6 3-8zm0 0c-5 3-9 0-8-3s6-1 8 3z" {...p} />;
export const SensorIcon = (p: P) => <Icon d="M12 2v6M5 5l4 4M19 5l-4 4M12 22a6 6 0 1 0 0-12 6 6 0 0 0 0 12z" {...p} />;
export const SlidersIcon = (p: P) => <Icon d="M4 21v-7M4 10V3M12 21v-9M12 8V3M20 21v-5M20 12V3M1 14h6M9 8h6M17 16h6" {...p} />;
export const SettingsIcon = (p: P) => <Icon d="M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" {...p} />;
export const LogoutIcon = (p: P) => <Icon d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" {...p} />;
export const AlertIcon = (p: P) => <Icon d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0zM12 9v4M12 17h.01" {...p} />;
export const InfoIcon = (p: P) => <Icon d="M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM12 16v-4M12 8h.01" {...p} />;
export const DropletIcon = (p: P) => <Icon d="M12 2.7 17.7 8.3a8 8 0 1 1-11.3 0z" {...p} />;
export const CardIcon = (p: P) => <Icon d="M2 5h20v14H2zM2 10h20" {...p} />;
export const MegaphoneIcon = (p: P) => <Icon d="M3 11v2a1 1 0 0 0 1 1h2l5 4V6L6 10H4a1 1 0 0 0-1 1zM15.5 8.5a5 5 0 0 1 0 7M19 5a10 10 0 0 1 0 14" {...p} />;
export const TicketIcon = (p: P) => <Icon d="M3 7h18v4a2 2 0 0 0 0 4v4H3v-4a2 2 0 0 0 0-4zM13 7v12" {...p} />;
export const StarIcon = (p: P) => <Icon d="m12 2 3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1z" {...p} />;
export const BatteryIcon = (p: P) => <Icon d="M2 7h16v10H2zM22 11v2M6 10v4" {...p} />;
export const WifiOffIcon = (p: P) => <Icon d="M1 1l22 22M16.7 11.1A10.9 10.9 0 0 1 19 12.6M5 12.6a11 11 0 0 1 5.2-2.5M10.7 5.1A16 16 0 0 1 22.6 9M1.4 9a16 16 0 0 1 4.7-2.9M8.5 16.1a5 5 0 0 1 7 0M12 20h.01" {...p} />;
export const WifiIcon = (p: P) => <Icon d="M5 12.6a11 11 0 0 1 14 0M1.4 9a16 16 0 0 1 21.2 0M8.5 16.1a5 5 0 0 1 7 0M12 20h.01" {...p} />;
export const ThermometerIcon = (p: P) => <Icon d="M14 14.8V3.5a2.5 2.5 0 0 0-5 0v11.3a4.5 4.5 0 1 0 5 0z" {...p} />;
export const CloudIcon = (p: P) => <Icon d="M18 10h-1.3A8 8 0 1 0 9 20h9a5 5 0 0 0 0-10z" {...p} />;
export const MonitorIcon = (p: P) => <Icon d="M2 4h20v13H2zM8 21h8M12 17v4" {...p} />;
export const ChevronDownIcon = (p: P) => <Icon d="m6 9 6 6 6-6" {...p} />;
export const ArrowUpIcon = (p: P) => <Icon d="M12 19V5M5 12l7-7 7 7" {...p} />;
export const SproutIcon = (p: P) => <Icon d="M12 22V11M12 11C12 7 9.5 4 4 4c0 4.5 3 7 8 7zM12 14c0-4 2.5-7 8-7 0 4.5-3 7-8 7zM7 22h10" {...p} />;
export const LayersIcon = (p: P) => <Icon d="m12 2 10 5-10 5L2 7zM2 12l10 5 10-5M2 17l10 5 10-5" {...p} />;
export const UsersIcon = (p: P) => <Icon d="M17 21v-2a4 4 0 0 0-4-4H5a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM23 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8" {...p} />;
export const PhoneIcon = (p: P) => <Icon d="M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1.9.4 1.8.7 2.7a2 2 0 0 1-.5 2.1L8.1 9.8a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.7.7a2 2 0 0 1 1.8 2z" {...p} />;
export const ClipboardIcon = (p: P) => <Icon d="M16 4h2a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2h2M9 2h6v4H9zM8 11h8M8 15h8M8 19h5" {...p} />;
