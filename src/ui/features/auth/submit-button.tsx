import type { ReactNode } from "react";

/** The form's main button; while the call runs it stays named the same, busy and disabled. */
export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="btn-primary w-full py-2.5 text-base" disabled={busy} aria-busy={busy || undefined}>
      {busy && <span className="inline-block w-4 h-4 rounded-full border-2 border-white border-t-transparent animate-spin" aria-hidden="true" />}
      {children}
    </button>
  );
}
