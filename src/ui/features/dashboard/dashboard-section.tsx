import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import type { ListLoad } from "../../components/use-list-load.ts";

/**
 * One list of the dashboard with a link to the page that manages it. A failed reload keeps the
 * list the store still holds under its LoadError, and "empty" is said only once a load succeeded,
 * so a failure never reads as "you have none". What the store holds shows at once, also while a
 * long list is still loading (its first screen comes first).
 */
export function DashboardSection({
  headingId,
  title,
  to,
  linkContent,
  load,
  onRetry,
  loadingText,
  hasItems,
  emptyTitle,
  emptyLinkText,
  children,
}: {
  headingId: string;
  title: string;
  /** The managing page, for the header link and the empty state's link. */
  to: string;
  linkContent: ReactNode;
  load: ListLoad;
  onRetry: () => void;
  loadingText: string;
  hasItems: boolean;
  emptyTitle: string;
  emptyLinkText: string;
  /** The list, shown while `hasItems`. */
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 4xl:gap-4">
      <div className="flex items-center justify-between gap-3">
        <h2 id={headingId} className="text-lg 4xl:text-3xl font-semibold text-gray-900">
          {title}
        </h2>
        <Link to={to} className="btn-secondary 4xl:text-xl 4xl:px-6 4xl:py-3">
          {linkContent}
        </Link>
      </div>
      {load.status === "error" && <LoadError text={load.message} onRetry={onRetry} />}
      {hasItems ? (
        // The first screen of a long list shows while the rest of it still loads.
        children
      ) : load.status === "loading" ? (
        <Loading text={loadingText} />
      ) : (
        load.status === "ready" && (
          <EmptyState title={emptyTitle}>
            <Link to={to} className="text-brand-700 underline">
              {emptyLinkText}
            </Link>
          </EmptyState>
        )
      )}
    </section>
  );
}
