import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { loginForm } from "../../../contract/forms.ts";
import { LIMITS } from "../../../contract/limits.ts";
import { PasswordField, TextField } from "../../components/fields.tsx";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { AuthCard, authLinkClass } from "./auth-card.tsx";
import { SubmitButton } from "./submit-button.tsx";

/** SPEC §2 Login: Welcome Back, email or username and password, then the dashboard. */
export default function LoginPage() {
  const { core, session } = useAppData();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const [form, fields] = useForm({
    id: "login",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginForm }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    async onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status !== "success") return;
      setBusy(true);
      try {
        const client = await core.login(submission.value.emailOrUsername, submission.value.password);
        session.setClient(client);
        notify.success("Login successful!");
        navigate("/dashboard", { replace: true });
      } catch {
        // SPEC §8: one text for every failure, so it never tells which accounts exist.
        notify.error("Invalid credentials or server error");
        setBusy(false);
      }
    },
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
