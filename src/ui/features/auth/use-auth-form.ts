import { useForm, type DefaultValue } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import type { z } from "zod";

type FormSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

interface AuthFormOptions<Schema extends FormSchema> {
  id: string;
  schema: Schema;
  defaultValue?: DefaultValue<z.input<Schema>>;
  /** Sends the valid form and moves on; it throws when the server refuses. */
  submit: (value: z.output<Schema>) => Promise<void>;
  /** Shows SPEC §8's failure toast for what `submit` threw. */
  onFailure: (err: unknown) => void;
}

/**
 * The sign-in and sign-up forms: validated on blur, then while typing, and busy from a valid
 * submit until it fails. A success leaves the button busy on purpose, since the page is leaving
 * and a second click would send the form again.
 */
export function useAuthForm<Schema extends FormSchema>({ id, schema, defaultValue, submit, onFailure }: AuthFormOptions<Schema>) {
  const [busy, setBusy] = useState(false);
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    id,
    defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    async onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status !== "success") return;
      setBusy(true);
      try {
        await submit(submission.value);
      } catch (err) {
        onFailure(err);
        setBusy(false);
      }
    },
  });
  return { form, fields, busy };
}
