import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Language } from "../../../contract/language-values.ts";
import { chooseSignedOutLanguage, LanguageSelect } from "../../components/language-select.tsx";

export const authLinkClass =
  "font-medium text-brand-700 hover:text-brand-800 underline underline-offset-2 decoration-brand-700/40 hover:decoration-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600 rounded";

/**
 * The frame of the signed-out screens: brand header, the language to read them in, and a centred
 * card. These screens skip the shared layout (SPEC §2), so the card's title is the page's h1. On
 * wall screens the whole card is zoomed, since its form controls use fixed small type that would
 * be unreadable from afar.
 */
export function AuthCard({
  title,
  subtitle,
  wide = false,
  footer,
  children,
  onChooseLanguage = chooseSignedOutLanguage,
}: {
  title: string;
  subtitle?: string;
  wide?: boolean;
  footer?: ReactNode;
  children: ReactNode;
  onChooseLanguage?: (language: Language) => void;
}) {
  const { t } = useTranslation("auth");
  useEffect(() => {
    document.title = t("documentTitle", { title });
  }, [title, t]);

  return (
    <div className="min-h-screen bg-brand-50 flex flex-col items-center justify-center px-4 py-8 sm:py-12">
      <main className={`w-full ${wide ? "max-w-2xl" : "max-w-md"} 3xl:[zoom:1.25] 4xl:[zoom:2]`}>
        <LanguageSelect onChoose={onChooseLanguage} className="justify-end mb-4" />
        <p className="flex items-center justify-center gap-3 mb-6 text-xl font-bold text-brand-900">
          {/* The logo's white stem needs a dark ground: the app icon's tile, as in the sidebar. */}
          <span className="inline-flex items-center justify-center w-11 h-11 rounded-xl bg-brand-900 shadow-sm">
            <img src="/favicon.svg" alt="" width={32} height={32} className="w-8 h-8" />
          </span>
          {t("brand")}
        </p>
        <div className="card px-5 py-6 sm:px-8 sm:py-8">
          <h1 className="text-2xl font-semibold text-gray-900 text-center">{title}</h1>
          {subtitle && <p className="mt-1 mb-6 text-center text-gray-600">{subtitle}</p>}
          {!subtitle && <div className="mb-6" />}
          {children}
        </div>
        {footer && <div className="mt-6 text-center text-gray-700">{footer}</div>}
      </main>
    </div>
  );
}
