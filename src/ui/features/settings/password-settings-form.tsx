import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import type { Client } from "../../../contract/entities.ts";
import { settingsPasswordForm } from "../../../contract/forms.ts";
import { PasswordField } from "../../components/fields.tsx";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { ServerMessage, serverMessageOf } from "./server-message.tsx";

/** SPEC §2 Settings, Security tab: a new password, typed twice. */
export function PasswordSettingsForm({ client }: { client: Client }) {
  const { core, session } = useAppData();
  const [saving, setSaving] = useState(false);
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const [form, fields] = useForm({
    id: "settings-password",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: settingsPasswordForm }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    async onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status !== "success") return;
      setSaving(true);
      setServerMessage(null);
      try {
        const updated = await core.updateClient(client.client_id, {
          client_id: client.client_id,
          password: submission.value.password,
          confirm_password: submission.value.confirm_password,
        });
        session.setClient(updated);
        notify.success("Update password Success");
        form.reset();
      } catch (err) {
        notify.error("Update password Failed");
        setServerMessage(serverMessageOf(err));
      } finally {
        setSaving(false);
      }
    },
  });

  return (
    <form {...getFormProps(form)} className="max-w-md">
      {/* Lets password managers tie the new password to this account. */}
      <input type="text" autoComplete="username" value={client.username} readOnly hidden />
      <PasswordField label="New Password" {...getInputProps(fields.password, { type: "password" })} error={fields.password.errors} autoComplete="new-password" />
      <PasswordField
        label="Confirm New Password"
        {...getInputProps(fields.confirm_password, { type: "password" })}
        error={fields.confirm_password.errors}
        autoComplete="new-password"
      />
      <div className="flex flex-col items-stretch sm:items-start gap-2">
        <ServerMessage text={serverMessage} />
        <button type="submit" className="btn-primary" disabled={saving}>
          Update Password
        </button>
      </div>
    </form>
  );
}
