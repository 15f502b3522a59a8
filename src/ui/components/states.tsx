import type { ReactNode } from "react";

/** A list's loading state, announced politely to screen readers. */
export function Loading({ text = "Loading…" }: { text?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex items-center gap-3 py-12 justify-center text-gray-600">
      <span className="inline-block w-5 h-5 rounded-full border-2 border-brand-600 border-t-transparent animate-spin" aria-hidden="true" />
      {text}
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
  return (
    <div role="alert" className="text-center py-10 px-4 rounded-2xl bg-red-50 text-red-800">
      <p className="mb-3">{text}</p>
      <button type="button" className="btn-secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
