import { getFormProps, getInputProps } from "@conform-to/react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { CoreError } from "../../../contract/core-error.ts";
import { loginForm } from "../../../contract/forms.ts";
import { LIMITS } from "../../../contract/limits.ts";
import { PasswordField, TextField } from "../../components/fields.tsx";
import { nextPathOf, withNext } from "../../components/next-path.ts";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { currentLocale } from "../../i18n/i18n.ts";
import type { Language } from "../../../contract/language-values.ts";
import { chooseSignedOutLanguage } from "../../components/language-select.tsx";
import { AuthCard, authLinkClass } from "./auth-card.tsx";
import { SubmitButton } from "./submit-button.tsx";
import { useAuthForm } from "./use-auth-form.ts";
import { refusalText } from "../../components/server-refusal.ts";

/** SPEC §2 Login: Welcome Back, email or username and password, then the dashboard. */
export default function LoginPage() {
  const { core, session } = useAppData();
  const navigate = useNavigate();
  // A page that needs signing in (an invitation's link) sends the person here with where to come back to.
  const next = nextPathOf(useLocation().search);
  // When sign-ins are throttled, the server says how long to wait: the toast stays SPEC's, the
  // form says the rest.
  const [throttled, setThrottled] = useState<string | null>(null);
  const { t } = useTranslation("auth");
  // A language picked here is the person's from now on (kept with their client); otherwise the
  // app follows the one their client already has.
  const languagePickedHere = useRef(false);
  const pickLanguage = (language: Language) => {
    languagePickedHere.current = true;
    chooseSignedOutLanguage(language);
  };

  const { form, fields, busy } = useAuthForm({
    id: "login",
    schema: loginForm,
    async submit({ emailOrUsername, password }) {
      setThrottled(null);
      const client = await core.login(emailOrUsername, password);
      const { language, digits } = currentLocale();
      const differs = client.language !== language || client.digits !== digits;
      // Saving the choice is not worth failing the sign-in over: this device keeps it either way.
      const signedIn =
        languagePickedHere.current && differs
          ? await core.updateClient(client.client_id, { client_id: client.client_id, language, digits }).catch(() => ({ ...client, language, digits }))
          : client;
      session.setClient(signedIn);
      notify.success(t("login.success"));
      navigate(next ?? "/dashboard", { replace: true });
    },
    // SPEC §8: one text for every failure, so it never tells which accounts exist.
    onFailure: (err) => {
      notify.error(t("login.failed"));
      if (err instanceof CoreError && err.code === "RATE_LIMITED" && err.serverMessage) setThrottled(refusalText(err));
    },
  });

  return (
    <AuthCard
      title={t("login.title")}
      subtitle={t("login.subtitle")}
      onChooseLanguage={pickLanguage}
      footer={
        <>
          {t("login.noAccount")}{" "}
          <Link to={withNext("/register", next)} className={authLinkClass}>
            {t("login.signUp")}
          </Link>
        </>
      }
    >
      <form {...getFormProps(form)}>
        <TextField
          label={t("login.emailOrUsername")}
          {...getInputProps(fields.emailOrUsername, { type: "text" })}
          error={fields.emailOrUsername.errors}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={LIMITS.loginName}
        />
        <PasswordField
          label={t("login.password")}
          {...getInputProps(fields.password, { type: "password" })}
          error={fields.password.errors}
          autoComplete="current-password"
          maxLength={LIMITS.passwordLogin.max}
        />
        <p className="-mt-2 mb-5 text-end text-sm">
          <Link to="/forgot-password" className={authLinkClass}>
            {t("login.forgotPassword")}
          </Link>
        </p>
        {throttled && (
          <p role="alert" className="mb-4 rounded-lg bg-amber-50 px-3 py-2 text-sm 4xl:text-lg text-amber-900 ring-1 ring-inset ring-amber-200">
            {throttled}
          </p>
        )}
        <SubmitButton busy={busy}>{t("login.submit")}</SubmitButton>
      </form>
    </AuthCard>
  );
}
