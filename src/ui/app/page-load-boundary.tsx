import { Component, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** SPEC §9: a screen's script may take up to 120 s to load. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/**
 * Loads a lazy screen's script, tries once more a second after a failure (a flaky connection in
 * the grow room), and gives up after the time-out; the boundary below then reports it.
 */
export function loadWithRetry<T>(load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  const attempt = () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("The screen took too long to load")), timeoutMs);
      load().then(
        (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  return attempt().catch(() => new Promise<void>((r) => setTimeout(r, 1000)).then(attempt));
}

/** Reports a screen that could not be loaded, with a way out, instead of a blank page. */
export class PageLoadBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error("A screen failed to load", error);
  }

  override render() {
    return this.state.failed ? <PageLoadFailed /> : this.props.children;
  }
}

/** What the boundary shows: a function component, so it follows the person's language. */
function PageLoadFailed() {
  const { t } = useTranslation("common");
  return (
    <div role="alert" className="max-w-md mx-auto my-16 text-center card p-6">
      <h2 className="text-lg font-semibold text-gray-900">{t("pageLoad.title")}</h2>
      <p className="mt-2 text-gray-600">{t("pageLoad.hint")}</p>
      <button type="button" className="btn-primary mt-4" onClick={() => window.location.reload()}>
        {t("pageLoad.reload")}
      </button>
    </div>
  );
}
