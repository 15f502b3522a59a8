import { getFormProps, getInputProps } from "@conform-to/react";
import type { Client } from "../../../contract/entities.ts";
import { settingsPasswordForm } from "../../../contract/forms.ts";
import { PasswordField } from "../../components/fields.tsx";
import { notify } from "../../components/toasts.ts";
import { useSubmitForm } from "../../components/use-submit-form.ts";
import { useAppData } from "../../data/provider.tsx";
import { ServerMessage, serverMessageOf } from "./server-message.tsx";

/** SPEC §2 Settings, Security tab: a new password, typed twice. */
export function PasswordSettingsForm({ client }: { client: Client }) {
  const { core, session } = useAppData();
  const { form, fields, busy: saving, refusal: serverMessage } = useSubmitForm({
    id: "settings-password",
    schema: settingsPasswordForm,
    async send(value) {
      const updated = await core.updateClient(client.client_id, {
        client_id: client.client_id,
        password: value.password,
        confirm_password: value.confirm_password,
      });
      session.setClient(updated);
      notify.success("Update password Success");
      form.reset();
    },
    refused(err) {
      notify.error("Update password Failed");
      return serverMessageOf(err);
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
