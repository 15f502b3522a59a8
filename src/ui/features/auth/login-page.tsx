import { getFormProps, getInputProps } from "@conform-to/react";
import { useState } from "react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { CoreError } from "../../../contract/core-error.ts";
import { loginForm } from "../../../contract/forms.ts";
import { LIMITS } from "../../../contract/limits.ts";
import { PasswordField, TextField } from "../../components/fields.tsx";
import { nextPathOf, withNext } from "../../components/next-path.ts";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { AuthCard, authLinkClass } from "./auth-card.tsx";
import { SubmitButton } from "./submit-button.tsx";
import { useAuthForm } from "./use-auth-form.ts";

/** SPEC §2 Login: Welcome Back, email or username and password, then the dashboard. */
export default function LoginPage() {
  const { core, session } = useAppData();
  const navigate = useNavigate();
  // A page that needs signing in (an invitation's link) sends the person here with where to come back to.
  const next = nextPathOf(useLocation().search);
  // When sign-ins are throttled, the server says how long to wait: the toast stays SPEC's, the
  // form says the rest.
  const [throttled, setThrottled] = useState<string | null>(null);

  const { form, fields, busy } = useAuthForm({
    id: "login",
    schema: loginForm,
    async submit({ emailOrUsername, password }) {
      setThrottled(null);
      const client = await core.login(emailOrUsername, password);
      session.setClient(client);
      notify.success("Login successful!");
      navigate(next ?? "/dashboard", { replace: true });
    },
    // SPEC §8: one text for every failure, so it never tells which accounts exist.
    onFailure: (err) => {
      notify.error("Invalid credentials or server error");
      if (err instanceof CoreError && err.code === "RATE_LIMITED" && err.serverMessage) setThrottled(err.serverMessage);
    },
  });

  return (
    <AuthCard
      title="Welcome Back"
      subtitle="Sign in to look after your farms"
      footer={
        <>
          Don&apos;t have an account?{" "}
          <Link to={withNext("/register", next)} className={authLinkClass}>
            Sign Up
          </Link>
        </>
      }
    >
      <form {...getFormProps(form)}>
        <TextField
          label="Email or Username"
          {...getInputProps(fields.emailOrUsername, { type: "text" })}
          error={fields.emailOrUsername.errors}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={LIMITS.loginName}
        />
        <PasswordField
          label="Password"
          {...getInputProps(fields.password, { type: "password" })}
          error={fields.password.errors}
          autoComplete="current-password"
          maxLength={LIMITS.passwordLogin.max}
        />
        <p className="-mt-2 mb-5 text-right text-sm">
          <Link to="/forgot-password" className={authLinkClass}>
            Forgot password?
          </Link>
        </p>
        {throttled && (
          <p role="alert" className="mb-4 rounded-lg bg-amber-50 px-3 py-2 text-sm 4xl:text-lg text-amber-900 ring-1 ring-inset ring-amber-200">
            {throttled}
          </p>
        )}
        <SubmitButton busy={busy}>Sign In</SubmitButton>
      </form>
    </AuthCard>
  );
}
