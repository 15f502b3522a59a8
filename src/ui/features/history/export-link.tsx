import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";

function DownloadIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" className={className}>
      <path d="M12 3v12M7 10l5 5 5-5M5 21h14" />
    </svg>
  );
}

/**
 * "Export CSV": a download link whose address is made when it is followed, so a range that ends
 * now ends at the moment of the click, not when the page was drawn.
 */
export function ExportLink({ href, label, name }: { href: () => string; label?: string; /** The accessible name when the visible label needs its context ("Export commands as CSV"). */ name?: string }) {
  const { t } = useTranslation("history");
  const follow = (e: MouseEvent<HTMLAnchorElement>) => {
    e.currentTarget.href = href();
  };
  return (
    <a href={href()} download onClick={follow} className="btn-secondary 4xl:text-xl 4xl:px-6 4xl:py-3" aria-label={name}>
      <DownloadIcon /> {label ?? t("exportCsv")}
    </a>
  );
}
