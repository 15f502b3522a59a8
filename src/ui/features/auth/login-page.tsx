import { getFormProps, getInputProps } from "@conform-to/react";
import { Link, useNavigate } from "react-router-dom";
import { loginForm } from "../../../contract/forms.ts";
import { LIMITS } from "../../../contract/limits.ts";
import { PasswordField, TextField } from "../../components/fields.tsx";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { AuthCard, authLinkClass } from "./auth-card.tsx";
import { SubmitButton } from "./submit-button.tsx";
import { useAuthForm } from "./use-auth-form.ts";

/** SPEC §2 Login: Welcome Back, email or username and password, then the dashboard. */
export default function LoginPage() {
  const { core, session } = useAppData();
  const navigate = useNavigate();

  const { form, fields, busy } = useAuthForm({
    id: "login",
    schema: loginForm,
    async submit({ emailOrUsername, password }) {
      const client = await core.login(emailOrUsername, password);
      session.setClient(client);
      notify.success("Login successful!");
      navigate("/dashboard", { replace: true });
    },
    // SPEC §8: one text for every failure, so it never tells which accounts exist.
    onFailure: () => notify.error("Invalid credentials or server error"),
  });

  return (
    <AuthCard
      title="Welcome Back"
      subtitle="Sign in to look after your farms"
      footer={
        <>
          Don&apos;t have an account?{" "}
          <Link to="/register" className={authLinkClass}>
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
        <SubmitButton busy={busy}>Sign In</SubmitButton>
      </form>
    </AuthCard>
  );
}
