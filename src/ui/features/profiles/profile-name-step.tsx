import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { profileNameForm } from "../../../contract/forms.ts";
import { LIMITS } from "../../../contract/limits.ts";
import { TextField } from "../../components/fields.tsx";

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
  const [form, fields] = useForm({
    id: formId,
    defaultValue: defaultName === undefined ? undefined : { name: defaultName },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileNameForm }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status === "success") onNext(submission.value.name);
    },
  });

  return (
    <form {...getFormProps(form)} hidden={hidden}>
      <TextField
        label="Profile Name"
        placeholder="e.g. Oyster fruiting"
        autoComplete="off"
        maxLength={LIMITS.name}
        autoFocus
        {...getInputProps(fields.name, { type: "text" })}
        error={fields.name.errors}
      />
      <div className="flex flex-col-reverse sm:flex-row sm:justify-end gap-3">
        <button type="button" className="btn-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn-primary">
          Next: Define Settings
        </button>
      </div>
    </form>
  );
}
