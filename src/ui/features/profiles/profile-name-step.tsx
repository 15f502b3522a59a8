import { getFormProps, getInputProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { profileNameForm } from "../../../contract/forms.ts";
import { LIMITS } from "../../../contract/limits.ts";
import { TextField } from "../../components/fields.tsx";
import { CancelAndSubmit } from "../../components/form-buttons.tsx";
import { useSubmitForm } from "../../components/use-submit-form.ts";

/** Step 1 of a profile (SPEC §4): its name. */
export function ProfileNameStep({
  formId,
  defaultName,
  hidden,
  onNext,
  onCancel,
}: {
  formId: string;
  defaultName: string | undefined;
  hidden: boolean;
  onNext: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation("profiles");
  const { form, fields } = useSubmitForm({
    id: formId,
    schema: profileNameForm,
    defaultValue: defaultName === undefined ? undefined : { name: defaultName },
    send: (value) => onNext(value.name),
  });

  return (
    <form {...getFormProps(form)} hidden={hidden}>
      <TextField
        label={t("nameStep.name")}
        placeholder={t("nameStep.namePlaceholder")}
        autoComplete="off"
        maxLength={LIMITS.name}
        autoFocus
        {...getInputProps(fields.name, { type: "text" })}
        error={fields.name.errors}
      />
      <CancelAndSubmit submit={t("nameStep.next")} onCancel={onCancel} />
    </form>
  );
}
