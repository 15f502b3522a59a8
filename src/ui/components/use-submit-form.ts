import { useForm, type DefaultValue, type Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import type { z } from "zod";

export interface PendingSendOptions<Refusal> {
  /**
   * Says a refusal: SPEC §8's toast where the form has one, and what the form keeps showing
   * (the server's reason) until the next try. Without it a refusal is the caller's to handle.
   */
  refused?: (err: unknown) => Refusal;
  /**
   * A success leaves the form (the page moves on, the dialog closes): it stays busy, since a
   * second click in the meantime would send it again.
   */
  busyAfterSuccess?: boolean;
}

/** One send at a time: busy while it runs, and the refusal of the last try. */
export function usePendingSend<Refusal = never>({ refused, busyAfterSuccess = false }: PendingSendOptions<Refusal> = {}) {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  async function run(send: () => Promise<void> | void): Promise<void> {
    setBusy(true);
    setRefusal(null);
    let sent = false;
    try {
      await send();
      sent = true;
    } catch (err) {
      if (!refused) throw err;
      setRefusal(refused(err));
    } finally {
      if (!(sent && busyAfterSuccess)) setBusy(false);
    }
  }

  return { busy, refusal, setRefusal, run };
}

export interface SubmitFormOptions<Schema extends z.ZodType, Fields, Refusal> extends PendingSendOptions<Refusal> {
  /** Conform's form id; without it Conform makes one. */
  id?: string;
  /** The form's SPEC §5 schema: its messages are the ones shown under the fields. */
  schema: Schema;
  defaultValue?: DefaultValue<NoInfer<Fields>>;
  /** Sends the valid form (its success toast included); it throws when the server refuses. */
  send: (value: z.output<Schema>) => Promise<void> | void;
}

/**
 * A Conform form checked by its zod schema: on blur, then again while typing, and sent only
 * when valid, one send at a time. `Fields` are the form's raw values as Conform sees them: the
 * schema's input unless a schema that coerces (input unknown) is given its own.
 */
export function useSubmitForm<Schema extends z.ZodType, Fields extends Record<string, any> = Extract<z.input<Schema>, Record<string, any>>, Refusal = never>({
  id,
  schema,
  defaultValue,
  send,
  ...pending
}: SubmitFormOptions<Schema, Fields, Refusal>) {
  const { busy, refusal, setRefusal, run } = usePendingSend(pending);
  const [form, fields] = useForm<Fields, z.output<Schema>>({
    id,
    defaultValue,
    // parseWithZod types the raw values as the schema's input; Conform's are `Fields`.
    onValidate: ({ formData }) => parseWithZod(formData, { schema }) as Submission<Fields, string[], z.output<Schema>>,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    async onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status !== "success") return;
      const { value } = submission;
      await run(() => send(value));
    },
  });
  return { form, fields, busy, refusal, setRefusal };
}
