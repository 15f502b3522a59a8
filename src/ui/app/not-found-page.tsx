import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { numberFormat } from "../i18n/format.ts";
import { useLocale } from "../i18n/i18n.ts";

export default function NotFoundPage() {
  const { t } = useTranslation("common");
  useLocale();
  return (
    <main className="min-h-screen flex items-center justify-center bg-gray-50 p-6">
      <div className="text-center">
        <p className="text-6xl font-bold text-brand-700">{numberFormat({ useGrouping: false }).format(404)}</p>
        <h1 className="mt-2 text-2xl font-semibold text-gray-900">{t("notFound.title")}</h1>
        <p className="mt-2 text-gray-600">{t("notFound.text")}</p>
        <Link to="/dashboard" className="btn-primary mt-6">
          {t("notFound.toDashboard")}
        </Link>
      </div>
    </main>
  );
}
