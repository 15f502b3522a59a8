import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { AuthCard, authLinkClass } from "./auth-card.tsx";

/**
 * Reached only from Login's link; SPEC does not show this screen. Mushroom Farm sends no email,
 * so this page says how a password really gets changed instead of offering a form that does nothing.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation("auth");
  return (
    <AuthCard title={t("forgot.title")}>
      <div className="space-y-4 text-gray-700 leading-relaxed">
        <p>{t("forgot.noEmail")}</p>
        <p>
          <Trans t={t} i18nKey="forgot.signedIn" components={{ strong: <strong /> }} />
        </p>
        <p>{t("forgot.askOwner")}</p>
      </div>
      <p className="mt-6 text-center">
        <Link to="/login" className={authLinkClass}>
          {t("forgot.back")}
        </Link>
      </p>
    </AuthCard>
  );
}
