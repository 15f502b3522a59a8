import type { DefaultValue } from "@conform-to/react";
import type { z } from "zod";
import { useSubmitForm } from "../../components/use-submit-form.ts";

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
  const { form, fields, busy } = useSubmitForm<Schema, z.input<Schema>, void>({ id, schema, defaultValue, send: submit, refused: onFailure, busyAfterSuccess: true });
  return { form, fields, busy };
}
