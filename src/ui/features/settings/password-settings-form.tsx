import { getFormProps, getInputProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
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
  const { t } = useTranslation("settings");
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
      notify.success(t("password.saved"));
      form.reset();
    },
    refused(err) {
      notify.error(t("password.failed"));
      return serverMessageOf(err);
    },
  });

  return (
    <form {...getFormProps(form)} className="max-w-md">
      {/* Lets password managers tie the new password to this account. */}
      <input type="text" autoComplete="username" value={client.username} readOnly hidden />
      <PasswordField label={t("password.new")} {...getInputProps(fields.password, { type: "password" })} error={fields.password.errors} autoComplete="new-password" />
      <PasswordField
        label={t("password.confirm")}
        {...getInputProps(fields.confirm_password, { type: "password" })}
        error={fields.confirm_password.errors}
        autoComplete="new-password"
      />
      <div className="flex flex-col items-stretch sm:items-start gap-2">
        <ServerMessage text={serverMessage} />
        <button type="submit" className="btn-primary" disabled={saving}>
          {t("password.submit")}
        </button>
      </div>
    </form>
  );
}
