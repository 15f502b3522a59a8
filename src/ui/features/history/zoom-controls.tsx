import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import type { XRange } from "./x-range.ts";

const buttonClass =
  "inline-flex items-center justify-center min-h-11 min-w-11 4xl:min-h-16 4xl:min-w-16 rounded-lg border border-gray-300 bg-white px-3 text-sm 4xl:text-xl font-medium text-gray-800 hover:bg-gray-50 disabled:opacity-50 disabled:cursor-not-allowed focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

/**
 * Zoom in, out and back to the whole range, for every chart at once: what a drag or a double
 * click does with a mouse, within reach of a thumb and of the keyboard.
 */
export function ZoomControls({ range }: { range: XRange }) {
  const { t } = useTranslation("history");
  const zoomed = useSyncExternalStore(range.subscribe, range.zoomed);
  return (
    <div role="group" aria-label={t("zoom.group")} className="inline-flex gap-2">
      <button type="button" className={buttonClass} aria-label={t("zoom.in")} title={t("zoom.in")} onClick={() => range.zoomBy(0.5)}>
        <span aria-hidden="true" className="text-lg 4xl:text-2xl leading-none">+</span>
      </button>
      <button type="button" className={buttonClass} aria-label={t("zoom.out")} title={t("zoom.out")} onClick={() => range.zoomBy(2)} disabled={!zoomed}>
        <span aria-hidden="true" className="text-lg 4xl:text-2xl leading-none">−</span>
      </button>
      <button type="button" className={buttonClass} onClick={() => range.reset()} disabled={!zoomed}>
        {t("zoom.reset")}
      </button>
    </div>
  );
}
