import type { ReactNode } from "react";
import { Trans, useTranslation } from "react-i18next";
import type { EntityName } from "../../contract/live.ts";
import { useSavedAt } from "../data/hooks.ts";
import { savedAgeText } from "../data/saved-age.ts";
import { useLocale } from "../i18n/i18n.ts";
import { formatDateTime } from "./dates.ts";
import { useNow } from "./use-now.ts";

/** A list's loading state, announced politely to screen readers. */
export function Loading({ text }: { text?: string }) {
  const { t } = useTranslation("common");
  return (
    <div role="status" aria-live="polite" className="flex items-center gap-3 py-12 justify-center text-gray-600">
      <span className="inline-block w-5 h-5 rounded-full border-2 border-brand-600 border-t-transparent animate-spin" aria-hidden="true" />
      {text ?? t("states.loading")}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="text-center py-12 px-4 border-2 border-dashed border-gray-200 rounded-2xl bg-white">
      <p className="text-lg font-medium text-gray-800">{title}</p>
      {children && <div className="mt-3 text-gray-600">{children}</div>}
    </div>
  );
}

/** A failed load that leaves the page usable, with a way to try again. */
export function LoadError({ text, onRetry }: { text: string; onRetry: () => void }) {
  const { t } = useTranslation("common");
  return (
    <div role="alert" className="text-center py-10 px-4 rounded-2xl bg-red-50 text-red-800">
      <p className="mb-3">{text}</p>
      <button type="button" className="btn-secondary" onClick={onRetry}>
        {t("actions.tryAgain")}
      </button>
    </div>
  );
}

/**
 * Says how old the lists on screen are while the farm server cannot be reached and they are shown
 * from what this device saved; nothing while they are current. They reload by themselves when the
 * server answers again.
 */
export function SavedDataNotice({ lists }: { lists: readonly EntityName[] }) {
  const { t } = useTranslation("common");
  // The age and the date are in the person's digits: a change of digits alone renders it again.
  useLocale();
  const savedAt = useSavedAt(lists);
  const now = useNow();
  if (savedAt === null) return null;
  return (
    <p role="status" className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 4xl:px-6 4xl:py-4 text-sm 4xl:text-2xl text-amber-950">
      <Trans
        t={t}
        i18nKey="states.savedNotice"
        values={{ age: savedAgeText(savedAt, Math.max(now, Date.now())) }}
        components={{
          strong: <span className="font-semibold" />,
          time: <time dateTime={new Date(savedAt).toISOString()} title={formatDateTime(savedAt)} />,
        }}
      />
    </p>
  );
}
