import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { registerForm } from "../../../contract/forms.ts";
import { CONSTANTS, LIMITS } from "../../../contract/limits.ts";
import { DEFAULT_COUNTRY_CODE } from "../../components/countries.ts";
import { CountrySelect } from "../../components/country-select.tsx";
import { PasswordField, TextAreaField, TextField } from "../../components/fields.tsx";
import { nextPathOf, withNext } from "../../components/next-path.ts";
import { messageOf, notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { currentLocale } from "../../i18n/i18n.ts";
import { AuthCard, authLinkClass } from "./auth-card.tsx";
import { SubmitButton } from "./submit-button.tsx";
import { useAuthForm } from "./use-auth-form.ts";

/** SPEC §2 Register: Create Account; on success the new client signs in on /login. */
export default function RegisterPage() {
  const { core } = useAppData();
  const navigate = useNavigate();
  // Where signing in leads afterwards (an invitation's link), passed on to /login.
  const next = nextPathOf(useLocation().search);
  const { t } = useTranslation("auth");

  const { form, fields, busy } = useAuthForm({
    id: "register",
    schema: registerForm,
    defaultValue: { country: DEFAULT_COUNTRY_CODE },
    async submit(value) {
      // SPEC §3: the body is the registration fields, confirmPassword included, with the language
      // the person reads the app in, so what the server sends them is in it from the start.
      const { language, digits } = currentLocale();
      await core.register({ ...value, language, digits });
      notify.success(t("register.success"));
      navigate(withNext("/login", next));
    },
    onFailure: (err) => notify.error(messageOf(err, t("register.failed")), { position: "top-center", autoClose: CONSTANTS.registerErrorToastMs }),
  });

  return (
    <AuthCard
      wide
      title={t("register.title")}
      subtitle={t("register.subtitle")}
      footer={
        <>
          {t("register.haveAccount")}{" "}
          <Link to={withNext("/login", next)} className={authLinkClass}>
            {t("register.signIn")}
          </Link>
        </>
      }
    >
      <form {...getFormProps(form)}>
        <div className="grid gap-x-5 sm:grid-cols-2">
          <TextField
            label={t("register.username")}
            {...getInputProps(fields.username, { type: "text" })}
            error={fields.username.errors}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={LIMITS.username.max}
          />
          <TextField
            label={t("register.email")}
            {...getInputProps(fields.email, { type: "email" })}
            error={fields.email.errors}
            autoComplete="email"
            maxLength={LIMITS.email}
          />
          <PasswordField
            label={t("register.password")}
            {...getInputProps(fields.password, { type: "password" })}
            error={fields.password.errors}
            autoComplete="new-password"
            maxLength={LIMITS.passwordRegister.max}
          />
          <PasswordField
            label={t("register.confirmPassword")}
            {...getInputProps(fields.confirmPassword, { type: "password" })}
            error={fields.confirmPassword.errors}
            autoComplete="new-password"
            maxLength={LIMITS.passwordRegister.max}
          />
          <TextField
            label={t("register.mobile")}
            {...getInputProps(fields.mobile, { type: "tel" })}
            error={fields.mobile.errors}
            autoComplete="tel"
            maxLength={LIMITS.mobile}
          />
          <CountrySelect {...getSelectProps(fields.country)} error={fields.country.errors} autoComplete="country" />
        </div>
        <TextAreaField
          label={t("register.address")}
          {...getTextareaProps(fields.address)}
          error={fields.address.errors}
          autoComplete="street-address"
          maxLength={LIMITS.address}
        />
        <SubmitButton busy={busy}>{t("register.submit")}</SubmitButton>
      </form>
    </AuthCard>
  );
}
