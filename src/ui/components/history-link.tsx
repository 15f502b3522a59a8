import type { ReactNode } from "react";
import { Link, useInRouterContext } from "react-router-dom";

/** The reading history screens: an MCU's detail page, and a farm's comparison of its MCUs. */
export const mcuHistoryPath = (mcuId: number) => `/mcu/${mcuId}`;
export const farmHistoryPath = (farmId: number) => `/farms/${farmId}/history`;

/** A line chart: what the history links show beside their words. */
export function ChartIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" className={className}>
      <path d="M3 3v18h18M7 15l4-4 3 3 5-6" />
    </svg>
  );
}

/**
 * A link to a history screen from a card. Cards are also rendered alone, outside the app's
 * router (their browser tests): there it is a plain link, which works the same but reloads.
 */
export function HistoryLink({ to, children, className, label }: { to: string; children: ReactNode; className?: string; label?: string }) {
  const inRouter = useInRouterContext();
  return inRouter ? (
    <Link to={to} className={className} aria-label={label}>
      {children}
    </Link>
  ) : (
    <a href={to} className={className} aria-label={label}>
      {children}
    </a>
  );
}
