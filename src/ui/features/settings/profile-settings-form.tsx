import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import type { Client } from "../../../contract/entities.ts";
import { settingsProfileForm } from "../../../contract/forms.ts";
import { CountrySelect } from "../../components/country-select.tsx";
import { TextAreaField, TextField } from "../../components/fields.tsx";
import { notify } from "../../components/toasts.ts";
import { useSubmitForm } from "../../components/use-submit-form.ts";
import { useAppData } from "../../data/provider.tsx";
import { ServerMessage, serverMessageOf } from "./server-message.tsx";

/** SPEC §2 Settings, Profile tab: the client's own account details. */
export function ProfileSettingsForm({ client }: { client: Client }) {
  const { core, session } = useAppData();
  const { t } = useTranslation("settings");
  const { form, fields, busy: saving, refusal: serverMessage } = useSubmitForm({
    id: "settings-profile",
    schema: settingsProfileForm,
    defaultValue: { username: client.username, email: client.email, mobile: client.mobile, country: client.country, address: client.address },
    async send(v) {
      const updated = await core.updateClient(client.client_id, {
        client_id: client.client_id,
        username: v.username,
        email: v.email,
        // Phone and address are optional: an emptied field clears them rather than keeping the old value.
        mobile: v.mobile ?? "",
        address: v.address ?? "",
        ...(v.country ? { country: v.country } : {}),
      });
      session.setClient(updated);
      notify.success(t("profile.saved"));
    },
    refused(err) {
      notify.error(t("profile.failed"));
      return serverMessageOf(err);
    },
  });

  return (
    <form {...getFormProps(form)} className="grid gap-x-6 md:grid-cols-2">
      <TextField label={t("profile.firstName")} {...getInputProps(fields.username, { type: "text" })} error={fields.username.errors} autoComplete="given-name" />
      <TextField label={t("profile.email")} {...getInputProps(fields.email, { type: "email" })} error={fields.email.errors} autoComplete="email" />
      <TextField label={t("profile.phone")} {...getInputProps(fields.mobile, { type: "tel" })} error={fields.mobile.errors} autoComplete="tel" />
      <CountrySelect {...getSelectProps(fields.country)} error={fields.country.errors} />
      <div className="md:col-span-2">
        <TextAreaField label={t("profile.address")} {...getTextareaProps(fields.address)} error={fields.address.errors} autoComplete="street-address" />
      </div>
      <div className="md:col-span-2 flex flex-col items-stretch sm:items-end gap-2">
        <ServerMessage text={serverMessage} />
        <button type="submit" className="btn-primary" disabled={saving}>
          {t("profile.save")}
        </button>
      </div>
    </form>
  );
}
